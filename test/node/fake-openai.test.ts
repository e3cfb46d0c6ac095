// Proves the fake OpenAI server speaks the API the way the real AI SDK reads it (ai v6 + @ai-sdk/openai),
// so a Worker test that fails is failing on the Worker, not on the fake.
import { createOpenAI } from "@ai-sdk/openai";
import { APICallError, type LanguageModelV3StreamPart } from "@ai-sdk/provider";
import { generateText, streamText, tool } from "ai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { type FakeOpenAI, startFakeOpenAI } from "../support/fake-openai.ts";
import { marker, modelRequests, resetModel, scriptModel, waitForModelRequests } from "../support/fake-openai-client.ts";

let fake: FakeOpenAI;
beforeAll(async () => {
  fake = await startFakeOpenAI();
});
afterAll(() => fake.close());

const provider = () => createOpenAI({ baseURL: `${fake.url}/v1`, apiKey: "x" });
const weather = {
  get_weather: tool({ description: "Weather of a city", inputSchema: z.object({ city: z.string() }) }),
};

describe.each(["chat", "responses"] as const)("fake OpenAI via %s()", (style) => {
  const model = () => (style === "chat" ? provider().chat("m") : provider().responses("m"));
  const k = (name: string) => `${style}-${name}`;

  it("echoes the last user message without a script, with default usage", async () => {
    const r = streamText({ model: model(), prompt: "hello there" });
    const parts: string[] = [];
    for await (const t of r.textStream) parts.push(t);
    expect(parts.join("")).toBe("Echo: hello there");
    expect(parts.length).toBeGreaterThan(1); // really streamed
    const usage = await r.usage;
    expect(usage.inputTokens).toBeGreaterThan(0);
    expect(usage.outputTokens).toBe(Math.ceil("Echo: hello there".length / 4));
    expect(await r.finishReason).toBe("stop");
  });

  it("plays scripted steps in order, repeating the last, with scripted usage", async () => {
    await scriptModel(fake.url, k("steps"), [
      { text: ["One", " two"] },
      { text: "Last", usage: { prompt_tokens: 7, completion_tokens: 3 } },
    ]);
    const texts: string[] = [];
    for (let i = 0; i < 3; i++) {
      const r = streamText({ model: model(), system: `sys ${marker(k("steps"))}`, prompt: "go" });
      texts.push(await r.text);
      if (i === 2) expect(await r.usage).toMatchObject({ inputTokens: 7, outputTokens: 3, totalTokens: 10 });
    }
    expect(texts).toEqual(["One two", "Last", "Last"]);
    const reqs = await modelRequests(fake.url, k("steps"));
    expect(reqs).toHaveLength(3);
    expect(reqs.every((q) => q.completed && !q.aborted)).toBe(true);
  });

  it("streams tool calls whose arguments parse against the tool's schema", async () => {
    await scriptModel(fake.url, k("tools"), [
      {
        text: "Checking.",
        tool_calls: [
          { name: "get_weather", arguments: { city: "Paris" }, id: "call_1" },
          { name: "get_weather", arguments: { city: "Rome" } },
        ],
      },
    ]);
    const r = streamText({ model: model(), tools: weather, prompt: `weather? ${marker(k("tools"))}` });
    const calls = await r.toolCalls;
    expect(calls.map((c) => [c.toolName, c.input])).toEqual([
      ["get_weather", { city: "Paris" }],
      ["get_weather", { city: "Rome" }],
    ]);
    expect(calls[0]?.toolCallId).toBe("call_1");
    expect(await r.text).toBe("Checking.");
    expect(await r.finishReason).toBe("tool-calls");
    expect((await modelRequests(fake.url, k("tools")))[0]?.body.tools).toBeDefined();
  });

  it("reports finish_reason length", async () => {
    await scriptModel(fake.url, k("len"), [{ text: "cut", finish_reason: "length" }]);
    const r = streamText({ model: model(), prompt: marker(k("len")) });
    expect(await r.finishReason).toBe("length");
  });

  it("answers scripted HTTP errors with an OpenAI error body", async () => {
    await scriptModel(fake.url, k("err"), [{ error: { status: 400, message: "bad things" } }]);
    const r = generateText({ model: model(), prompt: marker(k("err")), maxRetries: 0 });
    await expect(r).rejects.toThrow(/bad things/);
  });

  it("records an abort when the client stops a hanging stream", async () => {
    await scriptModel(fake.url, k("hang"), [{ text: ["partial ", "answer"], hang: true }]);
    const ac = new AbortController();
    const r = streamText({ model: model(), prompt: marker(k("hang")), abortSignal: ac.signal });
    const seen: string[] = [];
    for await (const t of r.textStream) {
      seen.push(t);
      if (seen.join("") === "partial answer") ac.abort();
    }
    expect(seen.join("")).toBe("partial answer");
    const reqs = await waitForModelRequests(fake.url, k("hang"), (rs) => rs[0]?.aborted === true);
    expect(reqs[0]?.completed).toBe(false);
  });

  it("records an abort while the model has sent nothing yet", async () => {
    await scriptModel(fake.url, k("silent"), [{ hang: true }]);
    const ac = new AbortController();
    const r = streamText({ model: model(), prompt: marker(k("silent")), abortSignal: ac.signal });
    await waitForModelRequests(fake.url, k("silent"), (rs) => rs.length === 1);
    ac.abort();
    await expect(r.text).rejects.toThrow();
    await waitForModelRequests(fake.url, k("silent"), (rs) => rs[0]?.aborted === true);
  });

  /** The provider's own stream parts for a prompt, as the Worker's call-model.ts reads them. */
  async function parts(prompt: string, abortSignal?: AbortSignal): Promise<LanguageModelV3StreamPart[]> {
    const { stream } = await model().doStream({
      prompt: [{ role: "user", content: [{ type: "text", text: prompt }] }],
      abortSignal,
    });
    const out: LanguageModelV3StreamPart[] = [];
    for await (const part of stream) out.push(part);
    return out;
  }

  it("cuts a stream off after its text: the provider reports no finish reason", async () => {
    await scriptModel(fake.url, k("cut"), [{ text: ["Half ", "an answer"], cut_off: true }]);
    const seen = await parts(marker(k("cut")));
    const text = seen.flatMap((p) => (p.type === "text-delta" ? [p.delta] : [])).join("");
    expect(text).toBe("Half an answer");
    // What @ai-sdk/openai's flush reports for a stream that never said how it finished.
    expect(seen.at(-1)).toMatchObject({ type: "finish", finishReason: { unified: "other", raw: undefined } });
    const [request] = await modelRequests(fake.url, k("cut"));
    expect(request?.completed).toBe(true);
  });

  it("sends only the headers of a stream with headers_only, then nothing", async () => {
    await scriptModel(fake.url, k("headers"), [{ headers_only: true }]);
    const ac = new AbortController();
    // The provider resolves doStream only once output arrives, so it stays pending until the abort.
    const started = parts(marker(k("headers")), ac.signal).then(
      () => "a stream",
      () => "aborted",
    );
    await waitForModelRequests(fake.url, k("headers"), (rs) => rs.length === 1);
    const early = await Promise.race([started, new Promise((r) => setTimeout(r, 300, "nothing yet"))]);
    expect(early).toBe("nothing yet");
    ac.abort();
    expect(await started).toBe("aborted");
    await waitForModelRequests(fake.url, k("headers"), (rs) => rs[0]?.aborted === true);
  });

  it("sends Retry-After and retry-after-ms with a scripted error", async () => {
    await scriptModel(fake.url, k("429"), [
      { error: { status: 429, message: "slow down", retry_after: "3", retry_after_ms: 2500 } },
    ]);
    const error = await parts(marker(k("429"))).catch((e: unknown) => e);
    expect(APICallError.isInstance(error)).toBe(true);
    if (!APICallError.isInstance(error)) return;
    expect(error).toMatchObject({ statusCode: 429, isRetryable: true, message: "slow down" });
    expect(error.responseHeaders).toMatchObject({ "retry-after": "3", "retry-after-ms": "2500" });
  });

  it("supports non-streaming requests", async () => {
    await scriptModel(fake.url, k("plain"), [
      { text: "plain reply", tool_calls: [{ name: "get_weather", arguments: { city: "Oslo" } }] },
    ]);
    const r = await generateText({ model: model(), tools: weather, prompt: marker(k("plain")) });
    expect(r.text).toBe("plain reply");
    expect(r.toolCalls[0]?.input).toEqual({ city: "Oslo" });
    expect(r.usage.outputTokens).toBeGreaterThan(0);
  });
});

