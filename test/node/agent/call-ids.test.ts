// Calls are told apart by their step and position, not by the model's id alone (agent/turn/call-ids.ts):
// the real runTurn against a model that repeats a call id within an answer, gives one no id, and reuses
// it in a later step (also after a restart), and the request back to the model pairs each result with
// its own call.
import type {
  LanguageModelV3,
  LanguageModelV3CallOptions,
  LanguageModelV3Prompt,
  LanguageModelV3StreamPart,
} from "@ai-sdk/provider";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { ContextMeter, contextBudget } from "../../../agent/context/window";
import { findDecisionTree } from "../../../agent/decision-trees";
import { type AgentTool, defineTool } from "../../../agent/tools/tool";
import { CallIds } from "../../../agent/turn/call-ids";
import type { ResumePoint } from "../../../agent/turn/resume";
import { runTurn } from "../../../agent/turn/run-turn";
import { memoryLog } from "../../../bench/workers/memory-log";
import { SCRIPTED_USAGE, streamOf } from "../../../bench/workers/scripted-model";
import { DEFAULT_AGENT_CONFIG, type ToolMessage } from "../../../protocol";

type Call = { id: string; q: string; tool?: string };

/** Answers each request with the next step's calls (their ids as given), then with text; keeps every prompt. */
function repeatingModel(steps: Call[][]) {
  const prompts: LanguageModelV3Prompt[] = [];
  const model: LanguageModelV3 = {
    specificationVersion: "v3",
    provider: "test",
    modelId: "repeating",
    supportedUrls: {},
    doGenerate: () => Promise.reject(new Error("stream only")),
    async doStream(options: LanguageModelV3CallOptions) {
      const calls = steps[prompts.length] ?? [];
      prompts.push(options.prompt);
      const parts: LanguageModelV3StreamPart[] = [{ type: "stream-start", warnings: [] }];
      for (const c of calls) {
        const input = JSON.stringify({ q: c.q });
        const toolName = c.tool ?? "note";
        parts.push({ type: "tool-input-start", id: c.id, toolName });
        parts.push({ type: "tool-input-delta", id: c.id, delta: input });
        parts.push({ type: "tool-input-end", id: c.id });
        parts.push({ type: "tool-call", toolCallId: c.id, toolName, input });
      }
      if (!calls.length) parts.push({ type: "text-start", id: "t" }, { type: "text-delta", id: "t", delta: "done" });
      const unified = calls.length ? "tool-calls" : "stop";
      parts.push({ type: "finish", usage: SCRIPTED_USAGE, finishReason: { unified, raw: undefined } });
      return { stream: streamOf(parts) };
    },
  };
  return { model, prompts };
}

/** `note` writes (runs once the answer is whole); `lookup` only reads (starts while the answer streams). */
function tools(ran: string[]): AgentTool[] {
  const tool = (name: string, readOnly: boolean) =>
    defineTool({
      name,
      description: "test tool",
      args: z.object({ q: z.string() }),
      readOnly,
      execute: async ({ q }, ctx) => {
        ran.push(`${name} ${q} at step ${ctx.step}`);
        return { q };
      },
    });
  return [tool("note", false), tool("lookup", true)];
}

async function turnWith(steps: Call[][], before?: { log: ToolMessage[]; resume: ResumePoint }) {
  const { log, append, notifier } = memoryLog();
  await append({ role: "user", content: "go" });
  for (const m of before?.log ?? []) await append(m);
  const tree = findDecisionTree("default");
  if (!tree) throw new Error("default tree missing");
  const { model, prompts } = repeatingModel(steps);
  const ran: string[] = [];
  await runTurn(
    {
      messages: () => log,
      append,
      frames: { send: () => {} },
      emit: (e) => notifier.emit(e),
      flush: (p) => notifier.flush(p),
      askUser: async () => ({ type: "aborted" }),
      beforeModelRequest: async () => {},
    },
    {
      model,
      config: { ...DEFAULT_AGENT_CONFIG, maxIterations: 5 },
      tree,
      tools: tools(ran),
      toolContext: { db: undefined as unknown as D1Database, userId: "u", conversationId: "c" },
      signal: new AbortController().signal,
      context: { budget: contextBudget(100_000), meter: new ContextMeter() },
      ...(before ? { resume: before.resume } : {}),
    },
  );
  const results = log.filter((m): m is ToolMessage => m.role === "tool");
  return { ran, results, prompts };
}

