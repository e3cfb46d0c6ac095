// The user's tasks (/tasks): the same list the agent keeps with its task_* tools, over the REST routes
// (lib/use-tasks.ts). Add one by title; a checkbox marks it done or reopens it; delete has an Undo. Open
// tasks (and those in progress) come first, done ones below; a filter shows one group only
// (task-list.tsx). After a delete the focus goes to the next task's checkbox (the one before at the end,
// the new-task box when none is left), never to another row's Delete; after Undo, to the task that came
// back (use-tasks-page.ts).
import { PageFrame, pageStyle as page } from "../../components/page-frame";
import hidden from "../../ui/visually-hidden/style.module.css";
import style from "./style.module.css";
import { TaskList } from "./task-list";
import { MAX_TITLE, type TasksPageState, useTasksPage } from "./use-tasks-page";

export function TasksPage() {
  const state = useTasksPage();
  const { list, status } = state;
  return (
    <PageFrame
      title="Tasks"
      intro="Your to-do list. The agent sees your open tasks and can add, update and close them."
      width="narrow"
      testid="tasks-page"
    >
      <NewTaskForm newTask={state.newTask} ready={list.status === "ready"} />
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
              onClick={() => status.undo && void state.onUndo(status.undo)}
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
          <button type="button" onClick={() => void state.reload()}>
            Try again
          </button>
        </p>
      )}
      {list.status === "ready" && state.tasks.length === 0 && (
        <p class={page.empty} data-testid="tasks-empty">
          No tasks yet. Add one above, or ask the agent to keep track of something.
        </p>
      )}
      {list.status === "ready" && state.tasks.length > 0 && <TaskList {...state} />}
    </PageFrame>
  );
}

function NewTaskForm({ newTask, ready }: { newTask: TasksPageState["newTask"]; ready: boolean }) {
  const { title, adding, inputError } = newTask;
  return (
    <>
      <form class={style.add} onSubmit={(event) => void newTask.submit(event)} data-testid="task-form">
        <label class={hidden.visuallyHidden} for="task-new-title">
          New task
        </label>
        <input
          id="task-new-title"
          ref={newTask.input}
          value={title}
          placeholder="Add a task…"
          autoComplete="off"
          maxLength={MAX_TITLE + 50}
          aria-invalid={inputError ? true : undefined}
          aria-describedby={inputError ? "task-new-error" : undefined}
          onInput={(event) => newTask.type(event.currentTarget.value)}
          disabled={!ready}
          data-testid="task-input"
        />
        <button type="submit" class={page.primary} disabled={adding || !ready} data-testid="task-add">
          {adding ? "Adding…" : "Add"}
        </button>
      </form>
      {inputError && (
        <p id="task-new-error" class={page.statusError} role="alert" data-testid="task-error">
          {inputError}
        </p>
      )}
    </>
  );
}
