// Message (docs/protocol.md "Message"): what history and the socket carry, persisted before broadcast.
import { z } from "zod";
import { ApprovalDecisionSchema } from "./approvals";
import { ElicitationRecordSchema } from "./elicitation";
import { AttachmentSchema } from "./files";
import { MessageOriginSchema } from "./message-origin";
import { SystemItemSchema } from "./system-item";
import { ModelInfoSchema, UsageSchema } from "./usage";
import { MAX_ANSWER_SOURCES, WebSourceSchema } from "./web";

export const TERMINATION_REASONS = [
  "user_cancelled",
  "completed",
  "max_iterations",
  "token_budget",
  "timeout",
  "no_progress",
  "error_limit",
  "input_timeout",
  "llm_error",
  /** The conversation's server restarted 3 times during the turn (docs/architecture.md "Deploys"). */
  "interrupted",
  /** The operator's quota for the user ran out (docs/protocol.md "Quotas and usage"). */
  "quota_exceeded",
] as const;
export const TerminationReasonSchema = z.enum(TERMINATION_REASONS);
export type TerminationReason = z.infer<typeof TerminationReasonSchema>;

export const SeveritySchema = z.enum(["debug", "info", "warning", "error", "critical"]);
export type Severity = z.infer<typeof SeveritySchema>;

export const PhaseSchema = z.enum(["reason", "observe", "final"]);
export type Phase = z.infer<typeof PhaseSchema>;

export const ToolStatusSchema = z.enum(["success", "error", "timeout"]);

const base = {
  seq: z.number().int().positive(),
  id: z.string(),
  created_at: z.string(),
  /**
   * The message this one follows on its branch (0: it starts the conversation). A conversation is a tree
   * of branches on one append-only log; absent only from servers older than branches (read: seq - 1).
   */
  parent_seq: z.number().int().min(0).optional(),
};

export const UserMessageSchema = z.object({
  ...base,
  role: z.literal("user"),
  content: z.string(),
  /** Set when no one typed it: a schedule posted it (protocol.md "Schedules"); absent for a typed message. */
  origin: MessageOriginSchema.optional(),
  /** The sending client's id for it (chat `client_id`): how that client knows its message arrived. */
  client_id: z.string().optional(),
  /** The files the message carries, as they were when it was sent (protocol.md "Files"). */
  attachments: z.array(AttachmentSchema).optional(),
});
/** What the model thought before it wrote a step (streamed as `reasoning_delta`). */
export const ReasoningSchema = z.object({
  text: z.string(),
  /** From the first reasoning delta to the first text or tool call ("Thought for 12 s"). */
  duration_ms: z.number().int().nonnegative(),
});
export type Reasoning = z.infer<typeof ReasoningSchema>;

export const AgentMessageSchema = z.object({
  ...base,
  role: z.literal("agent"),
  /** What the agent wrote; on a final answer that ended for a reason, `note` follows it after "\n\n— ". */
  content: z.string(),
  step: z.number().int().optional(),
  phase: PhaseSchema.optional(),
  termination_reason: TerminationReasonSchema.optional(),
  /** On a turn's final answer: what the whole turn used (the token meter reads it after a reload). */
  usage: UsageSchema.optional(),
  /**
   * The product's words on how the turn ended ("Stopped by the user.", "The model call failed: …"), also
   * at the end of `content` for clients that show only that. Never replayed to the model as its own words.
   */
  note: z.string().optional(),
  /** The step's reasoning. A step that only called tools has a message with empty `content` to carry it. */
  reasoning: ReasoningSchema.optional(),
  /** On a turn's final answer: the model that wrote it. */
  model: ModelInfoSchema.optional(),
  /**
   * On a turn's final answer that used the web: the pages it cites as `[n]` (protocol/web.ts), in the
   * order first cited; where it cites none, the pages the turn read. The chat lists them under "Sources".
   */
  sources: z.array(WebSourceSchema).max(MAX_ANSWER_SOURCES).optional(),
});
export const ToolMessageSchema = z.object({
  ...base,
  role: z.literal("tool"),
  call_id: z.string(),
  tool: z.string(),
  args: z.unknown(),
  status: ToolStatusSchema,
  result: z.unknown().optional(),
  error: z.string().optional(),
  step: z.number().int(),
  duration_ms: z.number(),
  /** The call waited for the user's approval (protocol/approvals.ts) and was decided so. */
  approval: ApprovalDecisionSchema.optional(),
  /** The server asked the user during the call (protocol/elicitation.ts): what was asked and answered. */
  elicitations: z.array(ElicitationRecordSchema).optional(),
});
export const SystemMessageSchema = z.object({
  ...base,
  role: z.literal("system"),
  source: z.string(),
  severity: SeveritySchema,
  item: SystemItemSchema,
});

export const MessageSchema = z.discriminatedUnion("role", [
  UserMessageSchema,
  AgentMessageSchema,
  ToolMessageSchema,
  SystemMessageSchema,
]);
export type Message = z.infer<typeof MessageSchema>;
export type UserMessage = z.infer<typeof UserMessageSchema>;
export type AgentMessage = z.infer<typeof AgentMessageSchema>;
export type ToolMessage = z.infer<typeof ToolMessageSchema>;
export type SystemMessage = z.infer<typeof SystemMessageSchema>;

/** A message before the conversation object gives it its seq, id and time. */
type Draft<T> = T extends unknown ? Omit<T, "seq" | "id" | "created_at" | "parent_seq"> : never;
export type MessageDraft = Draft<Message>;
