// Plays a RunScript through the real agent loop (runTurn) inside workerd: the real decision trees, tool
// executor, built-in tools on real D1, notifier and subscribers, context builder and stop conditions.
// Only the outside world is scripted: the model (a LanguageModelV3 that answers from the script), tool
// latency and faults, the subagent a delegate call would start, the user answering questions, and Stop.
// Time is virtual (vitest's fake clock): a model "taking" 8 s advances the clock, so a turn with a
// 600 s limit runs in milliseconds and the limits fire exactly as they would.

import { env } from "cloudflare:workers";
import type { LanguageModelV3, LanguageModelV3CallOptions, LanguageModelV3StreamPart } from "@ai-sdk/provider";
import { APICallError } from "@ai-sdk/provider";
import { type ContextBudget, ContextMeter, contextBudget } from "../../../agent/context/window";
import { baseTree } from "../../../agent/decision-trees/base-tree";
import type { DecisionTree, PhasePlan } from "../../../agent/decision-trees/decision-tree";
import { findDecisionTree } from "../../../agent/decision-trees/index";
import type { EventDraft } from "../../../agent/events";
import { DEFAULT_CONTEXT_WINDOW } from "../../../agent/llm/config";
import { render } from "../../../agent/prompts/prompts.generated";
import { BUILTIN_TOOLS } from "../../../agent/tools";
import { delegateTool } from "../../../agent/tools/delegate";
import type { InputOutcome } from "../../../agent/tools/request-input";
import { type AgentTool, type SubagentHost, ToolError } from "../../../agent/tools/tool";
import { runTurn, type TurnOutcome } from "../../../agent/turn/run-turn";
import { memoryLog } from "../../../bench/workers/memory-log";
import { streamOf } from "../../../bench/workers/scripted-model";
import { shardDb, shardForKey } from "../../../d1/shards";
import { childLimits } from "../../../durable-objects/conversation/turn/subagents";
import type { Message, ServerFrame } from "../../../protocol";
import type { Reply, RunScript, ToolCallSpec, TurnScript } from "./script";
import { type VirtualClock, withVirtualTime } from "./virtual-time";

/**
 * How far past a limit or a Stop a turn may end, in virtual time. The clock only moves when the
 * script says time passes, so a loop that stops at once ends within the driver's small steps past
 * the deadline. Seed 001 SC-004 allows 5 s; the real stop latency is measured by `npm run bench`.
 */
export const STOP_SLACK_MS = 50;
const OFFERED: readonly AgentTool[] = [...BUILTIN_TOOLS, delegateTool];
const FINAL: Reply = { kind: "text", text: "Here is what I found.", latencyMs: 0, usage: [50, 10] };

export interface RequestRecord {
  /** How many log messages existed when the request was built. */
  logLength: number;
  prompt: LanguageModelV3CallOptions["prompt"];
  bytes: string;
  tools: string[];
  /** A compaction's summary call (no tool may be called): built from part of the log, not replayed. */
  compaction: boolean;
  /** Tokens the turn had spent (as far as the script knows) when the request went out. */
  spentBefore: number;
  step: number;
}

export interface TurnRecord {
  script: TurnScript;
  outcome: TurnOutcome;
  frames: ServerFrame[];
  events: (EventDraft & { at: number; spent: number; step: number })[];
  requests: RequestRecord[];
  /**
   * Tokens charged, in the order they were charged: completed model calls, and subagents with the
   * budget they were given (a subagent may pass its own budget by the call that crossed it).
   */
  charges: { tokens: number; given?: number }[];
  startedAt: number;
  endedAt: number;
  pausedMs: number;
  stoppedAt?: number;
  /** Log index range [from, to) this turn appended, the user's message first. */
  logFrom: number;
  logTo: number;
  answers: string[];
  /** Tool calls executing at once, at most; and per step, how many actually ran. */
  maxConcurrent: number;
  ranPerStep: Map<number, number>;
  /** Spent tokens and active (unpaused) virtual milliseconds at each step start. */
  stepStarts: { step: number; spent: number; active: number }[];
}

export interface RunRecord {
  script: RunScript;
  budget: ContextBudget;
  system: string;
  log: Message[];
  turns: TurnRecord[];
}

/** A tree built from the script: each step runs the given phases; plain phases may end the turn. */
function randomTree(phases: ("reason" | "act" | "observe")[][]): DecisionTree {
  return {
    ...baseTree,
    name: "random",
    description: "generated",
    phases: (state) =>
      (phases[(state.step - 1) % phases.length] ?? ["act"]).map(
        (phase): PhasePlan => ({ phase, tools: phase === "act", ...(phase === "act" ? {} : { instruction: phase }) }),
      ),
    onPhaseResult(state, result) {
      const ends = result.plan.phase === "act" ? result.toolCallCount === 0 : /final_answer/.test(result.text);
      if (!ends || !result.text.trim()) return { state, display: result.text };
      return { state: { ...state, finished: true }, display: result.text, answer: result.text };
    },
  };
}

