// Socket frames of docs/protocol.md ("Socket frames"). Every frame received is parsed here; every frame
// sent satisfies ServerFrame.
import { z } from "zod";
import { DecisionTreeNameSchema } from "./agent-config";
import { ApprovalDecisionSchema, PendingApprovalSchema, ToolApprovalFrameSchema } from "./approvals";
import { ElicitationOutcomeSchema, ElicitationResponseFrameSchema, PendingElicitationSchema } from "./elicitation";
import { AttachmentIdsSchema } from "./files";
import { MessageSchema, TerminationReasonSchema } from "./message";
import { ModelInfoSchema, UsageSchema } from "./usage";

export const MAX_FRAME_BYTES = 64 * 1024;
export const MAX_CHAT_CHARS = 32000;

/**
 * A client's own id for one message it sends (a random string it makes): the conversation keeps it on the
 * user message and never starts the same message twice, so a client may send it again until it sees it.
 */
export const ClientIdSchema = z.string().regex(/^[\w-]{8,64}$/);

// Client frames are strict: an unknown field is refused by name, as in every HTTP body.
export const ChatFrameSchema = z
  .strictObject({
    type: z.literal("chat"),
    /** Empty only when the message carries files. */
    content: z.string().max(MAX_CHAT_CHARS, `content is over ${MAX_CHAT_CHARS} characters`),
    agent_max_steps: z.number().int().min(1).max(50).optional(),
    decision_tree: DecisionTreeNameSchema.optional(),
    /** A new version of this user message: the new one follows the same message, on a new branch. */
    edit_seq: z.number().int().min(1).optional(),
    /** Sent again with the same id, the message is not started twice (`chat_duplicate` answers). */
    client_id: ClientIdSchema.optional(),
    /**
     * Files uploaded with `POST /api/files` (their ids) that the message carries. With `edit_seq` and no
     * `attachments` the edited message's files are carried into the new version.
     */
    attachments: AttachmentIdsSchema.optional(),
  })
  .refine((f) => f.content.length > 0 || (f.attachments?.length ?? 0) > 0, {
    message: "content must not be empty",
    path: ["content"],
  });
export type ChatFrame = z.infer<typeof ChatFrameSchema>;

/** Runs the turn of a user message again, on a new branch; `seq` is that message or any message of its turn. */
export const RegenerateFrameSchema = z.strictObject({
  type: z.literal("regenerate"),
  seq: z.number().int().min(1),
  agent_max_steps: z.number().int().min(1).max(50).optional(),
  decision_tree: DecisionTreeNameSchema.optional(),
});
export type RegenerateFrame = z.infer<typeof RegenerateFrameSchema>;

export const ClientFrameSchema = z.discriminatedUnion("type", [
  ChatFrameSchema,
  z.strictObject({ type: z.literal("agent_control"), action: z.literal("stop") }),
  z.strictObject({ type: z.literal("agent_user_input"), content: z.string().min(1).max(MAX_CHAT_CHARS) }),
  /** `tree`: every branch's messages; without it, only the current path's (what a linear client shows). */
  z.strictObject({ type: z.literal("resume"), after_seq: z.number().int().min(0), tree: z.boolean().optional() }),
  z.strictObject({ type: z.literal("ping") }),
  RegenerateFrameSchema,
  /** Shows the version holding message `seq`: the current path goes through it to its newest message. */
  z.strictObject({ type: z.literal("switch_branch"), seq: z.number().int().min(1) }),
  /** Approve or deny one call that waits for approval (`tool_approval_request`). */
  ToolApprovalFrameSchema,
  /** Answers one request of an MCP server waiting for the user (`elicitation_request`). */
  ElicitationResponseFrameSchema,
]);
export type ClientFrame = z.infer<typeof ClientFrameSchema>;

export const PendingInputSchema = z.object({ question: z.string(), step: z.number(), deadline: z.string().optional() });

export const AgentUpdateSchema = z.discriminatedUnion("update_type", [
  z.object({ update_type: z.literal("agent_start"), max_steps: z.number(), decision_tree: z.string() }),
  z.object({ update_type: z.literal("agent_turn_start"), step: z.number() }),
  z.object({ update_type: z.literal("agent_reason"), content: z.string(), step: z.number() }),
  z.object({ update_type: z.literal("agent_observe"), content: z.string(), step: z.number() }),
  z.object({
    update_type: z.literal("agent_request_input"),
    question: z.string(),
    step: z.number(),
    timeout_s: z.number(),
  }),
  z.object({ update_type: z.literal("agent_request_input_timeout"), step: z.number() }),
  z.object({ update_type: z.literal("agent_stopped"), step: z.number() }),
  /**
   * A turn cut short by a restart goes on from its last persisted step (`step`: the last step whose
   * model call had answered); `interruptions` counts the restarts this turn has had.
   */
  z.object({ update_type: z.literal("agent_resumed"), step: z.number(), interruptions: z.number() }),
  z.object({
    update_type: z.literal("agent_completion"),
    steps: z.number(),
    termination_reason: TerminationReasonSchema,
  }),
]);
export type AgentUpdate = z.infer<typeof AgentUpdateSchema>;

