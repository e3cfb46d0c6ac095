// What the agent remembers (docs/protocol.md "Projects, instructions and memory"), every memory visible
// and editable: its text, where it applies (every conversation, or one project), where it came from (the
// conversation it was said in, or "you wrote it"), Edit and Delete, and a field to add one. Settings →
// Personalization shows them all; a project's page shows the project's.
import { useEffect, useState } from "preact/hooks";
import { addMemory, editMemory, forgetMemory, listMemories, type Memory, type Project } from "../../lib/projects";
import { Link } from "../../ui/link";
import { pageStyle as page } from "../page-frame";
import style from "./style.module.css";

type Props = {
  /** Only this project's memories, and new ones go to it; absent: all of them, new ones the user's own. */
  projectId?: string;
  /** For naming a memory's project. */
  projects: readonly Project[];
};

function scopeWords(memory: Memory, projects: readonly Project[]): string {
  if (memory.project_id === null) return "All conversations";
  return projects.find((p) => p.id === memory.project_id)?.name ?? "A project";
}

function MemoryRow(props: { memory: Memory; scope: string; onChanged: () => void }) {
  const { memory, scope, onChanged } = props;
  const [editing, setEditing] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const save = async () => {
    if (editing === null) return;
    const saved = await editMemory(memory.id, editing);
    if (!saved.ok) return setError(saved.error.message);
    setEditing(null);
    setError(null);
    onChanged();
  };
  const remove = async () => {
    const done = await forgetMemory(memory.id);
    if (!done.ok) return setError(done.error.message);
    onChanged();
  };
  return (
    <li class={style.row} data-testid="memory-row" data-memory-id={memory.id}>
      {editing === null ? (
        <p class={style.text}>{memory.text}</p>
      ) : (
        <textarea
          class={style.edit}
          value={editing}
          aria-label="Memory"
          maxLength={500}
          onInput={(e) => setEditing(e.currentTarget.value)}
          data-testid="memory-text"
        />
      )}
      <div class={style.meta}>
        <span class={style.scope}>{scope}</span>
        {memory.conversation_id ? (
          <Link href={`/c/${encodeURIComponent(memory.conversation_id)}`}>From a conversation</Link>
        ) : (
          <span>You wrote it</span>
        )}
        <span class={style.actions}>
          {editing === null ? (
            <>
              <button type="button" onClick={() => setEditing(memory.text)} data-testid="memory-edit">
                Edit
              </button>
              <button type="button" onClick={() => void remove()} data-testid="memory-delete">
                Delete
              </button>
            </>
          ) : (
            <>
              <button type="button" class={page.primary} onClick={() => void save()} data-testid="memory-save">
                Save
              </button>
              <button type="button" onClick={() => setEditing(null)}>
                Cancel
              </button>
            </>
          )}
        </span>
      </div>
      {error && (
        <p class={style.error} role="alert">
          {error}
        </p>
      )}
    </li>
  );
}

export function MemoryList({ projectId, projects }: Props) {
  const [memories, setMemories] = useState<Memory[] | null>(null);
  const [failed, setFailed] = useState<string | null>(null);
  const [draft, setDraft] = useState("");
  const load = async () => {
    const listed = await listMemories();
    if (!listed.ok) return setFailed(listed.error.message);
    setFailed(null);
    setMemories(listed.data.memories.filter((m) => projectId === undefined || m.project_id === projectId));
  };
  useEffect(() => void load(), [projectId]);
  const add = async (event: Event) => {
    event.preventDefault();
    if (!draft.trim()) return;
    const added = await addMemory(draft.trim(), projectId ?? null);
    if (!added.ok) return setFailed(added.error.message);
    setDraft("");
    void load();
  };
  return (
    <div data-testid="memory-list">
      {memories === null && !failed && <p class={page.muted}>Loading…</p>}
      {memories?.length === 0 && (
        <p class={page.muted} data-testid="memory-empty">
          Nothing remembered yet. Tell the agent something about yourself and it may save it here.
        </p>
      )}
      {memories && memories.length > 0 && (
        <ul class={style.list}>
          {memories.map((memory) => (
            <MemoryRow
              key={`${memory.id}:${memory.updated_at}`}
              memory={memory}
              scope={scopeWords(memory, projects)}
              onChanged={() => void load()}
            />
          ))}
        </ul>
      )}
      <form class={style.add} onSubmit={(e) => void add(e)}>
        <input
          value={draft}
          maxLength={500}
          placeholder="Add something the agent should remember"
          aria-label="Add a memory"
          onInput={(e) => setDraft(e.currentTarget.value)}
          data-testid="memory-add"
        />
        <button type="submit" data-testid="memory-add-save">
          Add
        </button>
      </form>
      {failed && (
        <p class={style.error} role="alert" data-testid="memory-error">
          {failed}
        </p>
      )}
    </div>
  );
}
