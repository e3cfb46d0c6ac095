// model.ts puts responsesCompatFetch (agent/llm/responses-compat.ts) in front of @ai-sdk/openai's
// Responses model for any server but OpenAI's own: a recorded llama-server stream reads as text, and
// a replayed message goes out typed; OpenAI's own API gets the provider's request untouched.
import type { LanguageModelV3 } from "@ai-sdk/provider";
import { describe, expect, it } from "vitest";
import { providerLlm } from "../../../agent/llm/config";
import { languageModel } from "../../../agent/llm/model";

// Events of a real llama-server stream (test/fixtures/llama-server-responses/hello.sse), fewer deltas.
const hello = [
  '{"type":"response.created","response":{"id":"resp_heWNyNa0BiHjekHUwp3T32RZRscDZQ0W","object":"response","status":"in_progress"}}',
  '{"type":"response.output_item.added","item":{"id":"rs_jRPDIuOWxr5ju9MnTyRArgNHRPG6kHe6","summary":[],"type":"reasoning","content":[],"encrypted_content":"","status":"in_progress"}}',
  '{"type":"response.reasoning_text.delta","delta":"The","item_id":"rs_jRPDIuOWxr5ju9MnTyRArgNHRPG6kHe6"}',
  '{"type":"response.reasoning_text.delta","delta":".\\n","item_id":"rs_jRPDIuOWxr5ju9MnTyRArgNHRPG6kHe6"}',
  '{"type":"response.output_item.added","item":{"content":[],"id":"msg_YoIeL5bW5sq61svRsX1yvUpNXr5Cq6JR","role":"assistant","status":"in_progress","type":"message"}}',
  '{"type":"response.content_part.added","item_id":"msg_YoIeL5bW5sq61svRsX1yvUpNXr5Cq6JR","part":{"type":"output_text","text":""}}',
  '{"type":"response.output_text.delta","item_id":"msg_YoIeL5bW5sq61svRsX1yvUpNXr5Cq6JR","delta":"Hello"}',
  '{"type":"response.output_text.delta","item_id":"msg_YoIeL5bW5sq61svRsX1yvUpNXr5Cq6JR","delta":"!"}',
  '{"type":"response.output_item.done","item":{"id":"rs_jRPDIuOWxr5ju9MnTyRArgNHRPG6kHe6","summary":[],"type":"reasoning","content":[{"text":"The user is greeting me.\\n","type":"reasoning_text"}],"encrypted_content":""}}',
  '{"type":"response.output_item.done","item":{"type":"message","status":"completed","id":"msg_YoIeL5bW5sq61svRsX1yvUpNXr5Cq6JR","content":[{"type":"output_text","annotations":[],"logprobs":[],"text":"Hello! I am the Oracle test model."}],"role":"assistant"}}',
  '{"type":"response.completed","response":{"id":"resp_heWNyNa0BiHjekHUwp3T32RZRscDZQ0W","object":"response","created_at":1795587445,"status":"completed","model":"/work/main/.cache/real-llm/tiny3-q8.gguf","output":[{"id":"rs_jRPDIuOWxr5ju9MnTyRArgNHRPG6kHe6","summary":[],"type":"reasoning","content":[{"text":"The user is greeting me.\\n","type":"reasoning_text"}],"encrypted_content":""},{"type":"message","status":"completed","id":"msg_YoIeL5bW5sq61svRsX1yvUpNXr5Cq6JR","content":[{"type":"output_text","annotations":[],"logprobs":[],"text":"Hello! I am the Oracle test model."}],"role":"assistant"}],"usage":{"input_tokens":11,"output_tokens":20,"total_tokens":31,"input_tokens_details":{"cached_tokens":10}}}}',
]
  .map((data) => `data: ${data}\n\n`)
  .join("");

function server() {
  const bodies: string[] = [];
  const fetch = (async (_input: RequestInfo | URL, init?: RequestInit) => {
    bodies.push(String(init?.body ?? ""));
    return new Response(hello, { headers: { "content-type": "text/event-stream" } });
  }) as typeof globalThis.fetch;
  return { fetch, bodies };
}

const model = (baseUrl: string, fetch: typeof globalThis.fetch) =>
  languageModel(
    providerLlm(
      {} as Env,
      { id: "p", name: "Local", baseUrl, style: "responses", apiKey: undefined },
      { id: "tiny", context_window: 4096 },
      fetch,
    ),
  );

async function read(m: LanguageModelV3) {
  const { stream } = await m.doStream({ prompt: [{ role: "user", content: [{ type: "text", text: "hello: hi" }] }] });
  const parts = [];
  for await (const part of stream) parts.push(part);
  return parts;
}

describe("the Responses style in model.ts", () => {
  it("goes through the compatibility fetch for a server other than OpenAI's own", async () => {
    const local = server();
    const parts = await read(model("http://127.0.0.1:9/v1", local.fetch));
    expect(parts.filter((p) => p.type === "error")).toEqual([]);
    const text = parts.flatMap((p) => (p.type === "text-delta" ? [p.delta] : [])).join("");
    expect(text).toBe("Hello!");
    expect(JSON.parse(local.bodies[0] ?? "{}").input[0].type).toBe("message");
  });

  it("leaves OpenAI's own API to the provider as it is", async () => {
    const openai = server();
    await read(model("https://api.openai.com/v1", openai.fetch));
    expect(JSON.parse(openai.bodies[0] ?? "{}").input[0].type).toBeUndefined();
  });
});
