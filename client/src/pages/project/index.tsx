// A project's page (/projects/<id>, docs/protocol.md "Projects, instructions and memory"): its name and
// instructions, the knowledge entries and note folders its conversations start with, how they run
// (defaults.tsx: model, approach, steps, tools, MCP servers), what it remembers and whether it may, its files (the agent of each of its conversations
// reads them like attachments), a search over its conversations, the conversations with "New chat in
// this project", and Delete (its conversations stay, outside any project).
import { useEffect, useRef, useState } from "preact/hooks";
import { type Attachment, type Conversation, fileSizeWords, type SearchResult } from "../../../../protocol";
import { MAX_INSTRUCTIONS_CHARS } from "../../../../protocol/projects";
import { MemoryList } from "../../components/memory-list";
import { PageFrame, pageStyle as page } from "../../components/page-frame";
import { FormStatus } from "../../components/settings-form";
import { uploadFile } from "../../lib/files";
import {
  addProjectFile,
  deleteProject,
  newProjectConversation,
  type Project,
  projectConversations,
  projectsChanged,
  readProject,
  removeProjectFile,
  searchProject,
  updateProject,
} from "../../lib/projects";
import { navigate } from "../../lib/router";
import { Link } from "../../ui/link";
import { SwitchRow } from "../../ui/switch";
import { ProjectDefaults } from "./defaults";
import { listOf } from "./list-of";
import style from "./style.module.css";

type Status = { text: string; failed?: boolean } | null;

function Settings({ project, onSaved }: { project: Project; onSaved: (p: Project) => void }) {
  const [name, setName] = useState(project.name);
  const [instructions, setInstructions] = useState(project.instructions);
  const [knowledge, setKnowledge] = useState(project.knowledge.join(", "));
  const [notes, setNotes] = useState(project.notes.join(", "));
  const [status, setStatus] = useState<Status>(null);
  const save = async (event: Event) => {
    event.preventDefault();
    const saved = await updateProject(project.id, {
      name: name.trim(),
      instructions,
      knowledge: listOf(knowledge, "#"),
      notes: listOf(notes, "@"),
    });
    if (!saved.ok) return setStatus({ text: `Could not save: ${saved.error.message}`, failed: true });
    setStatus({ text: "Saved. Its conversations get it before their next message." });
    projectsChanged();
    onSaved(saved.data);
  };
  return (
    <form onSubmit={(e) => void save(e)}>
      <label class={style.heading} for="project-name">
        Name
      </label>
      <div class={style.bar}>
        <input
          id="project-name"
          class={style.name}
          value={name}
          maxLength={100}
          aria-label="Project name"
          onInput={(e) => setName(e.currentTarget.value)}
          data-testid="project-name"
        />
      </div>
      <label class={`${style.heading} ${style.label}`} for="project-instructions">
        Instructions for this project
      </label>
      <textarea
        id="project-instructions"
        class={style.box}
        value={instructions}
        maxLength={MAX_INSTRUCTIONS_CHARS}
        placeholder="What the agent should know and do in every conversation of this project"
        onInput={(e) => setInstructions(e.currentTarget.value)}
        data-testid="project-instructions"
      />
      <label class={`${style.heading} ${style.label}`} for="project-knowledge">
        From your library and notes
      </label>
      <div class={style.bar}>
        <input
          id="project-knowledge"
          class={style.name}
          value={knowledge}
          placeholder="Knowledge entries: #house-style, #glossary"
          aria-label="Knowledge entries its conversations start with"
          onInput={(e) => setKnowledge(e.currentTarget.value)}
          data-testid="project-knowledge"
        />
        <input
          class={style.name}
          value={notes}
          placeholder="Note folders: @thesis, @reading"
          aria-label="Note folders its conversations start with"
          onInput={(e) => setNotes(e.currentTarget.value)}
          data-testid="project-notes"
        />
      </div>
      <button type="submit" class={`${page.primary} ${style.save}`} data-testid="project-save">
        Save
      </button>
      <FormStatus text={status?.text} failed={status?.failed} testid="project-status" />
    </form>
  );
}

function Files({ project, onChanged }: { project: Project; onChanged: () => void }) {
  const [status, setStatus] = useState<Status>(null);
  const input = useRef<HTMLInputElement>(null);
  const add = async (files: FileList | null) => {
    for (const file of Array.from(files ?? [])) {
      setStatus({ text: `Uploading ${file.name}…` });
      const uploaded = await uploadFile(file, file.name, () => undefined).done;
      if (!uploaded.ok) return setStatus({ text: uploaded.message, failed: true });
      const added = await addProjectFile(project.id, uploaded.file.id);
      if (!added.ok) return setStatus({ text: added.error.message, failed: true });
    }
    if (input.current) input.current.value = "";
    setStatus(null);
    projectsChanged();
    onChanged();
  };
  const remove = async (file: Attachment) => {
    const removed = await removeProjectFile(project.id, file.id);
    if (!removed.ok) return setStatus({ text: removed.error.message, failed: true });
    projectsChanged();
    onChanged();
  };
  return (
    <section class={style.section} aria-labelledby="project-files">
      <h2 id="project-files" class={style.heading}>
        Files
      </h2>
      <p class={page.muted}>Every conversation of the project reads these; a long one is searched, not pasted whole.</p>
      {project.files.length > 0 && (
        <ul class={style.rows}>
          {project.files.map((file) => (
            <li key={file.id} class={style.row} data-testid="project-file">
              <span class={style.grow}>{file.name}</span>
              <span class={style.meta}>{fileSizeWords(file.size)}</span>
              <button type="button" onClick={() => void remove(file)} aria-label={`Remove ${file.name}`}>
                Remove
              </button>
            </li>
          ))}
        </ul>
      )}
      <input
        ref={input}
        type="file"
        multiple
        aria-label="Add files to the project"
        onChange={(e) => void add(e.currentTarget.files)}
        data-testid="project-file-input"
      />
      <FormStatus text={status?.text} failed={status?.failed} testid="project-file-status" />
    </section>
  );
}

