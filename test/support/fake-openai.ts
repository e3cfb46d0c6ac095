// A fake OpenAI server for tests: speaks the real Chat Completions API (streaming SSE and plain JSON)
// and the Responses API as @ai-sdk/openai calls them, so the Worker under test runs its real LLM code.
// Tests (even inside workerd) script replies over HTTP, keyed by a `[[key:KEY]]` marker in the prompt,
// and read back every request, including whether the client aborted it (how a stop is proven).
import { randomUUID } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { REFUSED_KEY, type RecordedRequest, type Step } from "./fake-openai-client.ts";

export interface FakeOpenAI {
  url: string;
  close(): Promise<void>;
}

const MARKER = /\[\[key:([^\]\s]+)\]\]/;
/** How the Worker's title request's system prompt begins (agent/conversation-title.ts TITLE_REQUEST_TAG). */
const TITLE_TAG = "[Title request]";
/** What the fake names a conversation when its script gives no `title` step. */
const DEFAULT_TITLE_REPLY = "Fake model title";
/** How the Worker's compaction request begins (agent/prompts/compaction.eta). */
const COMPACTION_TAG = "[Compaction request]";
const MAX_BODY = 20 * 1024 * 1024;
type Json = Record<string, unknown>;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const tokens = (chars: number) => Math.max(1, Math.ceil(chars / 4));
const isObj = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);

/** Every string inside a value (message contents, text parts, tool results…), depth-first. */
function strings(v: unknown, out: string[] = []): string[] {
  if (typeof v === "string") out.push(v);
  else if (Array.isArray(v)) for (const x of v) strings(x, out);
  else if (isObj(v)) for (const x of Object.values(v)) strings(x, out);
  return out;
}

/** The prompt of a request: Chat Completions `messages`, or Responses `instructions` + `input`. */
function promptOf(body: Json): unknown[] {
  if (Array.isArray(body.messages)) return body.messages;
  const input =
    typeof body.input === "string"
      ? [{ role: "user", content: body.input }]
      : Array.isArray(body.input)
        ? body.input
        : [];
  return body.instructions ? [{ role: "system", content: body.instructions }, ...input] : input;
}

function lastUserText(prompt: unknown[]): string {
  for (let i = prompt.length - 1; i >= 0; i--) {
    const m = prompt[i];
    if (!isObj(m) || m.role !== "user") continue;
    if (typeof m.content === "string") return m.content;
    if (Array.isArray(m.content))
      return m.content
        .filter((p) => isObj(p) && typeof p.text === "string")
        .map((p) => (p as Json).text)
        .join("");
  }
  return "";
}

/** A step as the fake will play it: text chunks, tool calls with string arguments, finish reason, usage. */
interface Reply {
  chunks: string[];
  reasoning: string[];
  calls: { id: string; name: string; args: string }[];
  finish: "stop" | "tool_calls" | "length";
  usage: {
    prompt_tokens: number;
    completion_tokens: number;
    total_tokens: number;
    prompt_tokens_details: { cached_tokens: number };
    completion_tokens_details: { reasoning_tokens: number };
  };
  step: Step;
}

/** Characters two texts share at their start. */
function commonPrefix(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return i;
}

/** A compaction request: it ends with the Worker's summary instruction. */
function isCompaction(prompt: unknown[]): boolean {
  return strings(prompt.at(-1)).some((t) => t.startsWith(COMPACTION_TAG));
}

/** The conversation's title request: it comes after a turn and never consumes the turn's script. */
function isTitleRequest(prompt: unknown[]): boolean {
  const first = prompt[0];
  // Chat Completions and Responses send it as a system message (a reasoning model's as a developer one).
  const instruction = isObj(first) && (first.role === "system" || first.role === "developer");
  return instruction && strings(first.content).some((t) => t.startsWith(TITLE_TAG));
}

