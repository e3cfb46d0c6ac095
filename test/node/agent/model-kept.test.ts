// model.ts keeps provider models across turns (a fresh @ai-sdk/openai-compatible model costs ~5 ms of
// schema set-up in workerd each turn). What it keeps must never carry a stale setting: a changed key,
// model name, URL or fetch makes another model; the same settings reuse one, and still reach the server.
import type { LanguageModelV3 } from "@ai-sdk/provider";
import { describe, expect, it } from "vitest";
import { providerLlm } from "../../../agent/llm/config";
import { languageModel } from "../../../agent/llm/model";

const chunk = (delta: object, finish: string | null = null) =>
  `data: ${JSON.stringify({ id: "c", object: "chat.completion.chunk", created: 0, model: "m", choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
const answer = `${chunk({ role: "assistant", content: "Hi" })}${chunk({}, "stop")}data: [DONE]\n\n`;

/** A fake server as a fetch: what each request was sent with. */
function server() {
  const seen: { url: string; auth: string | null; model: string }[] = [];
  const fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const headers = new Headers(init?.headers);
    seen.push({ url: String(input), auth: headers.get("authorization"), model: JSON.parse(String(init?.body)).model });
    return new Response(answer, { headers: { "content-type": "text/event-stream" } });
  }) as typeof globalThis.fetch;
  return { fetch, seen };
}

const model = (fetch: typeof globalThis.fetch, key: string, name = "m", baseUrl = "http://127.0.0.1:9/v1") =>
  languageModel(
    providerLlm(
      {} as Env,
      { id: "p", name: "Local", baseUrl, style: "chat", apiKey: key },
      { id: name, context_window: 8192 },
      fetch,
    ),
  );

async function call(m: LanguageModelV3) {
  const { stream } = await m.doStream({ prompt: [{ role: "user", content: [{ type: "text", text: "hi" }] }] });
  for await (const _ of stream);
}

describe("provider models kept across turns", () => {
  it("sends each turn with the settings of that turn: key, model name, URL and fetch", async () => {
    const one = server();
    await call(model(one.fetch, "k1"));
    await call(model(one.fetch, "k1"));
    await call(model(one.fetch, "k2"));
    await call(model(one.fetch, "k2", "other"));
    await call(model(one.fetch, "k2", "other", "http://127.0.0.2:9/v1"));
    expect(one.seen.map((s) => [s.auth, s.model, new URL(s.url).host])).toEqual([
      ["Bearer k1", "m", "127.0.0.1:9"],
      ["Bearer k1", "m", "127.0.0.1:9"],
      ["Bearer k2", "m", "127.0.0.1:9"],
      ["Bearer k2", "other", "127.0.0.1:9"],
      ["Bearer k2", "other", "127.0.0.2:9"],
    ]);
    // Another fetch (another outbound policy) is used, never the one a kept model was built with.
    const two = server();
    await call(model(two.fetch, "k1"));
    expect(two.seen).toHaveLength(1);
    expect(one.seen).toHaveLength(5);
  });
});
