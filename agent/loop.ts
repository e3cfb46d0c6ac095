// The agent loop. It reads like the seed: while the tree says go on, run the tree's phases for a step
// (model calls, tools), then save the answer with an explanation of why the turn ended. Everything the
// model reads comes from the persisted log (context.ts), so a replay sends the same bytes.
import type { LanguageModelV3, LanguageModelV3FunctionTool } from "@ai-sdk/provider";
import type { AgentConfig, TerminationReason, Usage } from "../protocol";
import { describeWarning, dueWarnings } from "./budget-warnings";
import { compact, contextPrompt } from "./compaction";
import { latestCompaction } from "./context";
import { type ContextBudget, type ContextMeter, estimateRequest, estimateTokens } from "./context-window";
import type { DecisionTree, PhasePlan } from "./decision-trees/decision-tree";
import type { EventDraft } from "./events";
import { composeFinal } from "./explanations";
import { callModel, type ModelCallResult } from "./llm/call-model";
import { MAX_RETRIES, type ModelRetry } from "./llm/retry";
import { describeLoop, loopWarning } from "./loop-detection";
import { render } from "./prompts/prompts.generated";
import { type AgentState, addUsage, createState, elapsedMs, tokensUsed, usageOf } from "./state";
import { firstStop } from "./termination";
import { DELEGATE } from "./tools/delegate";
import { runToolCalls } from "./tools/executor";
import type { AgentTool, ToolContext } from "./tools/tool";
import { toolDeclarations } from "./tools/tool-set";
import { TurnClock } from "./turn-clock";
import type { TurnIO } from "./turn-io";

export type { TurnIO } from "./turn-io";

export interface TurnSetup {
  model: LanguageModelV3;
  config: AgentConfig;
  tree: DecisionTree;
  tools: AgentTool[];
  toolContext: Omit<ToolContext, "signal" | "step" | "callId">;
  /** Tripped by Stop. */
  signal: AbortSignal;
  /** The model's context window and the provider's last count (context-window.ts). */
  context: { budget: ContextBudget; meter: ContextMeter };
}

export interface TurnOutcome {
  reason: TerminationReason;
  steps: number;
  usage: Usage;
}

const WRAP_UP_REASONS: ReadonlySet<TerminationReason> = new Set(["max_iterations", "no_progress", "error_limit"]);
const WRAP_UP_MIN_MS = 5_000;

