// The Tasks page's data over /api/tasks (worker/routes/tasks.ts): the list (newest first), add, mark
// done / reopen (at once on screen, put back with the server's reason if it refuses), delete and the
// undo of a delete (the task is created again with its title, details and status).
import { useCallback } from "preact/hooks";
import { type ApiError, type ApiResult, requestEmpty, requestJson } from "./api";
import { type Task, TaskListSchema, TaskSchema } from "./response-schemas";
import { type ListState, useList } from "./use-list";

export type { Task };
export type TaskStatus = Task["status"];

export type TaskListState = ListState<Task>;

const taskPath = (id: string) => `/api/tasks/${encodeURIComponent(id)}`;

/** An API failure in words a person can act on. */
export function explainTaskError(error: ApiError, doing: string): string {
  if (error.status === 0) return `Could not ${doing}: the server cannot be reached. Check your connection.`;
  if (error.status === 401) return `Could not ${doing}: you are signed out. Sign in again.`;
  if (error.status === 404) return `Could not ${doing}: the task no longer exists.`;
  const field = error.fields.title ?? error.fields.details;
  if (error.status === 400 && field) return `Could not ${doing}: ${field}.`;
  if (error.status >= 500) return `Could not ${doing}: something went wrong on the server. Try again.`;
  return `Could not ${doing}: ${error.message}`;
}

const loadTasks = () => requestJson("/api/tasks", TaskListSchema);
const explainLoad = (error: ApiError) => explainTaskError(error, "load your tasks");

export function useTasks() {
  const { list, reload, update } = useList(loadTasks, explainLoad);

  const add = useCallback(
    async (title: string, details?: string): Promise<ApiResult<Task>> => {
      const result = await requestJson("/api/tasks", TaskSchema, "POST", details ? { title, details } : { title });
      if (result.ok) update((tasks) => [result.data, ...tasks.filter((t) => t.id !== result.data.id)]);
      return result;
    },
    [update],
  );

  const setStatus = useCallback(
    async (task: Task, status: TaskStatus): Promise<ApiResult<Task>> => {
      update((tasks) => tasks.map((t) => (t.id === task.id ? { ...t, status } : t)));
      const result = await requestJson(taskPath(task.id), TaskSchema, "PATCH", { status });
      if (result.ok) update((tasks) => tasks.map((t) => (t.id === task.id ? result.data : t)));
      else if (result.error.status === 404) update((tasks) => tasks.filter((t) => t.id !== task.id));
      else update((tasks) => tasks.map((t) => (t.id === task.id ? { ...t, status: task.status } : t)));
      return result;
    },
    [update],
  );

  const remove = useCallback(
    async (task: Task): Promise<ApiResult<null>> => {
      const result = await requestEmpty(taskPath(task.id), "DELETE");
      if (result.ok || result.error.status === 404) update((tasks) => tasks.filter((t) => t.id !== task.id));
      return result;
    },
    [update],
  );

  /** Undo of a delete: the same title, details and status, under a new id. */
  const restore = useCallback(
    async (task: Task): Promise<ApiResult<Task>> => {
      const created = await add(task.title, task.details || undefined);
      if (!created.ok || task.status === "open") return created;
      return setStatus(created.data, task.status);
    },
    [add, setStatus],
  );

  return { list, reload, add, setStatus, remove, restore };
}
