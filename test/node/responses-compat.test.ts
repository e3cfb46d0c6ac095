// The Responses API against llama.cpp's llama-server (agent/llm/responses-compat.ts): streams recorded
// from the real server (test/fixtures/llama-server-responses/) go through @ai-sdk/openai's own
// Responses model over a fake fetch, with and without the wrapper. Without it every event fails the
// provider's validation and a replayed assistant message is refused (400 "Cannot determine type").
import { readFileSync } from "node:fs";
import { createOpenAI } from "@ai-sdk/openai";
import type { LanguageModelV3, LanguageModelV3Prompt, LanguageModelV3StreamPart } from "@ai-sdk/provider";
import { describe, expect, it } from "vitest";
import { responsesCompatFetch } from "../../agent/llm/responses-compat";

const recorded = (name: string) =>
  readFileSync(new URL(`../fixtures/llama-server-responses/${name}.sse`, import.meta.url), "utf8");

interface Sent {
  url: string;
  body: string;
}

/** A server that answers every request with `sse`, cut into `piece`-byte chunks, and keeps what was sent. */
function fakeServer(sse: string, piece = 64) {
  const sent: Sent[] = [];
  const serve = (async (input: RequestInfo | URL, init?: RequestInit) => {
    sent.push({ url: String(input), body: String(init?.body ?? "") });
    const bytes = new TextEncoder().encode(sse);
    let at = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (at >= bytes.length) return controller.close();
        controller.enqueue(bytes.slice(at, at + piece));
        at += piece;
      },
    });
    return new Response(body, { headers: { "content-type": "text/event-stream" } });
  }) as typeof globalThis.fetch;
  return { fetch: serve, sent };
}

const weatherTool = {
  type: "function" as const,
  name: "get_weather",
  description: "Weather of a city",
  inputSchema: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
};

const ask = (text: string): LanguageModelV3Prompt => [{ role: "user", content: [{ type: "text", text }] }];

async function stream(
  model: LanguageModelV3,
  prompt: LanguageModelV3Prompt,
  more: { tools?: boolean; cap?: number } = {},
) {
  const { stream } = await model.doStream({
    prompt,
    ...(more.tools ? { tools: [weatherTool], toolChoice: { type: "auto" as const } } : {}),
    ...(more.cap ? { maxOutputTokens: more.cap } : {}),
  });
  const parts: LanguageModelV3StreamPart[] = [];
  for await (const part of stream) parts.push(part);
  const of = <T extends LanguageModelV3StreamPart["type"]>(type: T) =>
    parts.filter((p): p is Extract<LanguageModelV3StreamPart, { type: T }> => p.type === type);
  return {
    parts,
    text: of("text-delta").map((p) => p.delta),
    reasoning: of("reasoning-delta").map((p) => p.delta),
    errors: of("error"),
    finish: of("finish")[0],
    toolCalls: of("tool-call"),
    order: parts.map((p) => p.type).filter((t) => t.startsWith("reasoning-") || t === "text-delta"),
  };
}

const compat = (sse: string, piece?: number) => {
  const server = fakeServer(sse, piece);
  const model = createOpenAI({
    apiKey: "none",
    baseURL: "http://127.0.0.1:9/v1",
    fetch: responsesCompatFetch(server.fetch),
  });
  return { model: model.responses("tiny"), sent: server.sent };
};

