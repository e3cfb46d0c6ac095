// A running turn's working state, which its phases share: the limits, the clock, the tools, the
// request context, the AgentState (replaced, never mutated: trees and stop conditions are pure
// functions of it) and what the current model call has streamed.
import type { LanguageModelV3, LanguageModelV3FunctionTool } from "@ai-sdk/provider";
import type { AgentConfig, ModelInfo, Reasoning, ServerFrame, TerminationReason, Usage } from "../../protocol";
import type { ImageSource } from "../context/model-messages";
import type { RequestContext } from "../context/request";
import type { ContextBudget, ContextMeter } from "../context/window";
import type { DecisionTree } from "../decision-trees/decision-tree";
import type { ModelToolCall, ModelUsage } from "../llm/call-model";
import type { ErrorContext } from "../llm/error-words";
import { render } from "../prompts/prompts.generated";
import { type AgentState, addUsage, createState, tokensUsed } from "../state";
import type { ApprovalPolicy } from "../tools/approval";
import type { AgentTool, ToolContext } from "../tools/tool";
import { toolDeclarations } from "../tools/tool-set";
import { CallIds } from "./call-ids";
import { TurnClock } from "./clock";
import { EarlyReads } from "./early-reads";
import type { TurnIO } from "./io";
import { callIdsSoFar, progressOf, type ResumePoint, recordedCall, restoredState } from "./resume";
import { retryEvent } from "./warnings";

export interface TurnSetup {
  model: LanguageModelV3;
  config: AgentConfig;
  tree: DecisionTree;
  tools: AgentTool[];
  toolContext: Omit<ToolContext, "signal" | "step" | "callId">;
  /** Tripped by Stop. */
  signal: AbortSignal;
  /** The model's context window and the provider's last count (context/window.ts). */
  context: { budget: ContextBudget; meter: ContextMeter; images?: ImageSource };
  /**
   * The model as the final answer records it (`model`), the cap on one answer (max_tokens), and who a
   * failed call's plain words name (error-words.ts).
   */
  llm?: { info: ModelInfo; maxOutputTokens: number; errors: ErrorContext };
  /** Where a turn cut short by a restart goes on (resume.ts); absent for a new turn. */
  resume?: ResumePoint;
  /** Which tools wait for the user's approval (tools/approval.ts); absent, none do. */
  approvals?: ApprovalPolicy;
}

export interface TurnOutcome {
  reason: TerminationReason;
  steps: number;
  usage: Usage;
}

export class Turn {
  readonly tree: DecisionTree;
  readonly config: AgentConfig;
  readonly clock: TurnClock;
  /** Stop or the time limit, whichever comes first. */
  readonly signal: AbortSignal;
  readonly tools: ReadonlyMap<string, AgentTool>;
  readonly toolNames: readonly string[];
  /** Every tool as the provider declares it, built once per turn. */
  readonly declarations: LanguageModelV3FunctionTool[];
  readonly requests: RequestContext;
  state: AgentState;
  /** Text the current model call streamed: what a stop or a failure keeps. */
  partial = "";
  /** Reasoning the current model call streamed, and since when: a stop or a failure keeps it too. */
  partialReasoning: { text: string; started: number } | undefined;
  /** The reasoning of the call that gave the answer (saved with the final message). */
  answerReasoning: Reasoning | undefined;
  /** The final answer, once a phase reached the goal. */
  answer: string | undefined;
  /**
   * The answer stopped at the model's output limit (finish reason `length`). The turn still ends
   * `completed`: another call would hit the same limit; the answer says it may be incomplete.
   */
  outputLimited = false;
  /** Read-only calls started while the model still streams (early-reads.ts). */
  readonly early: EarlyReads;
  /** Tool calls made in this step's act phases so far (the per-step cap counts them all). */
  callsThisStep = 0;
  /** Gives each call an id of its own within the turn (call-ids.ts). */
  readonly callIds: CallIds;
  private tokensAtStepStart = 0;

  constructor(
    readonly io: TurnIO,
    readonly setup: TurnSetup,
  ) {
    this.tree = setup.tree;
    this.config = this.tree.getConfig(setup.config);
    // A resumed turn has what its limit left at its last checkpoint: the restart's own time is not counted.
    this.clock = new TurnClock(this.config.timeoutSeconds * 1000 - (setup.resume?.progress.elapsed_ms ?? 0));
    this.signal = AbortSignal.any([setup.signal, this.clock.signal]);
    this.tools = new Map(setup.tools.map((t) => [t.name, t]));
    this.toolNames = [...this.tools.keys()];
    this.declarations = toolDeclarations(setup.tools);
    this.state = setup.resume
      ? restoredState(createState(this.config), setup.resume.progress)
      : createState(this.config);
    this.tokensAtStepStart = this.tokensUsed;
    this.early = new EarlyReads(this);
    this.callIds = new CallIds(setup.resume && callIdsSoFar(io.messages(), setup.resume));
    const clock = this.clock;
    this.requests = {
      model: setup.model,
      system: render("system", { tools: this.toolNames }).trim(),
      tools: this.declarations,
      ...setup.context,
      signal: this.signal,
      // A getter: waiting for the user moves the deadline (clock.ts).
      get deadline() {
        return clock.deadline;
      },
      log: () => io.messages(),
      append: (draft) => io.append(draft),
      charge: (usage) => this.charge(usage),
      onRetry: (retry) => {
        io.emit(retryEvent(retry));
        // The wait outlives a restart: a resumed turn waits out what is left of it.
        this.checkpoint(this.state.step - 1, undefined, Date.now() + retry.waitMs);
      },
    };
  }

  /**
   * Tells the host what a restart would resume from: `answered` steps done, and the step's calls
   * about to run (an empty list once they all have results; undefined keeps the last ones).
   */
  checkpoint(answered: number, calls?: readonly ModelToolCall[], retryAt?: number): void {
    if (!this.io.checkpoint) return;
    const step = this.state.step;
    this.io.checkpoint({
      progress: progressOf(this, answered),
      ...(calls && { calls: calls.map((c) => recordedCall(c, step)) }),
      ...(retryAt !== undefined ? { retryAt } : {}),
    });
  }

  /** The state with the clock, Stop and the time limit read now. */
  sync(): AgentState {
    const s = this.state;
    this.state = {
      ...s,
      now: Date.now(),
      cancelled: s.cancelled || this.setup.signal.aborted,
      timedOut: s.timedOut || this.clock.expired,
    };
    return this.state;
  }

  charge(usage: ModelUsage): void {
    this.state = addUsage(this.state, usage);
  }

  get tokensUsed(): number {
    return tokensUsed(this.state);
  }

  get overBudget(): boolean {
    return this.tokensUsed >= this.config.tokenBudget;
  }

  /** Marks a step's start: what the previous step took is what the budget warnings look ahead with. */
  beginStep(): void {
    this.state = { ...this.tree.onTurnStart(this.state), lastStepTokens: this.tokensUsed - this.tokensAtStepStart };
    this.tokensAtStepStart = this.tokensUsed;
    this.callsThisStep = 0;
  }

  send(frame: ServerFrame): void {
    this.io.frames.send(frame);
  }
}
