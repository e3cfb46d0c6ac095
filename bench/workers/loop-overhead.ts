// Loop overhead per step, model time excluded: the real runTurn (context building, tool execution,
// stop conditions, warnings, notifications, frames) against a zero-latency scripted model and an
// in-memory log. Bundled by bench/run.ts with esbuild and run in Node (V8, as workerd).
import { z } from "zod";
import { ContextMeter, contextBudget } from "../../agent/context/window";
import { findDecisionTree } from "../../agent/decision-trees";
import { DEFAULT_CONTEXT_WINDOW } from "../../agent/llm/config";
import { defineTool } from "../../agent/tools/tool";
import { runTurn } from "../../agent/turn/run-turn";
import { DEFAULT_AGENT_CONFIG } from "../../protocol";
import { memoryLog } from "./memory-log";
import { scriptedModel } from "./scripted-model";

const noop = defineTool({
  name: "noop",
  description: "does nothing",
  args: z.object({ i: z.number() }),
  execute: async ({ i }) => ({ i }),
});

/** `reasoning`: reasoning deltas each model call streams before its text or tool call. */
export async function measureTurn(
  steps: number,
  { reasoning = 0 } = {},
): Promise<{ perStepMs: number[]; totalMs: number }> {
  const { log, append, notifier } = memoryLog();
  await append({ role: "user", content: "benchmark the loop" });
  const stepStarts: number[] = [];
  const tree = findDecisionTree("default");
  if (!tree) throw new Error("default tree missing");
  const started = performance.now();
  const outcome = await runTurn(
    {
      messages: () => log,
      append,
      frames: {
        send: (frame) => {
          if (frame.type === "agent_update" && frame.update_type === "agent_turn_start")
            stepStarts.push(performance.now());
        },
      },
      emit: (e) => notifier.emit(e),
      flush: (p) => notifier.flush(p),
      askUser: async () => ({ type: "aborted" }),
      beforeModelRequest: async () => {},
    },
    {
      model: scriptedModel((i) => (i < steps - 1 ? { toolCall: { name: "noop", args: { i } } } : { text: "done" }), {
        reasoning,
      }),
      config: { ...DEFAULT_AGENT_CONFIG, maxIterations: steps, tokenBudget: 1e9, timeoutSeconds: 3600 },
      tree,
      tools: [noop],
      toolContext: { db: undefined as unknown as D1Database, userId: "bench", conversationId: "bench" },
      signal: new AbortController().signal,
      context: { budget: contextBudget(DEFAULT_CONTEXT_WINDOW), meter: new ContextMeter() },
    },
  );
  const totalMs = performance.now() - started;
  if (outcome.reason !== "completed" || outcome.steps !== steps)
    throw new Error(`bench turn ended early: ${JSON.stringify(outcome)}`);
  const perStepMs = stepStarts.slice(1).map((t, i) => t - (stepStarts[i] ?? t));
  return { perStepMs, totalMs };
}