/** `cachedChars`: how much of the prompt's text a prompt cache would already hold (see handleModel). */
function planReply(step: Step, prompt: unknown[], cachedChars = 0): Reply {
  const chunks = Array.isArray(step.text)
    ? step.text.map(String)
    : step.text
      ? (String(step.text).match(/\s*\S+\s*/g) ?? [])
      : [];
  const calls = (step.tool_calls ?? []).map((c) => ({
    id: c.id ?? `call_${randomUUID().replaceAll("-", "").slice(0, 24)}`,
    name: String(c.name),
    args: typeof c.arguments === "string" ? c.arguments : JSON.stringify(c.arguments ?? {}),
  }));
  const finish = step.finish_reason ?? (calls.length ? "tool_calls" : "stop");
  const reasoning = (step.reasoning ?? []).map(String);
  const reasoningChars = reasoning.join("").length;
  const reasoning_tokens = reasoningChars ? tokens(reasoningChars) : 0;
  const replyChars = chunks.join("").length + calls.reduce((n, c) => n + c.name.length + c.args.length, 0);
  const prompt_tokens = step.usage?.prompt_tokens ?? tokens(strings(prompt).join("").length);
  const completion_tokens = step.usage?.completion_tokens ?? tokens(replyChars) + reasoning_tokens;
  const cached_tokens = step.usage?.cached_tokens ?? Math.min(prompt_tokens, Math.floor(cachedChars / 4));
  return {
    chunks,
    reasoning,
    calls,
    finish,
    usage: {
      prompt_tokens,
      completion_tokens,
      total_tokens: prompt_tokens + completion_tokens,
      prompt_tokens_details: { cached_tokens },
      completion_tokens_details: { reasoning_tokens },
    },
    step,
  };
}

/** Splits tool arguments into a few pieces, as real streams do. */
function pieces(s: string): string[] {
  if (s.length < 6) return [s];
  const n = Math.ceil(s.length / 3);
  return [s.slice(0, n), s.slice(n, 2 * n), s.slice(2 * n)];
}

function sendJson(res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  if (res.headersSent || res.destroyed) return;
  res.writeHead(status, { "content-type": "application/json", ...headers });
  res.end(JSON.stringify(body));
}

function openaiError(
  res: http.ServerResponse,
  status: number,
  message: string,
  type = "invalid_request_error",
  headers: Record<string, string> = {},
) {
  const t = status === 429 ? "rate_limit_exceeded" : status >= 500 ? "server_error" : type;
  sendJson(res, status, { error: { message, type: t, param: null, code: t } }, headers);
}

/** The Retry-After headers a scripted error asks for. */
function retryHeaders(error: NonNullable<Step["error"]>): Record<string, string> {
  return {
    ...(error.retry_after !== undefined ? { "retry-after": error.retry_after } : {}),
    ...(error.retry_after_ms !== undefined ? { "retry-after-ms": String(error.retry_after_ms) } : {}),
  };
}

function readBody(req: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let size = 0;
    const parts: Buffer[] = [];
    req.on("data", (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY) reject(new Error("request body too large"));
      else parts.push(c);
    });
    req.on("end", () => resolve(Buffer.concat(parts).toString("utf8")));
    req.on("error", reject);
  });
}

/** An error event as the stream's first (OpenAI's in-stream error), then the end, or nothing more when `hang`. */
function streamError(res: http.ServerResponse, responses: boolean, message: string, hang: boolean) {
  res.write(
    responses
      ? `event: error\ndata: ${JSON.stringify({ type: "error", sequence_number: 0, code: "server_error", message, param: null })}\n\n`
      : `data: ${JSON.stringify({ error: { message, type: "server_error", code: "server_error", param: null } })}\n\n`,
  );
  if (!hang) res.end();
}

/** The id of a reply's reasoning item (Responses), beside its message's. */
const reasoningId = (msgId: string) => `rs_${msgId.slice("msg_".length)}`;

/** Epoch milliseconds with the monotonic clock's precision: phases of a few ms are timed with it. */
const now = () => performance.timeOrigin + performance.now();

