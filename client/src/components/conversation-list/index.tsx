// The sidebar: "New conversation" (home, for a first message), a search over every conversation's words, the
// projects with their conversations (projects-nav, loaded after), and the other conversations in
// groups (Pinned, then Today, Yesterday, Previous 7 days, Older by last activity: conversation-groups.ts),
// newest first, the open one highlighted. Each row pins or unpins, renames inline (double-click the
// title or ✎: Enter saves, Esc cancels) and deletes with × (the Shell offers Undo). Focus lands somewhere
// sensible after each: back on the row, on the next row (or "New") after a delete. Where a pointer can
// hover, the row's buttons show over the end of its title on hover or focus and take no room while
// hidden, so a title is cut only where the row ends (a pinned row's pin stays in view, beside it).
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from "preact/hooks";
import type { Conversation } from "../../../../protocol";
import { groupConversations, shortWhen } from "../../lib/conversation-groups";
import { Icon } from "../../ui/icon";
import { Link } from "../../ui/link";
import { ConversationSearch } from "../conversation-search";
import { lazyPart } from "../shell/lazy";
import style from "./style.module.css";

type Props = {
  conversations: Conversation[] | null;
  activeId: string | null;
  error: string | null;
  /** "New conversation": home, where the first message makes one. */
  onNew: () => void;
  onDelete: (conversation: Conversation) => void;
  onRename: (id: string, title: string) => Promise<boolean>;
  onPin: (id: string, pinned: boolean) => Promise<boolean>;
};

// The projects, each with its conversations (they are listed there, not among these): its own chunk.
const ProjectsNav = lazyPart(() => import("../projects-nav").then((m) => m.ProjectsNav));

const titleOf = (conversation: Conversation) => conversation.title || "Untitled conversation";

/** Focuses the row's link (or "New"); false when it is not on the page (yet). */
function focusRow(list: HTMLElement | null, target: string | "new"): boolean {
  const selector =
    target === "new"
      ? "[data-testid=new-conversation]"
      : `[data-testid=conversation-item][data-id=${JSON.stringify(target)}] [data-testid=conversation-link]`;
  const element = list?.querySelector<HTMLElement>(selector);
  element?.focus();
  return element !== null && element !== undefined;
}

export function ConversationList(props: Props) {
  const { conversations, activeId, error, onNew, onDelete, onRename, onPin } = props;
  const [editing, setEditing] = useState<string | null>(null);
  const [query, setQuery] = useState("");
  const root = useRef<HTMLElement>(null);
  /** Where focus goes once the list has re-rendered (after a delete or a rename). */
  const focusNext = useRef<string | "new" | null>(null);

  // A layout effect, run as each render commits. A deferred effect of the render that opened the rename
  // field, still pending when Esc came in the same frame, was run by Preact as the next render began,
  // before the field was gone: it found no link and used up the request, leaving focus on the page
  // itself (a flaky e2e test). The request also stays until its row is on the page.
  useLayoutEffect(() => {
    const target = focusNext.current;
    if (target === null) return;
    const gone = target !== "new" && conversations !== null && !conversations.some((c) => c.id === target);
    if (gone || focusRow(root.current, target)) focusNext.current = null;
  });

  // Grouped as the list changes; "today" is taken then too (a sidebar left open past midnight regroups
  // at its next list, which every turn brings).
  const groups = useMemo(
    () =>
      groupConversations(
        (conversations ?? []).filter((c) => !c.project_id),
        new Date(),
      ),
    [conversations],
  );
  /** The rows in the order they are shown, for the neighbour that takes focus after a delete. */
  const shown = useMemo(() => groups.flatMap((g) => g.conversations), [groups]);

  const remove = (conversation: Conversation) => {
    const list = shown;
    const index = list.findIndex((c) => c.id === conversation.id);
    const neighbour = list[index + 1] ?? list[index - 1];
    focusNext.current = neighbour ? neighbour.id : "new";
    onDelete(conversation);
  };

  const finishRename = async (conversation: Conversation, title: string | null) => {
    const trimmed = title?.trim() ?? "";
    focusNext.current = conversation.id;
    setEditing(null);
    if (trimmed && trimmed !== conversation.title) await onRename(conversation.id, trimmed);
  };

  const togglePin = async (conversation: Conversation) => {
    focusNext.current = conversation.id;
    await onPin(conversation.id, !conversation.pinned);
  };

  const searching = query.trim() !== "";

  return (
    <nav ref={root} class={style.sidebar} aria-label="Conversations" data-testid="conversation-list">
      <button type="button" class={style.create} onClick={onNew} data-testid="new-conversation">
        + New conversation
      </button>
      <ConversationSearch query={query} onQuery={setQuery} />
      {!searching && <ProjectsNav conversations={conversations} activeId={activeId} />}
      {error && (
        <p class={style.error} role="alert">
          {error}
        </p>
      )}
      {!searching && conversations === null && <p class={style.muted}>Loading…</p>}
      {!searching && conversations?.length === 0 && <p class={style.muted}>No conversations yet.</p>}
      {!searching &&
        groups.map((group) => {
          const headingId = `conversation-group-${group.name.toLowerCase().replace(/\W+/g, "-")}`;
          return (
            <section
              key={group.name}
              class={style.group}
              aria-labelledby={headingId}
              data-testid="conversation-group"
              data-group={group.name}
            >
              <h2 id={headingId} class={style.groupHeading}>
                {group.name}
              </h2>
              <ul class={style.list}>
                {group.conversations.map((conversation) => (
                  <Row
                    key={conversation.id}
                    conversation={conversation}
                    active={conversation.id === activeId}
                    editing={editing === conversation.id}
                    onEdit={() => setEditing(conversation.id)}
                    onRenamed={(title) => void finishRename(conversation, title)}
                    onPin={() => void togglePin(conversation)}
                    onDelete={() => remove(conversation)}
                  />
                ))}
              </ul>
            </section>
          );
        })}
    </nav>
  );
}

