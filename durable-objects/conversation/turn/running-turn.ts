// The shapes the turn's host passes between its parts (turn-host.ts): the running turn, its plan, and
// why a frame is refused.
import type { LlmSettings } from "../../../agent/llm/config";
import type { McpToolbox } from "../../../agent/tools/mcp";
import type { AgentTool, SubagentHost } from "../../../agent/tools/tool";
import type { ResumePoint } from "../../../agent/turn/resume";
import type { TurnOutcome } from "../../../agent/turn/run-turn";
import type { AgentConfig, ApprovalRule } from "../../../protocol";
import type { WebPlan } from "../web/web-plan";
import type { LiveStep } from "./live-step";
import type { ParentLink } from "./subagents";
import type { TurnOrigin } from "./turn-marker";

export interface RunningTurn {
  abort: AbortController;
  done: Promise<void>;
  live: LiveStep | undefined;
  origin: TurnOrigin;
  outcome?: TurnOutcome;
  /** Set for a turn cut short by a restart: where it goes on. */
  resume?: ResumePoint;
  /** Resumed, and nothing new shown yet (hello `resuming`). */
  resuming?: boolean;
  /** Set when this turn is a subagent's: every frame also goes to the parent. */
  parent?: ParentLink;
  /** The turn's input is not yet sent to the D1 index: done once its first model request is answered. */
  indexInput?: boolean;
  /** The model the turn runs with (known once its settings are read); the title is asked of it too. */
  llm?: LlmSettings;
}

/** What one turn runs with: the limits, the tools, who hosts its subagents, and its MCP connections. */
export interface TurnPlan {
  config: AgentConfig;
  tools: AgentTool[];
  subagents?: SubagentHost;
  mcp: McpToolbox;
  /** The model that answers (turn-model.ts). */
  llm: LlmSettings;
  /** The user's approval rules (which tools ask before they run). */
  approvals: ApprovalRule[];
  /** What the turn may do on the web (web/web-plan.ts). */
  web?: WebPlan;
  /** Where the memory tool writes; absent where memory is off (projects/conversation-context.ts). */
  memory?: { projectId: string | null };
}

/** Builds a turn's plan once it runs (plans.ts); the signal is the turn's Stop. */
export type PlanFor = (signal: AbortSignal) => Promise<TurnPlan>;

/** Why a frame was not acted on, answered on the socket that sent it. */
export type Refusal = { code: string; message: string };

export const NO_USAGE = { input_tokens: 0, output_tokens: 0, total_tokens: 0 };

export const stoppedByUser = () => new DOMException("stopped by the user", "AbortError");
