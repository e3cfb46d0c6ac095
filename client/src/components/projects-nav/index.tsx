// The sidebar's projects (docs/protocol.md "Projects, instructions and memory"): "New project" (its name,
// then its page), and each project with its conversations under it, open where the conversation on
// screen is. A project's conversations are listed here, not among the others. Loaded after the sidebar
// (its own chunk): the first paint of the chat does not wait for it.
import { useEffect, useState } from "preact/hooks";
import type { Conversation } from "../../../../protocol";
import { createProject, listProjects, onProjectsChanged, type Project, projectsChanged } from "../../lib/projects";
import { navigate } from "../../lib/router";
import { Link } from "../../ui/link";
import list from "../conversation-list/style.module.css";
import style from "./style.module.css";

type Props = { conversations: readonly Conversation[] | null; activeId: string | null };

function NewProject({ onDone }: { onDone: () => void }) {
  const [name, setName] = useState("");
  const [error, setError] = useState<string | null>(null);
  const save = async (event: Event) => {
    event.preventDefault();
    const made = await createProject(name.trim());
    if (!made.ok) return setError(made.error.fields.name ?? made.error.message);
    projectsChanged();
    onDone();
    navigate(`/projects/${encodeURIComponent(made.data.id)}`);
  };
  return (
    <form class={style.form} onSubmit={(e) => void save(e)}>
      <input
        value={name}
        maxLength={100}
        placeholder="Project name"
        aria-label="Project name"
        onInput={(e) => setName(e.currentTarget.value)}
        ref={(input) => input?.focus()}
        onKeyDown={(e) => e.key === "Escape" && onDone()}
        data-testid="new-project-name"
      />
      <button type="submit" disabled={!name.trim()} data-testid="new-project-save">
        Create
      </button>
      {error && (
        <p class={list.error} role="alert">
          {error}
        </p>
      )}
    </form>
  );
}

function ProjectRow(props: { project: Project; conversations: Conversation[]; activeId: string | null }) {
  const { project, conversations, activeId } = props;
  const holdsActive = conversations.some((c) => c.id === activeId);
  const [open, setOpen] = useState(holdsActive);
  useEffect(() => {
    if (holdsActive) setOpen(true);
  }, [holdsActive]);
  const here = location.pathname === `/projects/${project.id}`;
  return (
    <li data-testid="project-item" data-project-id={project.id}>
      <div class={`${list.item} ${here ? list.active : ""} ${style.project}`}>
        <button
          type="button"
          class={style.toggle}
          aria-expanded={open}
          aria-label={`${open ? "Hide" : "Show"} the conversations of ${project.name}`}
          onClick={() => setOpen(!open)}
        >
          {open ? "▾" : "▸"}
        </button>
        <Link
          href={`/projects/${encodeURIComponent(project.id)}`}
          class={list.link}
          data-testid="project-link"
          data-project-id={project.id}
        >
          <span class={list.title}>{project.name}</span>
        </Link>
      </div>
      {open && conversations.length > 0 && (
        <ul class={`${list.list} ${style.nested}`}>
          {conversations.map((c) => (
            <li
              key={c.id}
              class={`${list.item} ${c.id === activeId ? list.active : ""}`}
              data-testid="project-conversation-item"
            >
              <Link
                href={`/c/${encodeURIComponent(c.id)}`}
                class={list.link}
                aria-current={c.id === activeId ? "page" : undefined}
              >
                <span class={list.title}>{c.title || "Untitled conversation"}</span>
              </Link>
            </li>
          ))}
        </ul>
      )}
    </li>
  );
}

export function ProjectsNav({ conversations, activeId }: Props) {
  const [projects, setProjects] = useState<Project[] | null>(null);
  const [adding, setAdding] = useState(false);
  useEffect(() => {
    const load = () => void listProjects().then((listed) => listed.ok && setProjects(listed.data.projects));
    load();
    return onProjectsChanged(load);
  }, []);
  return (
    <section class={list.group} aria-labelledby="projects-heading" data-testid="projects-nav">
      <div class={style.head}>
        <h2 id="projects-heading" class={list.groupHeading}>
          Projects
        </h2>
        <button type="button" class={style.add} onClick={() => setAdding(!adding)} data-testid="new-project">
          + New project
        </button>
      </div>
      {adding && <NewProject onDone={() => setAdding(false)} />}
      {projects && projects.length > 0 && (
        <ul class={list.list}>
          {projects.map((project) => (
            <ProjectRow
              key={project.id}
              project={project}
              activeId={activeId}
              conversations={(conversations ?? []).filter((c) => c.project_id === project.id)}
            />
          ))}
        </ul>
      )}
    </section>
  );
}
