// "Move to project…" from the conversation's ⋯ menu (docs/protocol.md "Projects, instructions and
// memory"): a modal dialog listing the user's projects and "No project"; a choice moves the conversation
// (its next message tells the agent), and the sidebar lists it in its new place. Loaded on first use.
import { useEffect, useId, useRef, useState } from "preact/hooks";
import { announceConversations } from "../../lib/conversation-groups";
import { trapTab } from "../../lib/focus-trap";
import { listProjects, moveConversation, type Project, projectsChanged, readConversation } from "../../lib/projects";
import share from "../share-dialog/style.module.css";
import style from "./style.module.css";

type Props = { conversationId: string; onClose: () => void };

export function MoveDialog({ conversationId, onClose }: Props) {
  const dialog = useRef<HTMLDialogElement>(null);
  const [projects, setProjects] = useState<Project[] | null>(null);
  /** The project it is in now, marked among the choices. */
  const [current, setCurrent] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const titleId = useId();
  useEffect(() => {
    dialog.current?.showModal();
    void listProjects().then((listed) =>
      listed.ok ? setProjects(listed.data.projects) : setProblem(listed.error.message),
    );
    void readConversation(conversationId).then((read) => read.ok && setCurrent(read.data.project_id ?? null));
    return () => dialog.current?.close();
  }, []);
  const close = () => {
    dialog.current?.close();
    onClose();
  };
  const move = async (projectId: string | null) => {
    const moved = await moveConversation(conversationId, projectId);
    if (!moved.ok) return setProblem(moved.error.message);
    announceConversations();
    projectsChanged();
    close();
  };
  const option = (id: string | null, name: string) => (
    <li key={id ?? ""}>
      <button
        type="button"
        class={`${style.option} ${id === current ? style.current : ""}`}
        aria-current={id === current ? "true" : undefined}
        onClick={() => void move(id)}
        data-testid="move-project-option"
        data-project-id={id ?? ""}
      >
        {name}
      </button>
    </li>
  );
  return (
    <dialog
      ref={dialog}
      class={share.dialog}
      aria-labelledby={titleId}
      onKeyDown={(event) => {
        if (event.key === "Tab" && dialog.current) trapTab(event, dialog.current);
        if (event.key !== "Escape") return;
        event.preventDefault();
        event.stopPropagation();
        close();
      }}
      onCancel={(event) => {
        event.preventDefault();
        close();
      }}
      onClick={(event) => event.target === dialog.current && close()}
      data-testid="move-dialog"
    >
      <div class={share.inner}>
        <h2 id={titleId} class={share.title}>
          Move to project
        </h2>
        <p class={share.muted}>
          The agent is told before your next message, with the project's instructions and files.
        </p>
        {projects === null && !problem && <p class={share.muted}>Loading…</p>}
        {projects && (
          <ul class={style.options}>
            {projects.map((p) => option(p.id, p.name))}
            {option(null, "No project")}
          </ul>
        )}
        {problem && (
          <p class={share.problem} role="alert">
            {problem}
          </p>
        )}
        <div class={share.footer}>
          <button type="button" onClick={close}>
            Close
          </button>
        </div>
      </div>
    </dialog>
  );
}
