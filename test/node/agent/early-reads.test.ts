// Read-only tool calls start while the model's answer is still streaming (agent/turn/early-reads.ts):
// the real runTurn against a model whose stream pauses after a call's arguments, before its finish.
import type { LanguageModelV3, LanguageModelV3StreamPart } from "@ai-sdk/provider";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { ContextMeter, contextBudget } from "../../../agent/context/window";
import { findDecisionTree } from "../../../agent/decision-trees";
import { BUILTIN_TOOLS } from "../../../agent/tools";
import { delegateTool } from "../../../agent/tools/delegate";
import { type AgentTool, defineTool } from "../../../agent/tools/tool";
import { runTurn } from "../../../agent/turn/run-turn";
import { memoryLog } from "../../../bench/workers/memory-log";
import { SCRIPTED_USAGE } from "../../../bench/workers/scripted-model";
import { DEFAULT_AGENT_CONFIG, type Message } from "../../../protocol";

/**
 * Step 1 streams one call of `tool` (its arguments as `streamed`, its tool-call part as `final`) and
 * holds its finish until `release()` resolves; step 2 answers.
 */
function pausingModel(tool: string, streamed: string, final: string, release: () => Promise<void>, trace: string[]) {
  let calls = 0;
  const model: LanguageModelV3 = {
    specificationVersion: "v3",
    provider: "test",
    modelId: "pausing",
    supportedUrls: {},
    doGenerate: () => Promise.reject(new Error("stream only")),
    async doStream() {
      const first = calls++ === 0;
      async function* parts(): AsyncGenerator<LanguageModelV3StreamPart> {
        yield { type: "stream-start", warnings: [] };
        if (!first) {
          yield { type: "text-start", id: "t" };
          yield { type: "text-delta", id: "t", delta: "done" };
          yield { type: "text-end", id: "t" };
          yield { type: "finish", usage: SCRIPTED_USAGE, finishReason: { unified: "stop", raw: "stop" } };
          return;
        }
        yield { type: "tool-input-start", id: "c1", toolName: tool };
        yield { type: "tool-input-delta", id: "c1", delta: streamed.slice(0, 5) };
        yield { type: "tool-input-delta", id: "c1", delta: streamed.slice(5) };
        await release();
        trace.push("stream finished");
        yield { type: "tool-input-end", id: "c1" };
        yield { type: "tool-call", toolCallId: "c1", toolName: tool, input: final };
        yield { type: "finish", usage: SCRIPTED_USAGE, finishReason: { unified: "tool-calls", raw: "tool_calls" } };
      }
      const iterator = parts();
      return {
        stream: new ReadableStream<LanguageModelV3StreamPart>({
          async pull(controller) {
            const next = await iterator.next();
            if (next.done) controller.close();
            else controller.enqueue(next.value);
          },
        }),
      };
    },
  };
  return model;
}

function lookup(readOnly: boolean, trace: string[]): AgentTool {
  return defineTool({
    name: readOnly ? "lookup" : "record",
    description: "test tool",
    args: z.object({ q: z.string() }),
    readOnly,
    execute: async ({ q }) => {
      trace.push(`ran ${q}`);
      return { q };
    },
  });
}

async function turnWith(readOnly: boolean, streamed: string, final: string) {
  const trace: string[] = [];
  const tool = lookup(readOnly, trace);
  // The stream goes on once the tool ran, or after 300 ms when nothing starts it early.
  const release = async () => {
    for (let i = 0; i < 30 && !trace.some((t) => t.startsWith("ran")); i++) await new Promise((r) => setTimeout(r, 10));
  };
  const { log, append, notifier } = memoryLog();
  await append({ role: "user", content: "look it up" });
  const tree = findDecisionTree("default");
  if (!tree) throw new Error("default tree missing");
  const frames: string[] = [];
  const outcome = await runTurn(
    {
      messages: () => log,
      append,
      frames: { send: (f) => frames.push(f.type === "tool_start" ? `tool_start after ${trace.join(", ")}` : f.type) },
      emit: (e) => notifier.emit(e),
      flush: (p) => notifier.flush(p),
      askUser: async () => ({ type: "aborted" }),
      beforeModelRequest: async () => {},
    },
    {
      model: pausingModel(tool.name, streamed, final, release, trace),
      config: { ...DEFAULT_AGENT_CONFIG, maxIterations: 3 },
      tree,
      tools: [tool],
      toolContext: { db: undefined as unknown as D1Database, userId: "u", conversationId: "c" },
      signal: new AbortController().signal,
      context: { budget: contextBudget(100_000), meter: new ContextMeter() },
    },
  );
  const result = log.find((m): m is Extract<Message, { role: "tool" }> => m.role === "tool");
  return { trace, frames, outcome, result };
}

describe("read-only tool calls start while the model still streams", () => {
  it("runs a read-only call once, before the stream ends, and reports it where it always did", async () => {
    const { trace, frames, outcome, result } = await turnWith(true, '{"q":"x"}', '{"q":"x"}');
    expect(outcome.reason).toBe("completed");
    expect(trace).toEqual(["ran x", "stream finished"]);
    expect(result).toMatchObject({ status: "success", result: { q: "x" } });
    // tool_start still comes once the model call is over.
    expect(frames.find((f) => f.startsWith("tool_start"))).toBe("tool_start after ran x, stream finished");
  });

  it("waits for the whole answer before running a tool that writes", async () => {
    const { trace, result } = await turnWith(false, '{"q":"x"}', '{"q":"x"}');
    expect(trace).toEqual(["stream finished", "ran x"]);
    expect(result).toMatchObject({ status: "success", result: { q: "x" } });
  });

  it("runs the call again with the arguments the model settled on when they differ from the early ones", async () => {
    const { trace, result } = await turnWith(true, '{"q":"x"}', '{"q":"y"}');
    expect(trace).toEqual(["ran x", "stream finished", "ran y"]);
    expect(result).toMatchObject({ status: "success", result: { q: "y" } });
  });
});

describe("which built-in tools only read", () => {
  it("is exactly the ones that search, read and list (files and the web too): a tool that writes is never run early or left out of the marker", () => {
    expect(BUILTIN_TOOLS.filter((t) => t.readOnly).map((t) => t.name)).toEqual([
      "vault_search",
      "vault_read",
      "vault_list",
      "task_list",
      "file_read",
      "file_search",
      "web_search",
      "web_fetch",
    ]);
    expect(delegateTool.readOnly).toBeFalsy();
  });
});