type RowProps = {
  conversation: Conversation;
  active: boolean;
  editing: boolean;
  onEdit: () => void;
  onRenamed: (title: string | null) => void;
  onPin: () => void;
  onDelete: () => void;
};

function Row({ conversation, active, editing, onEdit, onRenamed, onPin, onDelete }: RowProps) {
  const title = titleOf(conversation);
  const pinned = conversation.pinned === true;
  // A pinned row keeps its pin in view, beside the title; else it is one of the buttons shown on hover.
  const pin = (
    <button
      type="button"
      class={`${style.action} ${pinned ? style.pinned : ""}`}
      title={pinned ? `Unpin “${title}”` : `Pin “${title}” to the top`}
      aria-label={pinned ? "Unpin conversation" : "Pin conversation"}
      aria-pressed={pinned}
      onClick={onPin}
      data-testid="pin-conversation"
    >
      <Icon name="pin" />
    </button>
  );
  return (
    <li
      class={`${style.item} ${active ? style.active : ""}`}
      data-testid="conversation-item"
      data-id={conversation.id}
      data-active={active ? "true" : "false"}
      data-pinned={pinned ? "true" : "false"}
    >
      {editing ? (
        <RenameInput initial={conversation.title} onDone={onRenamed} />
      ) : (
        <>
          <Link
            href={`/c/${encodeURIComponent(conversation.id)}`}
            class={style.link}
            aria-current={active ? "page" : undefined}
            data-testid="conversation-link"
            onDblClick={(event) => {
              event.preventDefault();
              onEdit();
            }}
          >
            <span class={style.title} data-testid="conversation-title">
              {title}
            </span>
            <span class={style.date}>{shortWhen(conversation.updated_at, new Date())}</span>
          </Link>
          {pinned && pin}
          <span class={style.actions}>
            {!pinned && pin}
            <button
              type="button"
              class={style.action}
              title={`Rename “${title}”`}
              aria-label="Rename conversation"
              onClick={onEdit}
              data-testid="rename-conversation"
            >
              <span aria-hidden="true">✎</span>
            </button>
            <button
              type="button"
              class={`${style.action} ${style.delete}`}
              title={`Delete “${title}”`}
              aria-label="Delete conversation"
              onClick={onDelete}
              data-testid="delete-conversation"
            >
              <span aria-hidden="true">×</span>
            </button>
          </span>
        </>
      )}
    </li>
  );
}

/** The title as a text field: Enter or leaving it saves, Esc cancels (onDone(null)). */
function RenameInput({ initial, onDone }: { initial: string; onDone: (title: string | null) => void }) {
  const input = useRef<HTMLInputElement>(null);
  const done = useRef(false);
  const finish = (title: string | null) => {
    if (done.current) return;
    done.current = true;
    onDone(title);
  };
  useEffect(() => {
    input.current?.focus();
    input.current?.select();
  }, []);
  return (
    <input
      ref={input}
      // Uncontrolled, with the title there from the first paint: a re-render of the list must not reset
      // what is being typed.
      defaultValue={initial}
      class={style.rename}
      maxLength={200}
      aria-label="Conversation title"
      data-testid="rename-input"
      onKeyDown={(event) => {
        if (event.key === "Enter" && !event.isComposing) {
          event.preventDefault();
          finish(event.currentTarget.value);
        } else if (event.key === "Escape") {
          event.preventDefault();
          event.stopPropagation(); // Esc here cancels the rename, it does not also close the drawer
          finish(null);
        }
      }}
      onBlur={(event) => finish(event.currentTarget.value)}
    />
  );
}