describe("fake OpenAI control routes", () => {
  it("sends usage only when asked, then [DONE]", async () => {
    const res = await fetch(`${fake.url}/v1/chat/completions`, {
      method: "POST",
      body: JSON.stringify({ model: "m", stream: true, messages: [{ role: "user", content: "hi" }] }),
    });
    expect(res.headers.get("content-type")).toMatch(/text\/event-stream/);
    const text = await res.text();
    expect(text).not.toMatch(/"usage"/);
    expect(text.trimEnd().endsWith("data: [DONE]")).toBe(true);
  });

  it("answers 400 with an OpenAI error on invalid JSON and stays up", async () => {
    const res = await fetch(`${fake.url}/v1/chat/completions`, { method: "POST", body: "{nope" });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: { message: expect.any(String), type: "invalid_request_error" } });
    expect((await fetch(`${fake.url}/__script`, { method: "POST", body: "[]" })).status).toBe(400);
    expect((await fetch(`${fake.url}/nope`)).status).toBe(404);
  });

  it("resets one key or everything", async () => {
    await scriptModel(fake.url, "r1", [{ text: "x" }]);
    await generateText({ model: provider().chat("m"), prompt: marker("r1") });
    expect(await modelRequests(fake.url, "r1")).toHaveLength(1);
    await resetModel(fake.url, "r1");
    expect(await modelRequests(fake.url, "r1")).toHaveLength(0);
    await resetModel(fake.url);
    const all = (await (await fetch(`${fake.url}/__requests`)).json()) as { requests: unknown[] };
    expect(all.requests).toHaveLength(0);
  });
});