/** Each call the prompt sends back (by its arguments), with the results sent under its id. */
function pairs(prompt: LanguageModelV3Prompt | undefined): [string, unknown[]][] {
  type Part = { type: string; toolCallId?: string; input?: unknown; output?: unknown };
  const parts = (prompt ?? []).flatMap((m) => (typeof m.content === "string" ? [] : (m.content as Part[])));
  return parts
    .filter((p) => p.type === "tool-call")
    .map((c) => [
      JSON.stringify(c.input),
      parts.filter((r) => r.type === "tool-result" && r.toolCallId === c.toolCallId).map((r) => r.output),
    ]);
}

describe("calls told apart by step and position", () => {
  it("gives each call of the turn an id of its own, and the model reads each result with its call", async () => {
    const { ran, results, prompts } = await turnWith([
      [
        { id: "c1", q: "a" },
        { id: "c1", q: "b" },
        { id: "", q: "c" },
      ],
      [{ id: "c1", q: "d" }],
    ]);
    expect(ran).toEqual(["note a at step 1", "note b at step 1", "note c at step 1", "note d at step 2"]);
    expect(results.map((m) => [m.call_id, m.step, m.args])).toEqual([
      ["c1", 1, { q: "a" }],
      ["c1#1.2", 1, { q: "b" }],
      ["#1.3", 1, { q: "c" }],
      ["c1#2.1", 2, { q: "d" }],
    ]);
    const value = (q: string) => [{ type: "text", value: JSON.stringify({ q }) }];
    expect(pairs(prompts.at(-1))).toEqual([
      ['{"q":"a"}', value("a")],
      ['{"q":"b"}', value("b")],
      ['{"q":"c"}', value("c")],
      ['{"q":"d"}', value("d")],
    ]);
  });

  it("runs each of two reads started early under one id once, with its own arguments", async () => {
    const { ran, results } = await turnWith([
      [
        { id: "c1", q: "x", tool: "lookup" },
        { id: "c1", q: "y", tool: "lookup" },
      ],
    ]);
    expect(ran.sort()).toEqual(["lookup x at step 1", "lookup y at step 1"]);
    expect(results.map((m) => [m.call_id, m.result])).toEqual([
      ["c1", { q: "x" }],
      ["c1#1.2", { q: "y" }],
    ]);
  });

  it("keeps a resumed turn's ids: a later call reusing one from before the restart gets its own", async () => {
    const earlier: ToolMessage = {
      seq: 0,
      id: "",
      created_at: "",
      role: "tool",
      call_id: "c1",
      tool: "note",
      args: { q: "a" },
      status: "success",
      result: { q: "a" },
      step: 1,
      duration_ms: 1,
    };
    const progress = { step: 1, input_tokens: 0, output_tokens: 0, elapsed_ms: 0, warned: [], loop_warnings: [] };
    const resume: ResumePoint = {
      progress: { ...progress, consecutive_errors: 0, discarded_subagents: 0 },
      openCalls: [{ call_id: "c1#1.2", tool: "note", args: { q: "b" }, step: 1 }],
      interruptions: 1,
    };
    const { results } = await turnWith([[{ id: "c1", q: "c" }]], { log: [earlier], resume });
    expect(results.map((m) => [m.call_id, m.step])).toEqual([
      ["c1", 1],
      ["c1#1.2", 1],
      ["c1#2.1", 2],
    ]);
  });
});

describe("CallIds", () => {
  it("numbers a call by its position in the step, its earlier phases counted", () => {
    const ids = new CallIds();
    const call = (callId: string) => ({ callId, tool: "t", args: {} });
    expect(ids.name([call("a")], 1, 0).map((c) => c.callId)).toEqual(["a"]);
    // A second act phase of step 1, after one call: its calls are the step's 2nd and 3rd.
    expect(ids.name([call("a"), call("b")], 1, 1).map((c) => c.callId)).toEqual(["a#1.2", "b"]);
    // An id taken already, even one that looks like ours, is never given twice.
    expect(ids.name([call("a#1.2"), call("a")], 2, 0).map((c) => c.callId)).toEqual(["a#1.2#2.1", "a#2.2"]);
  });
});
