// The user's tasks (/tasks): the same list the agent keeps with its task_* tools, over the REST routes
// (lib/use-tasks.ts). Add one by title; a checkbox marks it done or reopens it; delete has an Undo. Open
// tasks (and those in progress) come first, done ones below; a filter shows one group only. After a
// delete the focus goes to the next task's checkbox (the one before at the end, the new-task box when
// none is left), never to another row's Delete; after Undo, to the task that came back.
import { useEffect, useRef, useState } from "preact/hooks";
import { PageFrame, pageStyle as page } from "../../components/page-frame";
import { explainTaskError, type Task, useTasks } from "../../lib/use-tasks";
import hidden from "../../ui/visually-hidden/style.module.css";
import style from "./style.module.css";

type Filter = "all" | "open" | "done";
type Status = { text: string; error?: boolean; undo?: Task };

const FILTERS: { value: Filter; label: string }[] = [
  { value: "all", label: "All" },
  { value: "open", label: "Open" },
  { value: "done", label: "Done" },
];

const MAX_TITLE = 200;

export function TasksPage() {
  const { list, reload, add, setStatus, remove, restore } = useTasks();
  const [title, setTitle] = useState("");
  const [adding, setAdding] = useState(false);
  const [inputError, setInputError] = useState<string | null>(null);
  const [status, setStatusLine] = useState<Status | null>(null);
  const [filter, setFilter] = useState<Filter>("all");
  const input = useRef<HTMLInputElement>(null);
  /** The task whose checkbox takes the focus once the list has re-rendered; "new" is the new-task box. */
  const focusNext = useRef<string | null>(null);

  const tasks = list.status === "ready" ? list.items : [];
  const open = tasks.filter((t) => t.status !== "done");
  const done = tasks.filter((t) => t.status === "done");
  const groups: { key: "open" | "done"; title: string; tasks: Task[]; none: string }[] = [
    { key: "open", title: "Open", tasks: open, none: "Nothing open. Well done." },
    { key: "done", title: "Done", tasks: done, none: "Nothing done yet." },
  ];
  const shown = groups.filter((g) => filter === "all" || filter === g.key).flatMap((g) => g.tasks);

  useEffect(() => {
    const target = focusNext.current;
    if (target === null) return;
    const box =
      target === "new"
        ? input.current
        : document.querySelector<HTMLElement>(`[data-task-id=${JSON.stringify(target)}] [data-testid=task-toggle]`);
    if (box) {
      box.focus();
      focusNext.current = null;
    }
  });

  const submit = async (event: Event) => {
    event.preventDefault();
    const text = title.trim();
    if (adding) return;
    if (text === "") {
      setInputError("Write what the task is first.");
      input.current?.focus();
      return;
    }
    if (text.length > MAX_TITLE) {
      setInputError(`A title may be up to ${MAX_TITLE} characters (this one has ${text.length}).`);
      input.current?.focus();
      return;
    }
    setAdding(true);
    const result = await add(text);
    setAdding(false);
    if (result.ok) {
      setTitle("");
      setInputError(null);
      setStatusLine({ text: `✓ Added “${result.data.title}”` });
      if (filter === "done") setFilter("all");
    } else setInputError(explainTaskError(result.error, "add the task"));
    input.current?.focus();
  };

  const toggle = async (task: Task) => {
    const next = task.status === "done" ? "open" : "done";
    const result = await setStatus(task, next);
    if (!result.ok)
      setStatusLine({
        text: explainTaskError(result.error, next === "done" ? "complete it" : "reopen it"),
        error: true,
      });
  };

  const onDelete = async (task: Task) => {
    const at = shown.findIndex((t) => t.id === task.id);
    const neighbour = shown[at + 1] ?? shown[at - 1];
    const result = await remove(task);
    if (result.ok || result.error.status === 404) {
      focusNext.current = neighbour ? neighbour.id : "new";
      setStatusLine({ text: `Deleted “${task.title}”`, undo: task });
    } else setStatusLine({ text: explainTaskError(result.error, "delete the task"), error: true });
  };

  const onUndo = async (task: Task) => {
    const result = await restore(task);
    // The Undo button goes with the line it was on: the focus goes to the task that came back.
    focusNext.current = result.ok ? result.data.id : "new";
    setStatusLine(
      result.ok
        ? { text: `✓ Restored “${task.title}”` }
        : { text: explainTaskError(result.error, "restore the task"), error: true },
    );
  };

  return (
    <PageFrame
      title="Tasks"
      intro="Your to-do list. The agent sees your open tasks and can add, update and close them."
      width="narrow"
      testid="tasks-page"
    >
      <form class={style.add} onSubmit={(event) => void submit(event)} data-testid="task-form">
        <label class={hidden.visuallyHidden} for="task-new-title">
          New task
        </label>
        <input
          id="task-new-title"
          ref={input}
          value={title}
          placeholder="Add a task…"
          autoComplete="off"
          maxLength={MAX_TITLE + 50}
          aria-invalid={inputError ? true : undefined}
          aria-describedby={inputError ? "task-new-error" : undefined}
          onInput={(event) => {
            setTitle(event.currentTarget.value);
            setInputError(null);
          }}
          disabled={list.status !== "ready"}
          data-testid="task-input"
        />
        <button type="submit" class={page.primary} disabled={adding || list.status !== "ready"} data-testid="task-add">
          {adding ? "Adding…" : "Add"}
        </button>
      </form>
      {inputError && (
        <p id="task-new-error" class={page.statusError} role="alert" data-testid="task-error">
          {inputError}
        </p>
      )}
      {status && (
        <p
          class={status.error ? page.statusError : page.status}
          role={status.error ? "alert" : "status"}
          data-testid="tasks-status"
        >
          <span>{status.text}</span>
          {status.undo && (
            <button
              type="button"
              class={page.undo}
              onClick={() => status.undo && void onUndo(status.undo)}
              data-testid="task-undo"
            >
              Undo
            </button>
          )}
        </p>
      )}

      {list.status === "loading" && (
        <p class={page.muted} role="status">
          Loading your tasks…
        </p>
      )}
      {list.status === "failed" && (
        <p class={page.statusError} role="alert" data-testid="tasks-error">
          {list.message}{" "}
          <button type="button" onClick={() => void reload()}>
            Try again
          </button>
        </p>
      )}
      {list.status === "ready" && tasks.length === 0 && (
        <p class={page.empty} data-testid="tasks-empty">
          No tasks yet. Add one above, or ask the agent to keep track of something.
        </p>
      )}
      {list.status === "ready" && tasks.length > 0 && (
        <>
          <fieldset class={style.filters} data-testid="task-filters">
            <legend class={hidden.visuallyHidden}>Show</legend>
            {FILTERS.map((f) => {
              const count = f.value === "all" ? tasks.length : f.value === "open" ? open.length : done.length;
              return (
                <button
                  key={f.value}
                  type="button"
                  aria-pressed={filter === f.value}
                  class={filter === f.value ? page.pressed : undefined}
                  onClick={() => setFilter(f.value)}
                  data-testid={`task-filter-${f.value}`}
                >
                  {f.label} <span class={style.count}>{count}</span>
                </button>
              );
            })}
          </fieldset>
          {groups
            .filter((g) => filter === "all" || filter === g.key)
            .map((group) => (
              <section
                key={group.key}
                class={style.group}
                aria-labelledby={`tasks-${group.key}-title`}
                data-testid={`tasks-${group.key}`}
              >
                <h2 id={`tasks-${group.key}-title`} class={style.groupTitle}>
                  {group.title} <span class={style.count}>{group.tasks.length}</span>
                </h2>
                {group.tasks.length === 0 ? (
                  <p class={page.muted}>{group.none}</p>
                ) : (
                  <ul class={page.list}>
                    {group.tasks.map((task) => (
                      <TaskRow
                        key={task.id}
                        task={task}
                        onToggle={() => void toggle(task)}
                        onDelete={() => void onDelete(task)}
                      />
                    ))}
                  </ul>
                )}
              </section>
            ))}
        </>
      )}
    </PageFrame>
  );
}

function TaskRow({ task, onToggle, onDelete }: { task: Task; onToggle: () => void; onDelete: () => void }) {
  const done = task.status === "done";
  const id = `task-${task.id}`;
  return (
    <li
      class={`${style.task} ${done ? style.done : ""}`}
      data-testid="task-item"
      data-task-id={task.id}
      data-status={task.status}
    >
      <input
        id={id}
        type="checkbox"
        checked={done}
        onChange={onToggle}
        aria-label={done ? `Reopen “${task.title}”` : `Mark “${task.title}” done`}
        data-testid="task-toggle"
      />
      <label for={id} class={style.taskText}>
        <span class={style.taskTitle} data-testid="task-title">
          {task.title}
        </span>
        {task.status === "in_progress" && <span class={style.badge}>in progress</span>}
        {task.details && <span class={style.details}>{task.details}</span>}
      </label>
      <button
        type="button"
        class={`${page.danger} ${style.delete}`}
        onClick={onDelete}
        aria-label={`Delete “${task.title}”`}
        data-testid="task-delete"
      >
        Delete
      </button>
    </li>
  );
}