function Conversations({ project }: { project: Project }) {
  const [list, setList] = useState<Conversation[] | null>(null);
  const [query, setQuery] = useState("");
  const [hits, setHits] = useState<SearchResult[] | null>(null);
  useEffect(() => {
    void projectConversations(project.id).then((listed) => listed.ok && setList(listed.data));
  }, [project.id, project.conversations]);
  useEffect(() => {
    const q = query.trim();
    if (!q) return setHits(null);
    const timer = setTimeout(() => {
      void searchProject(project.id, q).then((found) => found.ok && setHits(found.data.results));
    }, 250);
    return () => clearTimeout(timer);
  }, [query, project.id]);
  const start = async () => {
    const made = await newProjectConversation(project.id);
    if (made.ok) navigate(`/c/${encodeURIComponent(made.data.id)}`);
  };
  return (
    <section class={style.section} aria-labelledby="project-conversations">
      <div class={style.bar}>
        <h2 id="project-conversations" class={`${style.heading} ${style.grow}`}>
          Conversations
        </h2>
        <button type="button" class={page.primary} onClick={() => void start()} data-testid="project-new-chat">
          New chat in this project
        </button>
      </div>
      <input
        type="search"
        class={style.search}
        value={query}
        placeholder="Search this project's conversations"
        aria-label="Search this project's conversations"
        onInput={(e) => setQuery(e.currentTarget.value)}
        data-testid="project-search"
      />
      {hits ? (
        <ul class={style.rows} data-testid="project-search-results">
          {hits.length === 0 && <li class={page.muted}>Nothing found.</li>}
          {hits.map((hit) => (
            <li key={`${hit.conversation_id}:${hit.seq ?? 0}`} class={style.row} data-testid="project-search-result">
              <Link
                href={`/c/${encodeURIComponent(hit.conversation_id)}${hit.seq ? `#m${hit.seq}` : ""}`}
                class={style.grow}
              >
                {hit.title}
                <span class={style.snippet}>{hit.snippet.replace(/[«»]/g, "")}</span>
              </Link>
            </li>
          ))}
        </ul>
      ) : (
        <ul class={style.rows}>
          {list?.length === 0 && <li class={page.muted}>No conversations yet.</li>}
          {list?.map((c) => (
            <li key={c.id} class={style.row} data-testid="project-conversation">
              <Link href={`/c/${encodeURIComponent(c.id)}`} class={style.grow}>
                {c.title || "Untitled conversation"}
              </Link>
              <span class={style.meta}>{new Date(c.updated_at).toLocaleDateString()}</span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

export function ProjectPage({ id }: { id: string }) {
  const [project, setProject] = useState<Project | null>(null);
  const [missing, setMissing] = useState<string | null>(null);
  const load = () =>
    void readProject(id).then((read) => (read.ok ? setProject(read.data) : setMissing(read.error.message)));
  useEffect(load, [id]);
  if (!project)
    return (
      <PageFrame title="Project" testid="project-page">
        {missing ? (
          <p class={page.statusError} role="alert">
            {missing}
          </p>
        ) : (
          <p class={page.muted}>Loading…</p>
        )}
      </PageFrame>
    );
  const toggleMemory = async (memory: boolean) => {
    const saved = await updateProject(project.id, { memory });
    if (saved.ok) setProject(saved.data);
  };
  const remove = async () => {
    if (!window.confirm(`Delete the project “${project.name}”, its files and its memories? Its conversations stay.`))
      return;
    const done = await deleteProject(project.id);
    if (!done.ok) return setMissing(done.error.message);
    projectsChanged();
    navigate("/");
  };
  return (
    <PageFrame title={project.name} width="medium" testid="project-page" data-project-id={project.id}>
      <Settings key={project.id} project={project} onSaved={setProject} />
      <ProjectDefaults key={project.id} project={project} onSaved={setProject} />
      <Conversations project={project} />
      <Files project={project} onChanged={load} />
      <section class={style.section} aria-labelledby="project-memory">
        <h2 id="project-memory" class={style.heading}>
          Memory
        </h2>
        <SwitchRow
          id="project-memory-switch"
          label="Remember in this project"
          hint="Off: its conversations neither save memories nor start with them."
          checked={project.memory}
          onChange={(on) => void toggleMemory(on)}
        />
        {project.memory && <MemoryList projectId={project.id} projects={[project]} />}
      </section>
      <section class={style.section}>
        <button type="button" class={page.danger} onClick={() => void remove()} data-testid="project-delete">
          Delete project
        </button>
      </section>
    </PageFrame>
  );
}