export async function startFakeOpenAI(): Promise<FakeOpenAI> {
  const scripts = new Map<string, { steps: Step[]; next: number; compaction?: Step; title?: Step }>();
  /** Title requests, kept apart so counts of a turn's requests stay what the tests expect. */
  let titleRequests: RecordedRequest[] = [];
  /** Per key, the text of the last prompt: what a provider's prompt cache would hold (prefix caching). */
  const lastPrompt = new Map<string, string>();
  let requests: RecordedRequest[] = [];
  let seq = 0;

  /** Streams a Chat Completions reply (https://platform.openai.com/docs/api-reference/chat-streaming). */
  async function streamChat(res: http.ServerResponse, body: Json, r: Reply, live: () => boolean) {
    const base = {
      id: `chatcmpl-${++seq}`,
      object: "chat.completion.chunk",
      created: Math.floor(Date.now() / 1000),
      model: String(body.model ?? "fake-model"),
      system_fingerprint: "fp_fake",
    };
    const send = (delta: Json, finish_reason: string | null = null) =>
      live() &&
      res.write(
        `data: ${JSON.stringify({ ...base, choices: [{ index: 0, delta, logprobs: null, finish_reason }] })}\n\n`,
      );
    const gap = () => sleep(r.step.chunk_delay_ms ?? 0);
    // Like OpenAI: content "" opens a text reply, null a tool-only one.
    send({ role: "assistant", content: r.chunks.length ? "" : null, refusal: null });
    for (const c of r.reasoning) {
      await gap();
      send({ reasoning_content: c });
    }
    for (const c of r.chunks) {
      await gap();
      send({ content: c });
    }
    if (r.step.hang) return; // headers and text are out; the response never ends
    if (r.step.cut_off) return void (live() && res.end()); // no finish_reason, no [DONE]
    for (const [index, c] of r.calls.entries()) {
      await gap();
      send({ tool_calls: [{ index, id: c.id, type: "function", function: { name: c.name, arguments: "" } }] });
      for (const p of pieces(c.args)) {
        await gap();
        send({ tool_calls: [{ index, function: { arguments: p } }] });
      }
    }
    await gap();
    send({}, r.finish);
    const so = body.stream_options;
    if (live() && isObj(so) && so.include_usage)
      res.write(`data: ${JSON.stringify({ ...base, choices: [], usage: r.usage })}\n\n`);
    if (live()) res.end("data: [DONE]\n\n");
  }

  function chatCompletion(body: Json, r: Reply) {
    const text = r.chunks.join("");
    return {
      id: `chatcmpl-${++seq}`,
      object: "chat.completion",
      created: Math.floor(Date.now() / 1000),
      model: String(body.model ?? "fake-model"),
      choices: [
        {
          index: 0,
          message: {
            role: "assistant",
            content: text || null,
            refusal: null,
            ...(r.reasoning.length ? { reasoning_content: r.reasoning.join("") } : {}),
            ...(r.calls.length
              ? {
                  tool_calls: r.calls.map((c) => ({
                    id: c.id,
                    type: "function",
                    function: { name: c.name, arguments: c.args },
                  })),
                }
              : {}),
          },
          logprobs: null,
          finish_reason: r.finish,
        },
      ],
      usage: r.usage,
    };
  }

  /** The Responses API's output items and final response object for a reply. */
  function responseOf(body: Json, r: Reply, id: string, msgId: string) {
    const output: Json[] = [];
    if (r.reasoning.length)
      output.push({
        type: "reasoning",
        id: reasoningId(msgId),
        encrypted_content: null,
        summary: [{ type: "summary_text", text: r.reasoning.join("") }],
      });
    if (r.chunks.length)
      output.push({
        type: "message",
        id: msgId,
        status: "completed",
        role: "assistant",
        content: [{ type: "output_text", text: r.chunks.join(""), annotations: [], logprobs: [] }],
      });
    for (const c of r.calls)
      output.push({
        type: "function_call",
        id: `fc_${c.id}`,
        call_id: c.id,
        name: c.name,
        arguments: c.args,
        status: "completed",
      });
    const incomplete = r.finish === "length";
    return {
      id,
      object: "response",
      created_at: Math.floor(Date.now() / 1000),
      model: String(body.model ?? "fake-model"),
      status: incomplete ? "incomplete" : "completed",
      incomplete_details: incomplete ? { reason: "max_output_tokens" } : null,
      error: null,
      output,
      usage: {
        input_tokens: r.usage.prompt_tokens,
        input_tokens_details: { cached_tokens: r.usage.prompt_tokens_details.cached_tokens },
        output_tokens: r.usage.completion_tokens,
        output_tokens_details: { reasoning_tokens: r.usage.completion_tokens_details.reasoning_tokens },
        total_tokens: r.usage.total_tokens,
      },
    };
  }

  /** Streams a Responses API reply (https://platform.openai.com/docs/api-reference/responses-streaming). */
  async function streamResponses(res: http.ServerResponse, body: Json, r: Reply, live: () => boolean) {
    let n = 0;
    const send = (type: string, data: Json) =>
      live() && res.write(`event: ${type}\ndata: ${JSON.stringify({ type, sequence_number: n++, ...data })}\n\n`);
    const gap = () => sleep(r.step.chunk_delay_ms ?? 0);
    const id = `resp_${++seq}`;
    const msgId = `msg_${seq}`;
    const final = responseOf(body, r, id, msgId);
    const shell = { ...final, status: "in_progress", incomplete_details: null, output: [], usage: null };
    send("response.created", { response: shell });
    send("response.in_progress", { response: shell });
    let index = 0;
    if (r.reasoning.length) {
      const item_id = reasoningId(msgId);
      const at = { item_id, output_index: 0, summary_index: 0 };
      send("response.output_item.added", { output_index: 0, item: { type: "reasoning", id: item_id, summary: [] } });
      send("response.reasoning_summary_part.added", { ...at, part: { type: "summary_text", text: "" } });
      for (const c of r.reasoning) {
        await gap();
        send("response.reasoning_summary_text.delta", { ...at, delta: c });
      }
      const text = r.reasoning.join("");
      send("response.reasoning_summary_text.done", { ...at, text });
      send("response.reasoning_summary_part.done", { ...at, part: { type: "summary_text", text } });
      send("response.output_item.done", { output_index: 0, item: final.output[0] });
      index = 1;
    }
    if (r.chunks.length || r.step.hang || r.step.cut_off) {
      const item = final.output[index] ?? {};
      send("response.output_item.added", {
        output_index: index,
        item: { type: "message", id: msgId, status: "in_progress", role: "assistant", content: [] },
      });
      send("response.content_part.added", {
        item_id: msgId,
        output_index: index,
        content_index: 0,
        part: { type: "output_text", text: "", annotations: [] },
      });
      for (const c of r.chunks) {
        await gap();
        send("response.output_text.delta", {
          item_id: msgId,
          output_index: index,
          content_index: 0,
          delta: c,
          logprobs: [],
        });
      }
      if (r.step.hang) return;
      if (r.step.cut_off) return void (live() && res.end()); // no response.completed
      const text = r.chunks.join("");
      send("response.output_text.done", { item_id: msgId, output_index: index, content_index: 0, text, logprobs: [] });
      send("response.content_part.done", {
        item_id: msgId,
        output_index: index,
        content_index: 0,
        part: { type: "output_text", text, annotations: [] },
      });
      send("response.output_item.done", { output_index: index, item });
      index++;
    }
    for (const c of r.calls) {
      const item = { type: "function_call", id: `fc_${c.id}`, call_id: c.id, name: c.name };
      await gap();
      send("response.output_item.added", {
        output_index: index,
        item: { ...item, arguments: "", status: "in_progress" },
      });
      for (const p of pieces(c.args)) {
        await gap();
        send("response.function_call_arguments.delta", { item_id: item.id, output_index: index, delta: p });
      }
      send("response.function_call_arguments.done", { item_id: item.id, output_index: index, arguments: c.args });
      send("response.output_item.done", {
        output_index: index,
        item: { ...item, arguments: c.args, status: "completed" },
      });
      index++;
    }
    await gap();
    send(final.status === "incomplete" ? "response.incomplete" : "response.completed", { response: final });
    if (live()) res.end();
  }

  async function handleModel(res: http.ServerResponse, path: string, raw: string) {
    let body: Json;
    try {
      const parsed: unknown = JSON.parse(raw);
      if (!isObj(parsed)) throw new Error("not an object");
      body = parsed;
    } catch {
      return openaiError(res, 400, "We could not parse the JSON body of your request.");
    }
    const prompt = promptOf(body);
    const key = strings(prompt).join("\n").match(MARKER)?.[1] ?? null;
    const rec: RecordedRequest = {
      path,
      body,
      key,
      received_at: new Date().toISOString(),
      received_ms: now(),
      aborted: false,
      completed: false,
      compaction: isCompaction(prompt),
    };
    const title = isTitleRequest(prompt);
    (title ? titleRequests : requests).push(rec);
    // "close" fires on an abort and after a normal end; only an unfinished response counts as aborted.
    res.on("close", () => {
      rec.closed_ms = now();
      if (!res.writableFinished) rec.aborted = true;
    });
    res.on("finish", () => {
      rec.completed = true;
      rec.finished_ms = now();
    });
    const live = () => !res.destroyed && !res.writableEnded;

    const script = key === null ? undefined : scripts.get(key);
    let step: Step;
    if (title) {
      step = script?.title ?? { text: DEFAULT_TITLE_REPLY };
    } else if (rec.compaction) {
      // Compactions come when the Worker decides; they never consume the conversation's script.
      step = script?.compaction ?? { text: "Summary: the user and the assistant talked; nothing is left open." };
    } else if (script?.steps.length) {
      step = script.steps[Math.min(script.next, script.steps.length - 1)] as Step;
      script.next++;
    } else {
      step = { text: `Echo: ${lastUserText(prompt)}` };
    }
    if (step.delay_ms) await sleep(step.delay_ms);
    if (!live()) return;
    if (step.error)
      return openaiError(
        res,
        step.error.status || 500,
        step.error.message || "scripted error",
        undefined,
        retryHeaders(step.error),
      );

    // Like a provider's prompt cache: the part of this prompt the previous one (same key) began with.
    const text = strings(prompt).join("");
    const cachedChars = key === null ? 0 : commonPrefix(lastPrompt.get(key) ?? "", text);
    if (key !== null) lastPrompt.set(key, text);
    const reply = planReply(step, prompt, cachedChars);
    rec.usage = {
      prompt_tokens: reply.usage.prompt_tokens,
      cached_tokens: reply.usage.prompt_tokens_details.cached_tokens,
    };
    const responses = path === "/v1/responses";
    if (body.stream === true) {
      res.writeHead(200, {
        "content-type": "text/event-stream; charset=utf-8",
        "cache-control": "no-cache",
        connection: "keep-alive",
      });
      res.flushHeaders();
      if (step.headers_only) return; // and never a byte of the body
      if (step.stream_error) return streamError(res, responses, step.stream_error, step.hang === true);
      await (responses ? streamResponses : streamChat)(res, body, reply, live);
    } else if (step.hang) {
      res.writeHead(200, { "content-type": "application/json" });
      res.flushHeaders(); // and never a body
    } else {
      sendJson(
        res,
        200,
        responses ? responseOf(body, reply, `resp_${++seq}`, `msg_${seq}`) : chatCompletion(body, reply),
      );
    }
  }

  async function handle(req: http.IncomingMessage, res: http.ServerResponse) {
    const url = new URL(req.url ?? "/", "http://fake");
    const path = url.pathname.replace(/\/+$/, "") || "/";
    const raw = req.method === "POST" ? await readBody(req) : "";
    const route = `${req.method} ${path}`;

    if (path.startsWith("/v1/") && req.headers.authorization === `Bearer ${REFUSED_KEY}`)
      return openaiError(res, 401, `Incorrect API key provided: ${REFUSED_KEY.slice(0, 5)}****-key.`);
    if (route === "POST /v1/chat/completions" || route === "POST /v1/responses") return handleModel(res, path, raw);
    if (route === "GET /v1/models")
      return sendJson(res, 200, {
        object: "list",
        data: [{ id: "fake-model", object: "model", created: 0, owned_by: "fake" }],
      });
    if (route === "POST /__script") {
      let parsed: unknown;
      try {
        parsed = JSON.parse(raw);
      } catch {
        return openaiError(res, 400, "invalid JSON");
      }
      if (
        !isObj(parsed) ||
        typeof parsed.key !== "string" ||
        !Array.isArray(parsed.steps) ||
        !parsed.steps.every(isObj) ||
        (parsed.compaction !== undefined && !isObj(parsed.compaction)) ||
        (parsed.title !== undefined && !isObj(parsed.title))
      )
        return openaiError(res, 400, "expected {key: string, steps: Step[], compaction?: Step, title?: Step}");
      scripts.set(parsed.key, {
        steps: parsed.steps as Step[],
        next: 0,
        ...(parsed.compaction ? { compaction: parsed.compaction as Step } : {}),
        ...(parsed.title ? { title: parsed.title as Step } : {}),
      });
      return sendJson(res, 200, { ok: true });
    }
    if (route === "GET /__requests") {
      const key = url.searchParams.get("key");
      return sendJson(res, 200, { requests: key === null ? requests : requests.filter((r) => r.key === key) });
    }
    if (route === "GET /__title-requests") {
      const key = url.searchParams.get("key");
      return sendJson(res, 200, {
        requests: key === null ? titleRequests : titleRequests.filter((r) => r.key === key),
      });
    }
    if (route === "POST /__reset") {
      const key = url.searchParams.get("key");
      if (key === null) {
        scripts.clear();
        requests = [];
        titleRequests = [];
      } else {
        scripts.delete(key);
        requests = requests.filter((r) => r.key !== key);
        titleRequests = titleRequests.filter((r) => r.key !== key);
      }
      return sendJson(res, 200, { ok: true });
    }
    openaiError(res, 404, `Unknown route ${route}`);
  }

  const server = http.createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      // Never crash the test run on a bad request.
      if (!res.headersSent) openaiError(res, 400, err instanceof Error ? err.message : String(err));
      else res.destroy();
    });
  });
  server.on("clientError", (_err, socket) => socket.destroy());
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", resolve);
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections(); // hanging streams included
        server.close(() => resolve());
      }),
  };
}
