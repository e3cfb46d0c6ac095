// The Tasks page's list: the filter buttons (All, Open, Done, with their counts), then each group shown
// with its tasks, or a line when it has none. A task: its checkbox, title, badge, details and Delete.
import { pageStyle as page } from "../../components/page-frame";
import type { Task } from "../../lib/use-tasks";
import hidden from "../../ui/visually-hidden/style.module.css";
import style from "./style.module.css";
import type { Filter, TasksPageState } from "./use-tasks-page";

const FILTERS: { value: Filter; label: string }[] = [
  { value: "all", label: "All" },
  { value: "open", label: "Open" },
  { value: "done", label: "Done" },
];

type Props = Pick<TasksPageState, "tasks" | "groups" | "shownGroups" | "filter" | "setFilter" | "toggle" | "onDelete">;

export function TaskList({ tasks, groups, shownGroups, filter, setFilter, toggle, onDelete }: Props) {
  const counts: Record<Filter, number> = {
    all: tasks.length,
    open: groups[0]?.tasks.length ?? 0,
    done: groups[1]?.tasks.length ?? 0,
  };
  return (
    <>
      <fieldset class={style.filters} data-testid="task-filters">
        <legend class={hidden.visuallyHidden}>Show</legend>
        {FILTERS.map((f) => (
          <button
            key={f.value}
            type="button"
            aria-pressed={filter === f.value}
            class={filter === f.value ? page.pressed : undefined}
            onClick={() => setFilter(f.value)}
            data-testid={`task-filter-${f.value}`}
          >
            {f.label} <span class={style.count}>{counts[f.value]}</span>
          </button>
        ))}
      </fieldset>
      {shownGroups.map((group) => (
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
