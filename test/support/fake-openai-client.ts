// Helpers for tests to script and inspect the fake OpenAI server (test/support/fake-openai.ts).
// Only `fetch` is used, so this module runs inside workerd (workers project) as well as in Node (e2e).
// The types here are the scripting contract; the server imports them type-only.

declare module "vitest" {
  interface ProvidedContext {
    /** e.g. "http://127.0.0.1:43123", provided by global-setup.ts; the Worker's OPENAI_BASE_URL is `${llmUrl}/v1`. */
    llmUrl: string;
    /** An MCP server of test/support/mcp-server.ts (no auth), e.g. "http://127.0.0.1:43124/mcp". */
    mcpUrl: string;
    /** The same tools behind `Authorization: Bearer ${MCP_TEST_TOKEN}`. */
    mcpTokenUrl: string;
    /** A server that asks the user during its calls (test/support/mcp-elicit-server.ts). */
    mcpElicitUrl: string;
  }
}

/** One model reply. A request carrying `[[key:KEY]]` consumes the next step of KEY's script. */
export interface Step {
  /** Reply text; a string is streamed word by word, an array chunk by chunk. */
  text?: string | string[];
  /** The model's reasoning, streamed before the text and the tool calls, chunk by chunk: Chat Completions
   * `reasoning_content` deltas (as llama.cpp, vLLM, DeepSeek and Qwen send them), Responses reasoning
   * summary events. Counted in usage as `reasoning_tokens` (chars/4, part of the output tokens). */
  reasoning?: string[];
  /** Tool calls after the text; `arguments` as an object is JSON-encoded, a string is sent verbatim (invalid JSON allowed). */
  tool_calls?: { name: string; arguments: Record<string, unknown> | string; id?: string }[];
  /** Defaults to "tool_calls" when there are tool calls, else "stop". */
  finish_reason?: "stop" | "tool_calls" | "length";
  /** Defaults to chars/4 of the request messages and of the reply; cached_tokens defaults to chars/4 of the
   * prompt text the previous request with the same key began with (a prefix cache). */
  usage?: { prompt_tokens: number; completion_tokens: number; cached_tokens?: number };
  /** Wait before the first byte (headers included). */
  delay_ms?: number;
  /** Wait between streamed chunks. */
  chunk_delay_ms?: number;
  /** Send headers and the text chunks, then never finish (stop/abort tests). */
  hang?: boolean;
  /** Send the headers of a stream, then nothing at all, ever (a stall before the first chunk). */
  headers_only?: boolean;
  /** After the stream's headers, an error event (OpenAI's in-stream `{error}`; Responses: an `error` event)
   * before any output, then the end of the response, or nothing more with `hang`. */
  stream_error?: string;
  /** Stream the text chunks, then end the response with no finish reason and no `[DONE]` (Responses:
   * no `response.completed`), as when the connection drops mid-answer. */
  cut_off?: boolean;
  /** Answer with this HTTP status and an OpenAI error body instead of a completion; `retry_after` is
   * sent verbatim as the Retry-After header, `retry_after_ms` as OpenAI's retry-after-ms header. */
  error?: { status: number; message: string; retry_after?: string; retry_after_ms?: number };
}

/** What the fake recorded about one model request. */
export interface RecordedRequest {
  path: string;
  /** The parsed JSON request body (messages, tools, stream_options, …). */
  body: Record<string, unknown>;
  key: string | null;
  received_at: string;
  /** When the request arrived and when its response ended, in epoch ms with sub-ms precision. */
  received_ms: number;
  finished_ms?: number;
  /** When the response's connection closed, after its end or the client's going away (epoch ms, as above). */
  closed_ms?: number;
  /** The client closed the connection before the response ended (a real abort). */
  aborted: boolean;
  /** The response was sent to its end. */
  completed: boolean;
  /** The Worker's compaction request (it ends with the summary instruction), answered from `compaction`. */
  compaction: boolean;
  /** The input tokens the fake reported for this request (chars/4 of its messages' text), and how many were cached. */
  usage?: { prompt_tokens: number; cached_tokens: number };
}

/** An API key the fake refuses on every OpenAI route with OpenAI's own 401 (a wrong key, as users type one). */
export const REFUSED_KEY = "sk-wrong-key";

/** The marker to put in a message (any role) so that the fake answers with KEY's script. */
export function marker(key: string): string {
  return `[[key:${key}]]`;
}

async function call(url: string, init?: RequestInit): Promise<unknown> {
  const res = await fetch(url, init);
  const text = await res.text();
  if (!res.ok) throw new Error(`fake OpenAI ${init?.method ?? "GET"} ${url}: ${res.status} ${text}`);
  return text ? JSON.parse(text) : null;
}

/**
 * Registers (or replaces) KEY's script. Past the last step, the last step repeats. A compaction request
 * (no tools, ending with the Worker's summary instruction) is answered with `compaction` (default: a
 * one-line summary) and never consumes a step; so is the title request, with `title`.
 */
export async function scriptModel(
  llmUrl: string,
  key: string,
  steps: Step[],
  compaction?: Step,
  /** The answer to the conversation's title request (default: "Fake model title"); it never consumes a step. */
  title?: Step,
): Promise<void> {
  await call(`${llmUrl}/__script`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ key, steps, ...(compaction ? { compaction } : {}), ...(title ? { title } : {}) }),
  });
}

/** The title requests (agent/conversation-title.ts) that carried KEY's marker; not among modelRequests. */
export async function titleRequests(llmUrl: string, key: string): Promise<RecordedRequest[]> {
  const out = (await call(`${llmUrl}/__title-requests?key=${encodeURIComponent(key)}`)) as {
    requests: RecordedRequest[];
  };
  return out.requests;
}

/** Every model request that carried KEY's marker, oldest first. */
export async function modelRequests(llmUrl: string, key: string): Promise<RecordedRequest[]> {
  const out = (await call(`${llmUrl}/__requests?key=${encodeURIComponent(key)}`)) as { requests: RecordedRequest[] };
  return out.requests;
}

/** Polls until `until(requests)` holds (e.g. the request is marked aborted, which the fake learns asynchronously). */
export async function waitForModelRequests(
  llmUrl: string,
  key: string,
  until: (requests: RecordedRequest[]) => boolean,
  timeoutMs = 5000,
): Promise<RecordedRequest[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const requests = await modelRequests(llmUrl, key);
    if (until(requests)) return requests;
    if (Date.now() > deadline)
      throw new Error(
        `timed out waiting on model requests of ${key}: ${JSON.stringify(requests.map((r) => ({ aborted: r.aborted, completed: r.completed })))}`,
      );
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Forgets KEY's script and requests, or everything without a key (beware: test files run in parallel). */
export async function resetModel(llmUrl: string, key?: string): Promise<void> {
  await call(`${llmUrl}/__reset${key === undefined ? "" : `?key=${encodeURIComponent(key)}`}`, { method: "POST" });
}
