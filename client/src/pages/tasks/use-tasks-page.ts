// The Tasks page's state over lib/use-tasks.ts: the filter and its groups, the status line with Undo,
// the new task's title and its error, and where the focus goes after a delete or an Undo (the next
// task's checkbox, the one before at the end, the new-task box when none is left).
import type { RefObject } from "preact";
import { useEffect, useRef, useState } from "preact/hooks";
import { explainTaskError, type Task, useTasks } from "../../lib/use-tasks";

export type Filter = "all" | "open" | "done";
export type Status = { text: string; error?: boolean; undo?: Task };
export type Group = { key: "open" | "done"; title: string; tasks: Task[]; none: string };

export const MAX_TITLE = 200;

/** Focuses, once the list has re-rendered, the checkbox of the task named in the ref ("new": the input). */
function useFocusAfterRender(input: RefObject<HTMLInputElement | null>) {
  const focusNext = useRef<string | null>(null);
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
  return focusNext;
}

/** The new task's title, checked before it is sent; `onAdded` after the server took it. */
function useNewTask(add: ReturnType<typeof useTasks>["add"], onAdded: (task: Task) => void) {
  const [title, setTitle] = useState("");
  const [adding, setAdding] = useState(false);
  const [inputError, setInputError] = useState<string | null>(null);
  const input = useRef<HTMLInputElement>(null);
  const refuse = (error: string) => {
    setInputError(error);
    input.current?.focus();
  };
  const submit = async (event: Event) => {
    event.preventDefault();
    const text = title.trim();
    if (adding) return;
    if (text === "") return refuse("Write what the task is first.");
    if (text.length > MAX_TITLE)
      return refuse(`A title may be up to ${MAX_TITLE} characters (this one has ${text.length}).`);
    setAdding(true);
    const result = await add(text);
    setAdding(false);
    if (result.ok) {
      setTitle("");
      setInputError(null);
      onAdded(result.data);
    } else setInputError(explainTaskError(result.error, "add the task"));
    input.current?.focus();
  };
  const type = (value: string) => {
    setTitle(value);
    setInputError(null);
  };
  return { title, type, adding, inputError, input, submit };
}

export function useTasksPage() {
  const tasksApi = useTasks();
  const { list, setStatus, remove, restore } = tasksApi;
  const [status, setStatusLine] = useState<Status | null>(null);
  const [filter, setFilter] = useState<Filter>("all");
  const newTask = useNewTask(tasksApi.add, (task) => {
    setStatusLine({ text: `✓ Added “${task.title}”` });
    if (filter === "done") setFilter("all");
  });
  const focusNext = useFocusAfterRender(newTask.input);

  const tasks = list.status === "ready" ? list.items : [];
  const groups: Group[] = [
    { key: "open", title: "Open", tasks: tasks.filter((t) => t.status !== "done"), none: "Nothing open. Well done." },
    { key: "done", title: "Done", tasks: tasks.filter((t) => t.status === "done"), none: "Nothing done yet." },
  ];
  const shownGroups = groups.filter((g) => filter === "all" || filter === g.key);
  const shown = shownGroups.flatMap((g) => g.tasks);

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

  return {
    list,
    reload: tasksApi.reload,
    tasks,
    groups,
    shownGroups,
    filter,
    setFilter,
    status,
    newTask,
    toggle,
    onDelete,
    onUndo,
  };
}

export type TasksPageState = ReturnType<typeof useTasksPage>;
