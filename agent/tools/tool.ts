// What a tool is: a name and description the model sees, a zod schema its arguments must pass, and an
// execute function. The loop validates arguments, applies the per-call timeout and the turn's abort
// signal, and reports the outcome; a tool only does its work.
import type { z } from "zod";
import type { MessageDraft, ServerFrame, TerminationReason, Usage } from "../../protocol";
import type { EventDraft } from "../events";
import type { ConversationFiles } from "../files/conversation-files";
import type { ModelUsage } from "../llm/call-model";
import type { MemoryScope } from "../projects/memory-scope";
import type { WebAccess } from "../web/web-access";
import type { ElicitationAsk, ElicitationReply } from "./elicitation";

export const DEFAULT_TOOL_TIMEOUT_MS = 30_000;

export interface ToolContext {
  db: D1Database;
  userId: string;
  conversationId: string;
  /** Aborted on Stop, on the per-call timeout, and when the turn ends. */
  signal: AbortSignal;
  step: number;
  callId: string;
  /** What is left of the turn's limits, for a tool that spends them (delegate). */
  remaining?: () => TurnBudget;
  /** Charges tokens the tool spent on the turn's budget (a subagent's model calls). */
  chargeTokens?: (usage: ModelUsage) => void;
  /** A system item to persist right after this call's result (e.g. a child's lifecycle event). */
  after?: (draft: Extract<MessageDraft, { role: "system" }>) => void;
  /** A live frame to show under this call's card while it runs (a subagent's progress). */
  progress?: (frame: ServerFrame) => void;
  /** Runs subagents in child conversation objects; absent where delegation is not allowed. */
  subagents?: SubagentHost;
  /** Raises an event on the conversation's bus (e.g. subagent.turn_ended). */
  emit?: (event: EventDraft) => void;
  /**
   * The turn's own id, kept across restarts: with the step and the call id it makes the call's
   * idempotency key (effectKey), so a write re-run after a restart is recognised, not repeated.
   */
  turnId?: string;
  /**
   * Asks the user on an MCP server's behalf (elicitation.ts); the call's own timeout and the turn's
   * clock pause while they answer. Absent where nobody can be asked (a subagent): the server is declined.
   */
  elicit?: (ask: ElicitationAsk) => Promise<ElicitationReply>;
  /** The conversation's files, for the file tools (files.ts); absent where there are none to reach. */
  files?: ConversationFiles;
  /** The web, for the web tools (web.ts); absent where the operator or the user switched it off. */
  web?: WebAccess;
  /** Where the memory tool writes (memory.ts); absent where the user or the project switched memory off. */
  memory?: MemoryScope;
}

/** The key a built-in write is done under, once: the same call after a restart has the same key. */
export const effectKey = (ctx: Pick<ToolContext, "conversationId" | "turnId" | "step" | "callId">) =>
  `${ctx.conversationId}/${ctx.turnId ?? "-"}/${ctx.step}/${ctx.callId}`;

export interface TurnBudget {
  tokens: number;
  seconds: number;
  iterations: number;
}

export interface SubagentRequest {
  task: string;
  tools?: string[];
  maxSteps?: number;
  tokenBudget?: number;
}

export interface SubagentResult {
  conversation_id: string;
  pod_name: string;
  answer: string;
  termination_reason: TerminationReason;
  steps: number;
  usage: Usage;
}

export interface SubagentHost {
  delegate(request: SubagentRequest, ctx: ToolContext): Promise<SubagentResult>;
  /** Waits again for the subagent a call cut short by a restart had started (its object went on); `task`: the call's. */
  reattach(ctx: ToolContext, task?: string): Promise<SubagentResult>;
}

export interface AgentTool<S extends z.ZodType = z.ZodType> {
  name: string;
  description: string;
  args: S;
  /** The JSON Schema the model is given, when the tool brings its own (MCP); otherwise derived from `args`. */
  inputSchema?: Record<string, unknown>;
  timeoutMs?: number;
  /**
   * The tool spends the turn's tokens itself (a subagent): calls of it that run in one step share
   * what is left, instead of each being offered all of it.
   */
  spendsTurnTokens?: boolean;
  /**
   * The tool only reads: a call cut short by a restart changed nothing. Its host need not make the
   * record that the call started durable before the call runs (turn-marker.ts), which saves a storage
   * commit on the call's path.
   */
  readOnly?: boolean;
  /**
   * Running the call again has no further effect (a built-in write done under its idempotency key,
   * an MCP tool marked idempotentHint): a call cut short by a restart is re-run.
   */
  idempotent?: boolean;
  /**
   * How a call cut short by a restart goes on, for a tool that is neither read-only nor idempotent
   * but can pick up its own work (a subagent that kept running in its own object). Without it, such a
   * call is not re-run: the model is told it may or may not have taken effect.
   */
  resume?(args: z.infer<S>, ctx: ToolContext): Promise<unknown>;
  /**
   * The key the user's approval rule for this tool is kept under, and whether it asks before running
   * when there is no rule (approval.ts). Absent: a built-in tool, keyed by name, that runs at once.
   */
  approval?: { key: string; askByDefault: boolean };
  execute(args: z.infer<S>, ctx: ToolContext): Promise<unknown>;
}

/** An expected failure the model should read (e.g. "no note at that path"), not a crash. */
export class ToolError extends Error {
  override name = "ToolError";
}

/** Keeps each tool's argument type while collecting tools of different shapes in one list. */
export function defineTool<S extends z.ZodType>(tool: AgentTool<S>): AgentTool {
  return tool as unknown as AgentTool;
}
