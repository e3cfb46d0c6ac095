// The task tools (docs/architecture.md "The agent"): the model keeps the user's task list. The rules and the
// SQL live in d1/tasks.ts, shared with the /api/tasks routes.
import { z } from "zod";
import {
  CreateTaskSchema,
  createTask,
  hasChange,
  listTasks,
  NO_CHANGE,
  TaskChangesSchema,
  TaskStatusSchema,
  updateTask,
} from "../../d1/tasks";
import { ALREADY_DONE } from "../../d1/tool-effects";
import { type AgentTool, defineTool, effectKey, ToolError } from "./tool";

export const taskCreate = defineTool({
  name: "task_create",
  description: "Adds a task to the user's task list. It starts as open.",
  args: CreateTaskSchema,
  idempotent: true,
  async execute(args, ctx) {
    const { task, repeated } = await createTask(ctx.db, ctx.userId, args, effectKey(ctx));
    return repeated ? { ...task, already_done: ALREADY_DONE } : task;
  },
});

export const taskUpdate = defineTool({
  name: "task_update",
  description: "Changes a task's status, title or details. Give the task's id and at least one change.",
  args: TaskChangesSchema.extend({
    id: z.string().min(1).max(100).describe("The task's id, from task_create or task_list"),
  }).refine(hasChange, NO_CHANGE),
  idempotent: true,
  async execute({ id, status, title, details }, ctx) {
    const written = await updateTask(ctx.db, ctx.userId, id, { status, title, details }, effectKey(ctx));
    if (!written) throw new ToolError(`No task ${id}`);
    return written.repeated ? { ...written.task, already_done: ALREADY_DONE } : written.task;
  },
});

export const taskList = defineTool({
  name: "task_list",
  readOnly: true,
  description: "Lists the user's tasks, newest first (at most 100), optionally only those with one status.",
  args: z.object({ status: TaskStatusSchema.optional().describe("Only tasks with this status") }),
  async execute({ status }, ctx) {
    return { tasks: await listTasks(ctx.db, ctx.userId, status) };
  },
});

export const taskTools: AgentTool[] = [taskCreate, taskUpdate, taskList];
