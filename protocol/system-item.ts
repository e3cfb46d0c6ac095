// SystemItem (seed 002, docs/protocol.md "SystemItem"): every role:system entry the model sees is one of
// these. `body` is the exact text the model saw; replay uses it verbatim.
import { z } from "zod";
import { AttachmentSchema } from "./files";

export const SYSTEM_REMINDER_OPEN = "<system-reminder>";
export const SYSTEM_REMINDER_CLOSE = "</system-reminder>";

export const NotificationPrioritySchema = z.enum(["critical", "high", "normal", "low"]);
export type NotificationPriority = z.infer<typeof NotificationPrioritySchema>;

/**
 * A pod event may carry the subagent's `task` (cut to 200 characters), so a person reads which work it
 * is about rather than its pod name; events stored before the field existed have none.
 */
export const PodEventSchema = z.discriminatedUnion("type", [
  z.object({ type: z.literal("turn_ended"), pod_name: z.string(), task: z.string().optional() }).passthrough(),
  z
    .object({ type: z.literal("errored"), pod_name: z.string(), message: z.string(), task: z.string().optional() })
    .passthrough(),
  z.object({ type: z.literal("shut_down"), pod_name: z.string(), task: z.string().optional() }).passthrough(),
  z
    .object({
      type: z.literal("scope_sub_delegated"),
      pod_name: z.string(),
      parent_pod: z.string(),
      sub_pod: z.string(),
      /** The sub-subagent's task. */
      task: z.string().optional(),
    })
    .passthrough(),
]);
export type PodEvent = z.infer<typeof PodEventSchema>;

export const SystemItemSchema = z.discriminatedUnion("kind", [
  z.object({
    kind: z.literal("notification"),
    message: z.string(),
    body: z.string(),
    format: z.enum(["toon", "json", "text"]).default("text"),
    subscriber: z.string().optional(),
    priority: NotificationPrioritySchema.default("normal"),
    data: z.unknown().optional(),
    /** The external triggers (notify) this notification delivers, so each is delivered exactly once. */
    trigger_ids: z.array(z.string()).optional(),
  }),
  z.object({ kind: z.literal("pod_event"), event: PodEventSchema, body: z.string() }),
  z.object({
    kind: z.literal("file_attachment"),
    path: z.string(),
    body: z.string(),
    /**
     * Set for a file the user attached (protocol.md "Files"): which file, and whether `body` holds its
     * whole text (`inline`) or its outline, the rest read with `file_read`. Absent for a note (`@path`).
     */
    file: AttachmentSchema.optional(),
    inline: z.boolean().optional(),
  }),
  z.object({ kind: z.literal("knowledge"), slug: z.string(), body: z.string() }),
  /** The links of a user's message, offered to the agent to read with web_fetch (protocol.md "The web"). */
  z.object({ kind: z.literal("links"), urls: z.array(z.string()), body: z.string() }),
  z.object({ kind: z.literal("workflow"), slug: z.string(), body: z.string() }),
  /**
   * What the agent knows before the conversation's first message (protocol.md "Projects, instructions and
   * memory"): the user's instructions, the project and what it holds, the memories of their scope. Written
   * once, before the first message; a change of instructions or project is a new one (`update`) before the
   * next message, so the request's prefix never changes under the conversation.
   */
  z.object({
    kind: z.literal("context"),
    body: z.string(),
    /** What the next turns compare the user's instructions and the project against. */
    key: z.string(),
    update: z.boolean().optional(),
    /** For people: whether it holds instructions, which project, how many memories and files. */
    instructions: z.boolean().optional(),
    project: z.object({ id: z.string(), name: z.string() }).optional(),
    memories: z.number().int().nonnegative().optional(),
    files: z.number().int().nonnegative().optional(),
  }),
  z.object({
    kind: z.literal("task_reminder"),
    // Items persisted before the source existed default to the only policy there is (seed 002).
    source: z.literal("task_inactivity").default("task_inactivity"),
    body: z.string(),
    /** What the body lists, for people: the open tasks named (titles, no ids), how many are open, after how many requests. */
    tasks: z.array(z.object({ title: z.string(), status: z.string() })).optional(),
    open: z.number().int().nonnegative().optional(),
    requests: z.number().int().nonnegative().optional(),
  }),
  z.object({
    kind: z.literal("interrupt"),
    body: z.string(),
    /** For people: whether the turn went on after the restart, and how many running calls it cut. */
    resumed: z.boolean().optional(),
    cancelled_calls: z.number().int().nonnegative().optional(),
  }),
  z.object({
    kind: z.literal("compaction"),
    /** What the model reads, from now on, in place of every message up to `through_seq`. */
    body: z.string(),
    through_seq: z.number().int().nonnegative(),
    tokens_before: z.number().int().nonnegative(),
    tokens_after: z.number().int().nonnegative(),
    /** `summary`: written by the model; `cut`: the deterministic fallback (oldest turns dropped, listed). */
    method: z.enum(["summary", "cut"]).default("summary"),
  }),
]);
export type SystemItem = z.infer<typeof SystemItemSchema>;
export type SystemItemKind = SystemItem["kind"];

/** The text the model sees for an item: its stored body, verbatim. */
export function historyText(item: SystemItem): string {
  return item.body;
}