export const ToolErrorTypeSchema = z.enum(["error", "timeout", "invalid_args", "unknown_tool"]);
export type ToolErrorType = z.infer<typeof ToolErrorTypeSchema>;

export const ServerFrameSchema = z.union([
  z.object({
    type: z.literal("hello"),
    conversation_id: z.string(),
    last_seq: z.number(),
    running: z.boolean(),
    pending_input: PendingInputSchema.optional(),
    model: ModelInfoSchema.optional(),
    /** The last message of the current path (= last_seq while the conversation never branched). */
    leaf_seq: z.number().optional(),
    /** The running turn was cut short by a restart and has not yet shown progress since it resumed. */
    resuming: z.boolean().optional(),
    /** Calls of the running turn that wait for the user's approval, in the order they asked. */
    pending_approvals: z.array(PendingApprovalSchema).optional(),
    /** Requests of MCP servers that wait for the user (protocol/elicitation.ts), in the order they came. */
    pending_elicitations: z.array(PendingElicitationSchema).optional(),
  }),
  z.object({ type: z.literal("message"), message: MessageSchema }),
  z.object({ type: z.literal("agent_update") }).and(AgentUpdateSchema),
  z.object({ type: z.literal("text_delta"), step: z.number(), delta: z.string() }),
  /** The model's reasoning as it streams, before the step's text (kept on the step's message as `reasoning`). */
  z.object({ type: z.literal("reasoning_delta"), step: z.number(), delta: z.string() }),
  z.object({
    type: z.literal("tool_start"),
    call_id: z.string(),
    tool: z.string(),
    args: z.unknown(),
    step: z.number(),
  }),
  z.object({
    type: z.literal("tool_complete"),
    call_id: z.string(),
    tool: z.string(),
    result: z.unknown(),
    step: z.number(),
    duration_ms: z.number(),
  }),
  z.object({
    type: z.literal("tool_error"),
    call_id: z.string(),
    tool: z.string(),
    error: z.string(),
    error_type: ToolErrorTypeSchema,
    step: z.number(),
  }),
  z.object({
    type: z.literal("response_complete"),
    termination_reason: TerminationReasonSchema,
    steps: z.number(),
    usage: UsageSchema,
  }),
  /** `client_id`: the chat frame refused (busy, invalid), when it carried one. */
  z.object({ type: z.literal("error"), code: z.string(), message: z.string(), client_id: z.string().optional() }),
  /** A chat whose `client_id` is already user message `seq`: nothing was started (the client's copy is in). */
  z.object({ type: z.literal("chat_duplicate"), client_id: z.string(), seq: z.number() }),
  /** A subagent's live frame, shown under the delegate call that started it (nested ones nest). */
  z.object({
    type: z.literal("subagent_frame"),
    call_id: z.string(),
    conversation_id: z.string(),
    pod_name: z.string(),
    frame: z.unknown(),
  }),
  z.object({ type: z.literal("pong") }),
  /** The model named the conversation after its first answer (sent once, after `response_complete`). */
  z.object({ type: z.literal("conversation_title"), conversation_id: z.string(), title: z.string() }),
  /**
   * The current path changed (a switch, or an edit or regenerate about to add its branch): it now ends at
   * `leaf_seq`. Every message sent after it follows the current leaf.
   */
  z.object({ type: z.literal("branch_switched"), leaf_seq: z.number() }),
  /**
   * A call (its `tool_start` already sent) waits for the user's approval before it runs; the turn's clock
   * is paused meanwhile. Each call of a step asks on its own.
   */
  z.object({ type: z.literal("tool_approval_request"), timeout_s: z.number() }).extend(PendingApprovalSchema.shape),
  /** How a waiting call was decided (every tab learns it; the call's result follows). */
  z.object({
    type: z.literal("tool_approval_result"),
    call_id: z.string(),
    tool: z.string(),
    step: z.number(),
    decision: ApprovalDecisionSchema,
    always_allow: z.boolean().optional(),
  }),
  /** An MCP server asks the user during a call (protocol/elicitation.ts); the turn's clock is paused. */
  z.object({ type: z.literal("elicitation_request"), timeout_s: z.number() }).extend(PendingElicitationSchema.shape),
  /** How it ended (every tab learns it; the card goes). */
  z.object({
    type: z.literal("elicitation_result"),
    elicitation_id: z.string(),
    call_id: z.string(),
    step: z.number(),
    outcome: ElicitationOutcomeSchema,
  }),
]);
export type ServerFrame = z.infer<typeof ServerFrameSchema>;
