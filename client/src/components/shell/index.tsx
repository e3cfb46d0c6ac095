// The signed-in app: header on top; below it either Settings, the Library, or the sidebar with the chat
// (/c/:id) or an empty state (/).
import { useCallback } from "preact/hooks";
import type { User } from "../../../../protocol";
import { navigate, type Route } from "../../lib/router";
import { useConversations } from "../../lib/use-conversations";
import { useHealth } from "../../lib/use-health";
import { Chat } from "../chat";
import { ConversationList } from "../conversation-list";
import { Header } from "../header";
import { Library } from "../library";
import { NotesPage } from "../notes-page";
import { Settings } from "../settings";
import { TasksPage } from "../tasks-page";
import style from "./style.module.css";

type Props = { user: User; route: Route; onLogOut: () => void };

export function Shell({ user, route, onLogOut }: Props) {
  const health = useHealth();
  const { conversations, error, refresh, create, remove } = useConversations();
  const activeId = route.name === "conversation" ? route.id : null;

  const onCreate = useCallback(async () => {
    const conversation = await create();
    if (conversation) navigate(`/c/${encodeURIComponent(conversation.id)}`);
  }, [create]);

  const onDelete = useCallback(
    async (id: string) => {
      if ((await remove(id)) && id === activeId) navigate("/");
    },
    [remove, activeId],
  );

  const onTurnEnded = useCallback(() => void refresh(), [refresh]);

  return (
    <div class={style.shell}>
      <Header user={user} health={health} onLogOut={onLogOut} />
      {route.name === "settings" ? (
        <Settings tab={route.tab} />
      ) : route.name === "library" ? (
        <Library />
      ) : route.name === "notes" ? (
        <NotesPage path={route.path} />
      ) : route.name === "tasks" ? (
        <TasksPage />
      ) : (
        <div class={style.body}>
          <ConversationList
            conversations={conversations}
            activeId={activeId}
            error={error}
            onCreate={() => void onCreate()}
            onDelete={(id) => void onDelete(id)}
          />
          <main class={style.main}>
            {activeId ? (
              <Chat
                id={activeId}
                title={conversations?.find((c) => c.id === activeId)?.title}
                onTurnEnded={onTurnEnded}
              />
            ) : (
              <div class={style.empty} data-testid={route.name === "not_found" ? "page-not-found" : "home"}>
                <p>
                  {route.name === "not_found" ? "There is no page here." : "Pick a conversation or start a new one."}
                </p>
                <button type="button" class={style.start} onClick={() => void onCreate()}>
                  Start a conversation
                </button>
              </div>
            )}
          </main>
        </div>
      )}
    </div>
  );
}
