// Response shapes that docs/protocol.md names but protocol/ does not declare yet (wrapper objects).
// Kept here, loose where the server may add fields, until protocol/ exports them. Shapes protocol/
// does declare (subscribers, messages, AgentConfig, …) are imported from it, never copied here.
import { z } from "zod";
import { AgentConfigSchema, ConversationSchema, UserSchema } from "../../../protocol";

/** GET /api/me, and the signup and login answers. */
export const UserResponseSchema = z.object({ user: UserSchema });

/** Accepts the bare array of docs/protocol.md and a `{key: [...]}` wrapper alike. */
function listOf<T extends z.ZodType>(item: T, key: string) {
  return z.union([z.array(item), z.object({ [key]: z.array(item) }).transform((o) => o[key] as z.infer<T>[])]);
}

export const ConversationListSchema = listOf(ConversationSchema, "conversations");
export const ConversationDetailSchema = ConversationSchema.extend({ running: z.boolean().optional() });

/** Reads a saved config leniently: unknown fields are dropped and missing ones fall back to defaults. */
export const AgentConfigResponseSchema = z.object(AgentConfigSchema.shape).partial();

/** GET /api/notes lists summaries; GET and PUT /api/notes/<path> answer one note (d1/notes.ts). */
export const NoteSummarySchema = z.object({ path: z.string(), bytes: z.number(), updated_at: z.string() });
export type NoteSummary = z.infer<typeof NoteSummarySchema>;
export const NoteListSchema = listOf(NoteSummarySchema, "notes");
export const NoteSchema = NoteSummarySchema.extend({ content: z.string(), created_at: z.string() });
export type Note = z.infer<typeof NoteSchema>;

/** GET /api/tasks lists tasks, newest first; POST and PATCH answer one (d1/tasks.ts). */
export const TaskSchema = z.object({
  id: z.string(),
  title: z.string(),
  status: z.enum(["open", "in_progress", "done"]),
  details: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Task = z.infer<typeof TaskSchema>;
export const TaskListSchema = listOf(TaskSchema, "tasks");
