// The user's tasks in D1, shared by the agent's task_* tools and the /api/tasks routes so the rules
// exist once. Every statement is scoped by user id: another user's task is indistinguishable from a
// missing one.
import { and, desc, eq, sql } from "drizzle-orm";
import { z } from "zod";
import { database, nowIso } from "./client";
import { tasks } from "./schema";

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

export async function createTask(d1: D1Database, userId: string, input: CreateTask): Promise<Task> {
  const [task] = await database(d1)
    .insert(tasks)
    .values({ id: crypto.randomUUID(), userId, title: input.title, details: input.details ?? "" })
    .returning(columns);
  if (!task) throw new Error("task insert returned no row");
  return task;
}

export async function updateTask(
  d1: D1Database,
  userId: string,
  id: string,
  changes: TaskChanges,
): Promise<Task | undefined> {
  const [task] = await database(d1)
    .update(tasks)
    .set({ ...changes, updatedAt: nowIso() })
    .where(and(eq(tasks.id, id), eq(tasks.userId, userId)))
    .returning(columns);
  return task;
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