export async function runTurn(io: TurnIO, setup: TurnSetup): Promise<TurnOutcome> {
  const { tree } = setup;
  const config = tree.getConfig(setup.config);
  const clock = new TurnClock(config.timeoutSeconds * 1000);
  const signal = AbortSignal.any([setup.signal, clock.signal]);
  const tools = new Map(setup.tools.map((t) => [t.name, t]));
  const toolNames = [...tools.keys()];
  const system = render("system", { tools: toolNames }).trim();
  let state = createState(config);
  let answer: string | undefined;
  let partial = "";
  // The saved answer stopped at the model's output limit (finish reason `length`). The turn still ends
  // `completed`: the model gave its answer and another call would hit the same limit; the answer says it
  // may be incomplete. Only a stream that never said how it finished is a failure (call-model.ts).
  let outputLimited = false;

  const sync = (s: AgentState): AgentState => ({
    ...s,
    now: Date.now(),
    cancelled: s.cancelled || setup.signal.aborted,
    timedOut: s.timedOut || clock.expired,
  });

  /** One streamed model call; failures become state (cancelled, timed out, llm_error), never throws. */
  const call = async (
    plan: PhasePlan | { tools: false; instruction: string },
  ): Promise<ModelCallResult | undefined> => {
    // Durable reminders are committed to the log first, so this request and every replay include them.
    await io.beforeModelRequest();
    partial = "";
    let sentTokens: number | undefined;
    try {
      const tools = plan.tools ? toolDeclarations(setup.tools) : undefined;
      const { prompt, epoch, estimated, size } = await fitContext(tools, plan.instruction);
      // The compaction made for this request may have spent what was left of the budget: then the
      // request is not sent, and the turn ends on its token budget.
      if (tokensUsed(state) >= config.tokenBudget) return undefined;
      sentTokens = size;
      const result = await callModel({
        model: setup.model,
        prompt,
        tools,
        signal,
        deadline: clock.deadline,
        onRetry: (retry) => io.emit(retryEvent(retry)),
        onTextDelta: (delta) => {
          partial += delta;
          io.send({ type: "text_delta", step: state.step, delta });
        },
      });
      state = addUsage(state, result.usage);
      setup.context.meter.observe(epoch, estimated, result.usage.inputTokens);
      return result;
    } catch (error) {
      state = sync(state);
      // A call cut short (Stop, the time limit, a stream that broke after it began) never reports its
      // usage, yet the provider read the request and wrote what was streamed: count the estimate, so
      // the budget and the answer's meter do not say 0.
      const interrupted = state.cancelled || state.timedOut || partial !== "";
      if (sentTokens !== undefined && interrupted)
        state = addUsage(state, { inputTokens: sentTokens, outputTokens: estimateTokens(partial) });
      if (!state.cancelled && !state.timedOut)
        state = { ...state, llmError: error instanceof Error ? error.message : String(error) };
      return undefined;
    }
  };

  /**
   * The request to send now: the context built from the log, compacted first when it would pass the
   * budget's threshold. Throws when even the compacted context would not fit the window.
   */
  const fitContext = async (tools: LanguageModelV3FunctionTool[] | undefined, instruction: string | undefined) => {
    const { budget, meter } = setup.context;
    const build = () => {
      const prompt = contextPrompt(system, io.messages(), budget);
      if (instruction) prompt.push({ role: "system", content: instruction });
      const estimated = estimateRequest(prompt, tools);
      const epoch = latestCompaction(io.messages())?.seq ?? 0;
      return { prompt, epoch, estimated, size: meter.predict(epoch, estimated) };
    };
    let request = build();
    if (request.size > budget.compactAt) {
      const done = await compact({
        model: setup.model,
        system,
        tools: toolDeclarations(setup.tools),
        budget,
        log: io.messages(),
        tokensBefore: request.size,
        estimatedBefore: request.estimated,
        signal,
        deadline: clock.deadline,
        onRetry: (retry) => io.emit(retryEvent(retry)),
      });
      if (done?.usage) state = addUsage(state, done.usage);
      if (done) await io.append(done.draft);
      request = build();
    }
    if (request.size > budget.window)
      throw new Error(
        `the conversation's context (about ${request.size} tokens) does not fit the model's context window (${budget.window} tokens), even compacted`,
      );
    return request;
  };

  io.send({
    type: "agent_update",
    update_type: "agent_start",
    max_steps: config.maxIterations,
    decision_tree: tree.name,
  });
  io.emit({
    type: "turn.start",
    severity: "debug",
    source: "Turn Control",
    payload: { decision_tree: tree.name, max_steps: config.maxIterations },
  });

  let tokensAtStepStart = 0;
  steps: for (;;) {
    state = sync(state);
    const go = tree.shouldContinue(state);
    if (!go.continue) break;
    state = { ...tree.onTurnStart(state), lastStepTokens: tokensUsed(state) - tokensAtStepStart };
    tokensAtStepStart = tokensUsed(state);
    io.send({ type: "agent_update", update_type: "agent_turn_start", step: state.step });
    state = warnBudgets(state, io);
    await io.flush("turn_start");
    // The per-step cap counts every act phase of the step (a tree may have several).
    let callsThisStep = 0;

    for (const plan of tree.phases(state, toolNames)) {
      state = sync(state);
      // Mid-step, only what makes another model call pointless ends the step early.
      if (state.cancelled || state.timedOut || tokensUsed(state) >= config.tokenBudget) break;
      const result = await call(plan);
      if (!result) break steps;
      const verdict = tree.onPhaseResult(state, { plan, text: result.text, toolCallCount: result.toolCalls.length });
      state = verdict.state;
      partial = "";
      if (plan.phase === "reason")
        io.send({ type: "agent_update", update_type: "agent_reason", content: verdict.display, step: state.step });
      if (plan.phase === "observe")
        io.send({ type: "agent_update", update_type: "agent_observe", content: verdict.display, step: state.step });
      if (verdict.display.trim() && verdict.display !== verdict.answer) {
        await io.append({
          role: "agent",
          content: verdict.display,
          step: state.step,
          ...(verdict.phase ? { phase: verdict.phase } : {}),
        });
      }
      if (verdict.answer !== undefined) {
        answer = verdict.answer;
        outputLimited = result.finishReason === "length";
        break steps;
      }
      if (result.toolCalls.length) {
        const outcomes = await runToolCalls(result.toolCalls, {
          tools,
          base: {
            ...setup.toolContext,
            remaining: () => ({
              tokens: config.tokenBudget - tokensUsed(state),
              seconds: config.timeoutSeconds - elapsedMs(state, Date.now()) / 1000,
              iterations: config.maxIterations - state.step + 1,
            }),
            chargeTokens: (usage) => {
              state = addUsage(state, usage);
            },
          },
          signal,
          step: state.step,
          maxParallel: config.maxParallelTools,
          maxCalls: config.maxToolCallsPerTurn,
          callsBefore: callsThisStep,
          send: io.send,
          append: io.append,
          emit: io.emit,
          // Only waiting for the user stops the clock; tools (subagents included) spend the turn's time.
          askUser: async (question, step, s, callId) => {
            clock.pause();
            try {
              return await io.askUser(question, step, s, callId);
            } finally {
              clock.resume();
            }
          },
        });
        callsThisStep += result.toolCalls.length;
        for (const o of outcomes) {
          state = {
            ...state,
            pausedMs: state.pausedMs + o.waitedMs,
            inputTimedOut: state.inputTimedOut || !!o.inputTimedOut,
          };
          if (!o.skipped)
            state = tree.onToolResult(state, {
              tool: o.tool,
              args: o.args,
              ok: o.status === "success",
              error: o.error,
              result: o.result,
            });
          if (o.tool === DELEGATE && o.status !== "success" && signal.aborted) {
            state = { ...state, discardedSubagents: state.discardedSubagents + 1 };
          }
        }
        state = warnLoops(state, io);
        await io.flush("after_tool");
        if (state.inputTimedOut) {
          io.send({ type: "agent_update", update_type: "agent_request_input_timeout", step: state.step });
          break steps;
        }
      }
    }
  }

  state = sync(state);
  const reason: TerminationReason = answer !== undefined ? "completed" : (firstStop(state) ?? "completed");
  if (reason === "completed" && answer !== undefined) {
    await io.append({
      role: "agent",
      content: composeFinal(answer, reason, state, { outputLimited }),
      step: state.step,
      phase: "final",
      termination_reason: reason,
      usage: usageOf(state),
    });
  } else {
    let text = partial;
    if (WRAP_UP_REASONS.has(reason) && canWrapUp(state)) {
      const why =
        reason === "max_iterations"
          ? "the iteration limit is reached."
          : reason === "no_progress"
            ? "you were repeating the same action."
            : "too many tool calls failed in a row.";
      // Still under the turn's clock: a slow wrap-up is cut at the time limit, keeping what it streamed.
      const wrap = await call({ tools: false, instruction: render("wrap-up", { why }) });
      text = wrap?.text ?? partial;
      outputLimited = wrap?.finishReason === "length";
    }
    if (reason === "token_budget" || reason === "timeout") {
      io.emit({
        type: "budget.exceeded",
        severity: "critical",
        source: "Budget Monitor",
        payload: exceededPayload(reason, state),
      });
    }
    await io.append({
      role: "agent",
      content: composeFinal(text, reason, state, { outputLimited }),
      step: state.step,
      phase: "final",
      termination_reason: reason,
      usage: usageOf(state),
    });
  }
  clock.dispose();
  io.emit({
    type: "turn.end",
    severity: "info",
    source: "Turn Control",
    payload: { termination_reason: reason, steps: state.step, tokens: tokensUsed(state) },
  });
  await io.flush("turn_end");
  const usage = usageOf(state);
  if (reason === "user_cancelled") io.send({ type: "agent_update", update_type: "agent_stopped", step: state.step });
  io.send({ type: "agent_update", update_type: "agent_completion", steps: state.step, termination_reason: reason });
  io.send({ type: "response_complete", termination_reason: reason, steps: state.step, usage });
  return { reason, steps: state.step, usage };
}