function treeFor(script: RunScript): DecisionTree {
  if (script.tree.name === "random") return randomTree(script.tree.phases);
  const tree = findDecisionTree(script.tree.name);
  if (!tree) throw new Error(`no tree ${script.tree.name}`);
  return tree;
}

export const playRun = (script: RunScript): Promise<RunRecord> => withVirtualTime((clock) => play(script, clock));

async function play(script: RunScript, clock: VirtualClock): Promise<RunRecord> {
  const userId = crypto.randomUUID();
  // The run's user lives in one shard, as an account does (d1/shards.ts); its tools read and write there.
  const db = shardDb(env, shardForKey(env, userId));
  await db
    .prepare("INSERT INTO users (id, username, password_hash) VALUES (?, ?, 'x')")
    .bind(userId, `prop_${userId}`)
    .run();
  // The log as the object keeps it, with the notifier it attaches (every subscriber on).
  const { log, append, notifier } = memoryLog();
  const tree = treeFor(script);
  const config = script.config;
  const system = render("system", { tools: OFFERED.map((t) => t.name) }).trim();
  const budget = contextBudget(script.contextWindow ?? DEFAULT_CONTEXT_WINDOW);
  const record: RunRecord = { script, budget, system, log, turns: [] };

  // One meter per conversation, as the object keeps one: it learns from the provider's counts.
  const meter = new ContextMeter();
  let callIds = 0;
  for (const turnScript of script.turns) {
    const abort = new AbortController();
    const replies = [...turnScript.replies];
    const specs = new Map<string, ToolCallSpec>();
    let modelCalls = 0;
    let toolCalls = 0;
    let questions = 0;
    let delegates = 0;
    let running = 0;
    let step = 0;
    const stopNow = () => {
      if (abort.signal.aborted) return;
      turn.stoppedAt = Date.now();
      abort.abort(new DOMException("stopped", "AbortError"));
    };
    const stopAt = (kind: "model" | "tool" | "input", index: number) =>
      turnScript.stop?.at === kind && turnScript.stop.index === index
        ? { afterMs: turnScript.stop.afterMs, act: stopNow }
        : undefined;
    const spent = () => turn.charges.reduce((sum, c) => sum + c.tokens, 0);
    // The turn's deadline, which no jump of the clock may pass; none while the turn's clock is paused.
    let asking = 0;
    clock.horizon = () =>
      asking > 0 ? Number.POSITIVE_INFINITY : turn.startedAt + config.timeoutSeconds * 1000 + turn.pausedMs;

    await append({ role: "user", content: turnScript.user });
    const turn: TurnRecord = {
      script: turnScript,
      outcome: undefined as unknown as TurnOutcome,
      frames: [],
      events: [],
      requests: [],
      charges: [],
      startedAt: Date.now(),
      endedAt: 0,
      pausedMs: 0,
      logFrom: log.length - 1,
      logTo: 0,
      answers: [],
      maxConcurrent: 0,
      ranPerStep: new Map(),
      stepStarts: [],
    };
    record.turns.push(turn);

    const model: LanguageModelV3 = {
      specificationVersion: "v3",
      provider: "property",
      modelId: "scripted",
      supportedUrls: {},
      doGenerate: () => Promise.reject(new Error("stream only")),
      async doStream(options) {
        const index = modelCalls++;
        const offered = (options.tools ?? []).map((t) => t.name);
        const previous = turn.requests.at(-1);
        turn.requests.push({
          // A retry sends the very request that was refused, built when the log was shorter.
          logLength: previous?.prompt === options.prompt ? previous.logLength : log.length,
          prompt: options.prompt,
          bytes: JSON.stringify(options.prompt),
          tools: offered,
          compaction: options.toolChoice?.type === "none",
          spentBefore: spent(),
          step,
        });
        let reply = replies.shift() ?? FINAL;
        // A model offered no tools, or told not to call any, answers in text.
        if (reply.kind === "tools" && (!offered.length || options.toolChoice?.type === "none"))
          reply = { ...reply, kind: "text", text: reply.text || "Noted." };
        const signal = options.abortSignal ?? new AbortController().signal;
        const latency = reply.kind === "text" || reply.kind === "tools" ? reply.latencyMs : 0;
        await clock.spend(latency, signal, stopAt("model", index));
        if (reply.kind === "refuse") {
          throw new APICallError({
            message: reply.status === 400 ? "Bad request: the prompt is malformed" : "Server busy",
            url: "https://model.test/v1/chat/completions",
            requestBodyValues: {},
            statusCode: reply.status,
            isRetryable: reply.status !== 400,
            responseHeaders: {},
          });
        }
        const parts: LanguageModelV3StreamPart[] = [{ type: "stream-start", warnings: [] }];
        const text = reply.text;
        if (text) parts.push({ type: "text-start", id: "t" }, { type: "text-delta", id: "t", delta: text });
        if (reply.kind === "break") return { stream: streamOf(parts, new Error("connection reset by peer")) };
        if (text) parts.push({ type: "text-end", id: "t" });
        if (reply.kind === "tools") {
          for (const call of reply.calls) {
            const id = `call_${++callIds}`;
            specs.set(id, call);
            parts.push({
              type: "tool-call",
              toolCallId: id,
              toolName: call.name,
              input: call.raw ?? JSON.stringify(call.args),
            });
          }
        }
        const [input, output] = reply.usage;
        turn.charges.push({ tokens: input + output });
        parts.push({
          type: "finish",
          usage: {
            inputTokens: { total: input, noCache: input, cacheRead: undefined, cacheWrite: undefined },
            outputTokens: { total: output, text: output, reasoning: undefined },
          },
          finishReason: {
            unified: reply.kind === "tools" ? "tool-calls" : reply.kind === "text" && reply.finish ? "length" : "stop",
            raw: undefined,
          },
        });
        return { stream: streamOf(parts) };
      },
    };

    const subagents: SubagentHost = {
      async delegate(request, ctx) {
        const limits = childLimits(request, ctx);
        const share = (turnScript.subagentSpend[delegates++] ?? 50) / 100;
        try {
          await clock.sleep(3000, ctx.signal);
        } catch {
          throw new ToolError("Cancelled: the subagent was stopped before it finished.");
        }
        const used = Math.round(limits.tokenBudget * share);
        ctx.chargeTokens?.({ inputTokens: used, outputTokens: 0 });
        turn.charges.push({ tokens: used, given: limits.tokenBudget });
        return {
          conversation_id: "child",
          pod_name: "subagent-1",
          answer: "The subagent's answer.",
          termination_reason: share >= 1 ? "token_budget" : "completed",
          steps: 1,
          usage: { input_tokens: used, output_tokens: 0, total_tokens: used },
        };
      },
      async reattach() {
        throw new ToolError("no restart in a scripted run");
      },
    };

    const tools: AgentTool[] = OFFERED.map((tool) => ({
      ...tool,
      async execute(args, ctx) {
        const spec = specs.get(ctx.callId);
        const index = toolCalls++;
        // A call counts as running until it returns or its signal trips: then the executor has let go
        // of it (a tool that is slow to notice its signal no longer holds a slot).
        let released = false;
        const release = () => {
          if (!released) running--;
          released = true;
        };
        ctx.signal.addEventListener("abort", release, { once: true });
        running++;
        turn.maxConcurrent = Math.max(turn.maxConcurrent, running);
        turn.ranPerStep.set(ctx.step, (turn.ranPerStep.get(ctx.step) ?? 0) + 1);
        try {
          const ms = spec?.fault === "hang" ? 10_000_000 : (spec?.latencyMs ?? 0);
          await clock.spend(ms, ctx.signal, stopAt("tool", index));
          if (spec?.fault === "throw") throw new Error("the disk is on fire");
          return await tool.execute(args, ctx);
        } finally {
          release();
        }
      },
    }));

    const askUser = async (_q: string, _step: number, signal: AbortSignal): Promise<InputOutcome> => {
      const index = questions++;
      const answer = turnScript.answers[index] ?? { kind: "timeout" as const };
      const asked = Date.now();
      asking++;
      try {
        if (answer.kind === "timeout") {
          await clock.spend(config.requestInputTimeoutSeconds * 1000, signal, stopAt("input", index));
          return { type: "timeout" };
        }
        await clock.spend(answer.afterMs, signal, stopAt("input", index));
        turn.answers.push(answer.text);
        return { type: "answer", content: answer.text };
      } catch {
        return { type: "aborted" };
      } finally {
        asking--;
        turn.pausedMs += Date.now() - asked;
      }
    };

    turn.outcome = await runTurn(
      {
        messages: () => log,
        append,
        frames: {
          send: (frame) => {
            turn.frames.push(frame);
            if (frame.type === "agent_update" && frame.update_type === "agent_turn_start") {
              step = frame.step;
              turn.stepStarts.push({ step, spent: spent(), active: Date.now() - turn.startedAt - turn.pausedMs });
            }
          },
        },
        emit: (event) => {
          turn.events.push({ ...event, at: Date.now(), spent: spent(), step });
          notifier.emit(event);
          // A retry waits on a timer of its own: a sleeper at the same moment has the clock go there.
          if (event.type === "llm.retry") {
            // wait_seconds is rounded to a tenth: sleep past the wait by more than the rounding.
            const wait = Number((event.payload as { wait_seconds: number }).wait_seconds) * 1000 + 100;
            void clock.sleep(wait);
          }
        },
        flush: (point) => notifier.flush(point),
        askUser,
        beforeModelRequest: async () => {},
      },
      {
        model,
        config,
        tree,
        tools,
        toolContext: { db, userId, conversationId: "property", subagents },
        signal: abort.signal,
        context: { budget, meter },
      },
    );
    turn.endedAt = Date.now();
    turn.logTo = log.length;
  }
  return record;
}
