// The sidebar: the user's conversations, newest first, with "New conversation", delete, and the open
// one highlighted.
import type { Conversation } from "../../../../protocol";
import { Link } from "../link";
import style from "./style.module.css";

type Props = {
  conversations: Conversation[] | null;
  activeId: string | null;
  error: string | null;
  onCreate: () => void;
  onDelete: (id: string) => void;
};

export function ConversationList({ conversations, activeId, error, onCreate, onDelete }: Props) {
  return (
    <nav class={style.sidebar} aria-label="Conversations" data-testid="conversation-list">
      <button type="button" class={style.create} onClick={onCreate} data-testid="new-conversation">
        + New conversation
      </button>
      {error && (
        <p class={style.error} role="alert">
          {error}
        </p>
      )}
      {conversations === null && <p class={style.muted}>Loading…</p>}
      {conversations?.length === 0 && <p class={style.muted}>No conversations yet.</p>}
      <ul class={style.list}>
        {conversations?.map((conversation) => {
          const active = conversation.id === activeId;
          return (
            <li
              key={conversation.id}
              class={`${style.item} ${active ? style.active : ""}`}
              data-testid="conversation-item"
              data-id={conversation.id}
              data-active={active ? "true" : "false"}
            >
              <Link
                href={`/c/${encodeURIComponent(conversation.id)}`}
                class={style.link}
                aria-current={active ? "page" : undefined}
              >
                <span class={style.title}>{conversation.title || "Untitled conversation"}</span>
                <span class={style.date}>{new Date(conversation.updated_at).toLocaleDateString()}</span>
              </Link>
              <button
                type="button"
                class={style.delete}
                title="Delete conversation"
                aria-label="Delete conversation"
                onClick={() => onDelete(conversation.id)}
                data-testid="delete-conversation"
              >
                ×
              </button>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
