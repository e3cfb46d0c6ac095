// How a model stream ends, seen from the user's side (issue 10): a stream cut off before the model
// said it was done is an llm_error that keeps the partial text, never a completed answer; a `length`
// finish is an answer that says it hit the output limit; a stream that goes silent is ended by the
// idle timeout (OPENAI_STREAM_IDLE_SECONDS) and its request aborted.
import { env } from "cloudflare:workers";
import type { LanguageModelV3, LanguageModelV3StreamPart } from "@ai-sdk/provider";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createDemoModel } from "../../agent/demo/demo-model";
import { callModel } from "../../agent/llm/call-model";
import { llmSettings } from "../../agent/llm/config";
import { type Step, waitForModelRequests } from "../support/fake-openai-client";
import { chat, finalMessage, history, llmUrl, scenario } from "./turn-helpers";

/**
 * Sets Worker variables for the tests of one block. The env object is shared by every object of this
 * file's runtime (each test file has its own), and the tests of a file run one after another.
 */
function useVars(vars: Record<string, string>) {
  const bindings = env as unknown as Record<string, string | undefined>;
  const saved = Object.fromEntries(Object.keys(vars).map((name) => [name, bindings[name]]));
  beforeEach(() => void Object.assign(bindings, vars));
  afterEach(() => void Object.assign(bindings, saved));
}

async function turn(steps: Step[]) {
  const s = await scenario(steps);
  const { done } = await chat(s, "tell me");
  return { s, done, final: finalMessage(await history(s)) };
}

describe.each(["chat", "responses"])("a stream that ends early (%s API)", (style) => {
  useVars({ OPENAI_API_STYLE: style });

  it("is an llm_error that keeps the partial text and says the answer was cut off", async () => {
    const { done, final } = await turn([{ text: ["The plan ", "has three "], cut_off: true }]);
    expect(done.termination_reason).toBe("llm_error");
    expect(final).toMatchObject({ termination_reason: "llm_error" });
    expect(final.content.startsWith("The plan has three")).toBe(true);
    expect(final.content).toMatch(/answer was cut off/);
  });

  it("keeps an answer that hit the output limit, completed, and says it may be incomplete", async () => {
    const { done, final } = await turn([{ text: "A long answer that stops", finish_reason: "length" }]);
    expect(done.termination_reason).toBe("completed");
    expect(final.content.startsWith("A long answer that stops")).toBe(true);
    expect(final.content).toMatch(/output limit.*may be incomplete/);
  });
});

describe("a provider stream with no finish part at all", () => {
  it("fails the call as cut off, after passing on the text it had", async () => {
    const parts: LanguageModelV3StreamPart[] = [
      { type: "stream-start", warnings: [] },
      { type: "text-delta", id: "t", delta: "So far" },
    ];
    const stream = new ReadableStream<LanguageModelV3StreamPart>({
      start(controller) {
        for (const part of parts) controller.enqueue(part);
        controller.close();
      },
    });
    const model: LanguageModelV3 = { ...createDemoModel(), doStream: async () => ({ stream }) };
    const deltas: string[] = [];
    const call = callModel({
      model,
      prompt: [{ role: "user", content: [{ type: "text", text: "hi" }] }],
      signal: new AbortController().signal,
      deadline: Date.now() + 60_000,
      onTextDelta: (delta) => deltas.push(delta),
    });
    await expect(call).rejects.toThrow(/answer was cut off/);
    expect(deltas).toEqual(["So far"]);
  });
});

describe("the stream idle timeout", () => {
  useVars({ OPENAI_STREAM_IDLE_SECONDS: "0.5" });

  it.each([
    ["before the response starts", { text: "late", delay_ms: 5_000 }],
    ["after the headers", { headers_only: true }],
  ] satisfies [string, Step][])("ends a silent call %s as llm_error and aborts it", async (_, step) => {
    const { s, done, final } = await turn([step]);
    expect(done.termination_reason).toBe("llm_error");
    // Plain words: it timed out without a word (not "could not reach", not a raw abort).
    expect(final.content).toMatch(/The model call failed: \S+ did not answer within 0\.5 s\. Try again/);
    await waitForModelRequests(llmUrl, s.key, (r) => r[0]?.aborted === true);
  });

  it("ends a stream that stalls mid-answer, keeping what came", async () => {
    const { s, done, final } = await turn([{ text: ["Half ", "of it"], hang: true }]);
    expect(done.termination_reason).toBe("llm_error");
    expect(final.content.startsWith("Half of it")).toBe(true);
    expect(final.content).toMatch(/\S+ stopped sending for 0\.5 s\. Try again/);
    await waitForModelRequests(llmUrl, s.key, (r) => r[0]?.aborted === true);
  });

  it("counts silence between parts, not the length of the answer", async () => {
    const { done, final } = await turn([{ text: ["One ", "two ", "three ", "four"], chunk_delay_ms: 200 }]);
    expect(done.termination_reason).toBe("completed");
    expect(final.content).toBe("One two three four");
  });
});

describe("OPENAI_STREAM_IDLE_SECONDS", () => {
  const idleMs = (value?: string) => {
    const settings = llmSettings({ ...env, OPENAI_API_KEY: "k", OPENAI_STREAM_IDLE_SECONDS: value });
    return settings.provider === "openai" ? settings.streamIdleMs : undefined;
  };

  it("takes seconds, fractions too, and falls back on 60 s for anything that is not above zero", () => {
    expect(idleMs("90")).toBe(90_000);
    expect(idleMs(" 0.25 ")).toBe(250);
    for (const value of [undefined, "", "0", "-5", "soon", "Infinity"]) expect(idleMs(value), value).toBe(60_000);
  });
});

describe("the demo model", () => {
  it("says how it finished, so it is never taken for a cut-off stream", async () => {
    const { stream } = await createDemoModel().doStream({
      prompt: [{ role: "user", content: [{ type: "text", text: "add task water the plants" }] }],
      tools: [{ type: "function", name: "task_create", inputSchema: { type: "object" } }],
    });
    const parts = [];
    for await (const part of stream) parts.push(part);
    expect(parts.at(-1)).toMatchObject({ type: "finish", finishReason: { unified: "tool-calls", raw: "tool_calls" } });
  });
});
