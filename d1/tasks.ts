// The user's tasks in D1, shared by the agent's task_* tools and the /api/tasks routes so the rules
// exist once. Every statement is scoped by user id: another user's task is indistinguishable from a
// missing one.
import { and, desc, eq, sql } from "drizzle-orm";
import { z } from "zod";
import { database, nowIso } from "./client";
import { tasks } from "./schema";
import { writeOnce } from "./tool-effects";

export const MAX_LISTED_TASKS = 100;

export const TaskStatusSchema = z.enum(["open", "in_progress", "done"]).describe('"open", "in_progress" or "done"');
export type TaskStatus = z.infer<typeof TaskStatusSchema>;

export const TaskTitleSchema = z.string().trim().min(1).max(200).describe("A short title, up to 200 characters");
export const TaskDetailsSchema = z.string().max(4000).describe("Longer notes on the task, up to 4000 characters");

export const CreateTaskSchema = z.object({ title: TaskTitleSchema, details: TaskDetailsSchema.optional() });
export type CreateTask = z.infer<typeof CreateTaskSchema>;

export const TaskChangesSchema = z.object({
  status: TaskStatusSchema.optional(),
  title: TaskTitleSchema.optional(),
  details: TaskDetailsSchema.optional(),
});
export type TaskChanges = z.infer<typeof TaskChangesSchema>;
/** A change that changes nothing is refused, so a caller learns of a mistyped field name. */
export const hasChange = (changes: TaskChanges) =>
  changes.status !== undefined || changes.title !== undefined || changes.details !== undefined;
export const NO_CHANGE = "give at least one of status, title, details";
export const UpdateTaskSchema = TaskChangesSchema.refine(hasChange, NO_CHANGE);

export interface Task {
  id: string;
  title: string;
  status: TaskStatus;
  details: string;
  created_at: string;
  updated_at: string;
}

const columns = {
  id: tasks.id,
  title: tasks.title,
  status: tasks.status,
  details: tasks.details,
  created_at: tasks.createdAt,
  updated_at: tasks.updatedAt,
};

/** A write's task; `repeated`: its idempotency key was already used, so this is the task as it is now. */
export interface TaskWrite {
  task: Task;
  repeated: boolean;
}

/** With a key (an agent tool's call), the task is created at most once under it (d1/tool-effects.ts). */
export async function createTask(d1: D1Database, userId: string, input: CreateTask, key?: string): Promise<TaskWrite> {
  const id = crypto.randomUUID();
  const insert = database(d1)
    .insert(tasks)
    .values({ id, userId, title: input.title, details: input.details ?? "" })
    .returning(columns);
  const effect = await writeOnce<Task>(d1, userId, key, id, [statement(d1, insert)]);
  if (effect.repeated) {
    const task = await readTask(d1, userId, effect.target);
    if (!task) throw new Error(`task ${effect.target} was created before the restart and has been deleted since`);
    return { task, repeated: true };
  }
  const task = effect.results[0]?.results[0];
  if (!task) throw new Error("task insert returned no row");
  return { task, repeated: false };
}

/** Undefined when there is no such task (now). With a key, the change is applied at most once under it. */
export async function updateTask(
  d1: D1Database,
  userId: string,
  id: string,
  changes: TaskChanges,
  key?: string,
): Promise<TaskWrite | undefined> {
  const update = database(d1)
    .update(tasks)
    .set({ ...changes, updatedAt: nowIso() })
    .where(and(eq(tasks.id, id), eq(tasks.userId, userId)))
    .returning(columns);
  const effect = await writeOnce<Task>(d1, userId, key, id, [statement(d1, update)]);
  const task = effect.repeated ? await readTask(d1, userId, effect.target) : effect.results[0]?.results[0];
  return task && { task, repeated: effect.repeated };
}

async function readTask(d1: D1Database, userId: string, id: string): Promise<Task | undefined> {
  const [task] = await database(d1)
    .select(columns)
    .from(tasks)
    .where(and(eq(tasks.id, id), eq(tasks.userId, userId)));
  return task;
}

/**
 * A drizzle query as a plain D1 statement, to batch with an effect's key. Its RETURNING columns are
 * named as Task's fields (`columns`), so its rows are Tasks as they are.
 */
function statement(d1: D1Database, query: { toSQL(): { sql: string; params: unknown[] } }): D1PreparedStatement {
  const { sql: text, params } = query.toSQL();
  return d1.prepare(text).bind(...params);
}

/** Newest first; rowid breaks ties between tasks created in the same millisecond. */
export async function listTasks(d1: D1Database, userId: string, status?: TaskStatus): Promise<Task[]> {
  return database(d1)
    .select(columns)
    .from(tasks)
    .where(status ? and(eq(tasks.userId, userId), eq(tasks.status, status)) : eq(tasks.userId, userId))
    .orderBy(desc(tasks.createdAt), sql`rowid desc`)
    .limit(MAX_LISTED_TASKS);
}

export async function deleteTask(d1: D1Database, userId: string, id: string): Promise<boolean> {
  const deleted = await database(d1)
    .delete(tasks)
    .where(and(eq(tasks.id, id), eq(tasks.userId, userId)))
    .returning({ id: tasks.id });
  return deleted.length > 0;
}