describe("@ai-sdk/openai's Responses model over llama-server, through responsesCompatFetch", () => {
  it("streams the text and the reasoning (ended before the text), with usage, cached tokens and the finish", async () => {
    const r = await stream(compat(recorded("hello")).model, ask("hello: hi"));
    expect(r.errors).toEqual([]);
    expect(r.text.length).toBeGreaterThan(1);
    expect(r.text.join("")).toBe("Hello! I am the Oracle test model.");
    expect(r.reasoning.length).toBeGreaterThan(1);
    expect(r.reasoning.join("")).toBe("The user is greeting me.\n");
    // reasoning-start, its deltas and reasoning-end, all before the first word of the answer.
    const firstText = r.order.indexOf("text-delta");
    expect(r.order.slice(0, firstText)).toEqual([
      "reasoning-start",
      ...r.reasoning.map(() => "reasoning-delta"),
      "reasoning-end",
    ]);
    expect(r.order.slice(firstText).every((t) => t === "text-delta")).toBe(true);
    expect(r.finish?.finishReason.unified).toBe("stop");
    expect(r.finish?.usage.inputTokens).toMatchObject({ total: 11, cacheRead: 10 });
    expect(r.finish?.usage.outputTokens.total).toBe(20);
  });

  it("streams a tool call with its arguments and finishes for tool calls", async () => {
    const r = await stream(compat(recorded("tool")).model, ask("tool: what is the weather"), { tools: true });
    expect(r.errors).toEqual([]);
    expect(r.toolCalls).toHaveLength(1);
    expect(r.toolCalls[0]).toMatchObject({ toolName: "get_weather", toolCallId: expect.stringMatching(/^call_/) });
    expect(JSON.parse(r.toolCalls[0]?.input ?? "")).toEqual({ city: "test" });
    expect(r.parts.filter((p) => p.type === "tool-input-delta").length).toBeGreaterThan(1);
    expect(r.reasoning.join("")).toBe("I will call a tool.\n");
    expect(r.finish?.finishReason.unified).toBe("tool-calls");
    expect(r.finish?.usage.inputTokens).toMatchObject({ total: 151, cacheRead: 150 });
  });

  it("says an answer that used the whole output cap was cut (the server itself does not)", async () => {
    const r = await stream(compat(recorded("capped")).model, ask("story: go"), { cap: 12 });
    expect(r.errors).toEqual([]);
    expect(r.text.join("")).toBe("Once upon");
    expect(r.finish?.finishReason.unified).toBe("length");
  });

  it("reads events split anywhere, with CRLF line ends, one byte at a time", async () => {
    const whole = await stream(compat(recorded("hello")).model, ask("hello: hi"));
    const crlf = recorded("hello").replace(/\n/g, "\r\n");
    const split = await stream(compat(crlf, 1).model, ask("hello: hi"));
    expect(split.errors).toEqual([]);
    expect(split.text).toEqual(whole.text);
    expect(split.reasoning).toEqual(whole.reasoning);
    expect(split.finish?.usage).toEqual(whole.finish?.usage);
  });

  it("sends a replayed assistant message as type message; the reasoning part is dropped by the provider", async () => {
    const { model, sent } = compat(recorded("hello"));
    const prompt: LanguageModelV3Prompt = [
      { role: "system", content: "You are the Oracle." },
      ...ask("tool: what is the weather"),
      {
        role: "assistant",
        content: [
          { type: "reasoning", text: "I will call a tool.\n" },
          { type: "text", text: "Checking." },
          { type: "tool-call", toolCallId: "call_1", toolName: "get_weather", input: '{"city":"test"}' },
        ],
      },
      {
        role: "tool",
        content: [
          {
            type: "tool-result",
            toolCallId: "call_1",
            toolName: "get_weather",
            output: { type: "text", value: "sunny" },
          },
        ],
      },
      {
        role: "assistant",
        content: [
          { type: "reasoning", text: "The tool answered.\n" },
          { type: "text", text: "The tool returned a result. Done." },
        ],
      },
      ...ask("hello: hi"),
    ];
    const r = await stream(model, prompt, { tools: true });
    expect(r.errors).toEqual([]);
    const input = JSON.parse(sent[0]?.body ?? "{}").input as Record<string, unknown>[];
    expect(input.map((item) => [item.type, item.role])).toEqual([
      ["message", "system"],
      ["message", "user"],
      ["message", "assistant"],
      ["function_call", undefined],
      ["function_call_output", undefined],
      ["message", "assistant"],
      ["message", "user"],
    ]);
    expect(input[2]).toEqual({
      type: "message",
      role: "assistant",
      content: [{ type: "output_text", text: "Checking." }],
    });
    expect(sent[0]?.body).not.toContain("reasoning");
  });

  it("leaves other requests and bodies that need nothing byte for byte", async () => {
    const seen: { input: RequestInfo | URL; init?: RequestInit }[] = [];
    const reply = new Response('{"ok":true}', { headers: { "content-type": "application/json" } });
    const inner = (async (input: RequestInfo | URL, init?: RequestInit) => {
      seen.push({ input, init });
      return reply;
    }) as typeof fetch;
    const wrapped = responsesCompatFetch(inner);
    const chat = { method: "POST", body: JSON.stringify({ messages: [{ role: "assistant", content: "x" }] }) };
    expect(await wrapped("http://127.0.0.1:9/v1/chat/completions", chat)).toBe(reply);
    expect(seen[0]?.init).toBe(chat);
    const typed = {
      method: "POST",
      body: '{"model":"tiny",  "input":[{"type":"message","role":"user","content":"hi"}]}',
    };
    expect(await wrapped("http://127.0.0.1:9/v1/responses", typed)).toBe(reply);
    expect(seen[1]?.init?.body).toBe(typed.body);
  });
});

describe("without the wrapper (why it exists)", () => {
  const bare = (sse: string) => {
    const server = fakeServer(sse);
    return {
      model: createOpenAI({ apiKey: "none", baseURL: "http://127.0.0.1:9/v1", fetch: server.fetch }).responses("tiny"),
      sent: server.sent,
    };
  };

  it("every recorded event fails @ai-sdk/openai's validation and no reasoning arrives", async () => {
    const r = await stream(bare(recorded("hello")).model, ask("hello: hi"));
    expect(r.errors.length).toBeGreaterThan(0);
    expect(String((r.errors[0]?.error as Error | undefined)?.message)).toContain("Type validation failed");
    expect(r.reasoning).toEqual([]);
  });

  it("a replayed assistant message goes out without a type, which llama-server refuses", async () => {
    const { model, sent } = bare(recorded("hello"));
    await stream(model, [
      ...ask("hi"),
      { role: "assistant", content: [{ type: "text", text: "Hello!" }] },
      ...ask("hi"),
    ]);
    const input = JSON.parse(sent[0]?.body ?? "{}").input as Record<string, unknown>[];
    expect(input[1]).toMatchObject({ role: "assistant" });
    expect(input[1]?.type).toBeUndefined();
  });
});