function canWrapUp(s: AgentState): boolean {
  const c = s.config;
  const msLeft = c.timeoutSeconds * 1000 - elapsedMs(s, Date.now());
  return !s.cancelled && tokensUsed(s) < c.tokenBudget && msLeft > WRAP_UP_MIN_MS;
}

function exceededPayload(reason: TerminationReason, s: AgentState) {
  return reason === "token_budget"
    ? { budget: "tokens", used: tokensUsed(s), limit: s.config.tokenBudget }
    : { budget: "time", used: Math.round(elapsedMs(s) / 1000), limit: s.config.timeoutSeconds };
}

function warnBudgets(state: AgentState, io: TurnIO): AgentState {
  const due = dueWarnings(state);
  for (const w of due) {
    io.emit({
      type: "budget.warning",
      severity: "warning",
      source: "Budget Monitor",
      payload: { ...w, message: describeWarning(w) },
    });
  }
  return due.length ? { ...state, warned: [...state.warned, ...due.map((w) => w.budget)] } : state;
}

/** A retry of a refused model request, for the llm_retry subscriber: a System message at once. */
function retryEvent(retry: ModelRetry): EventDraft {
  return {
    type: "llm.retry",
    severity: "warning",
    source: "Model Provider",
    payload: {
      status: retry.status ?? null,
      attempt: retry.attempt,
      max_retries: MAX_RETRIES,
      wait_seconds: Math.round(retry.waitMs / 100) / 10,
      message: retry.message,
    },
  };
}

function warnLoops(state: AgentState, io: TurnIO): AgentState {
  const warning = loopWarning(state);
  if (!warning) return state;
  const { pattern, key } = warning;
  io.emit({
    type: "loop.detected",
    severity: "warning",
    source: "Loop Detector",
    payload: { ...pattern, message: describeLoop(pattern) },
  });
  return { ...state, loopWarnings: [...state.loopWarnings, key] };
}
