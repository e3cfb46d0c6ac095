// probeProvider (agent/llm/probe.ts) against real HTTP servers on 127.0.0.1: the model list with its
// context windows, the API style found with one tiny call, and a refused key in plain words.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { probeProvider } from "../../agent/llm/probe";

interface Seen {
  method: string;
  path: string;
  auth: string | undefined;
  body: unknown;
}
type Handler = (path: string, body: unknown, req: IncomingMessage) => { status: number; json?: unknown };

const servers: Server[] = [];

async function serve(handler: Handler): Promise<{ url: string; seen: Seen[] }> {
  const seen: Seen[] = [];
  const server = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    let raw = "";
    for await (const chunk of req) raw += chunk;
    const body = raw ? JSON.parse(raw) : undefined;
    const path = req.url ?? "";
    seen.push({ method: req.method ?? "", path, auth: req.headers.authorization, body });
    const { status, json } = handler(path, body, req);
    res.writeHead(status, { "Content-Type": "application/json" });
    res.end(JSON.stringify(json ?? { error: { message: `no route ${path}` } }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  servers.push(server);
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, seen };
}

/** A server that answers every request with `start` and never ends it (closed with its connections). */
async function stalling(start: (res: ServerResponse) => void) {
  const server = createServer((_req, res) => start(res));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  const close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return { url, close };
}

const chatAnswer = {
  id: "c",
  object: "chat.completion",
  choices: [{ index: 0, message: { role: "assistant", content: "OK" } }],
};
const responsesAnswer = { id: "r", object: "response", output: [{ type: "message", content: [] }] };

let chatOnly: Awaited<ReturnType<typeof serve>>;
let responsesOnly: Awaited<ReturnType<typeof serve>>;
let locked: Awaited<ReturnType<typeof serve>>;
let noList: Awaited<ReturnType<typeof serve>>;

beforeAll(async () => {
  // llama.cpp's list: the window in meta.n_ctx.
  chatOnly = await serve((path) => {
    if (path === "/v1/models")
      return { status: 200, json: { object: "list", data: [{ id: "tiny.gguf", meta: { n_ctx: 4096 } }] } };
    if (path === "/v1/chat/completions") return { status: 200, json: chatAnswer };
    return { status: 404 };
  });
  // vLLM's list (max_model_len) and OpenRouter's (context_length); no Chat Completions route.
  responsesOnly = await serve((path) => {
    if (path === "/v1/models")
      return {
        status: 200,
        json: { data: [{ id: "qwen", max_model_len: 32768 }, { id: "gpt-x", context_length: 200000 }, { id: "bare" }] },
      };
    if (path === "/v1/responses") return { status: 200, json: responsesAnswer };
    return { status: 405 };
  });
  locked = await serve((_path, _body, req) =>
    req.headers.authorization === "Bearer right"
      ? { status: 200, json: { data: [{ id: "m" }], choices: [] } }
      : { status: 401, json: { error: { message: "Invalid API key sk-wr…" } } },
  );
  noList = await serve((path) =>
    path === "/v1/chat/completions" ? { status: 200, json: chatAnswer } : { status: 404 },
  );
});
afterAll(() => Promise.all(servers.map((s) => new Promise((r) => s.close(r)))));

describe("probeProvider", () => {
  it("lists a llama.cpp server's models with their window and finds Chat Completions with one tiny call", async () => {
    const result = await probeProvider({ baseUrl: `${chatOnly.url}/`, apiKey: "k1" }, fetch);
    expect(result).toEqual({ ok: true, style: "chat", models: [{ id: "tiny.gguf", context_window: 4096 }] });
    expect(chatOnly.seen.map((s) => `${s.method} ${s.path}`)).toEqual(["GET /v1/models", "POST /v1/chat/completions"]);
    expect(chatOnly.seen[1]?.body).toEqual({
      model: "tiny.gguf",
      messages: [{ role: "user", content: "Say OK" }],
      max_tokens: 8,
    });
    expect(chatOnly.seen.every((s) => s.auth === "Bearer k1")).toBe(true);
  });

  it("falls back to the Responses API when the server has no Chat Completions route", async () => {
    const result = await probeProvider({ baseUrl: responsesOnly.url }, fetch);
    expect(result).toEqual({
      ok: true,
      style: "responses",
      models: [{ id: "qwen", context_window: 32768 }, { id: "gpt-x", context_window: 200000 }, { id: "bare" }],
    });
    expect(responsesOnly.seen.at(-1)).toMatchObject({
      path: "/v1/responses",
      body: { model: "qwen", input: "Say OK", max_output_tokens: 16 },
      auth: undefined,
    });
  });

  it("calls only the style it is given, and says what failed when that style is missing", async () => {
    responsesOnly.seen.length = 0;
    const result = await probeProvider({ baseUrl: responsesOnly.url, style: "chat", name: "vllm" }, fetch);
    expect(result.ok).toBe(false);
    expect(result.style).toBe("chat");
    expect(result.error).toMatch(/^vllm does not take this request at its URL \(HTTP 405\)\. .*try Responses/);
    expect(responsesOnly.seen.map((s) => s.path)).toEqual(["/v1/models", "/v1/chat/completions"]);
  });

  it("says the key was refused, without trying anything else", async () => {
    locked.seen.length = 0;
    const result = await probeProvider({ baseUrl: locked.url, apiKey: "wrong", name: "Locked" }, fetch);
    expect(result).toEqual({
      ok: false,
      models: [],
      error: "Locked refused the API key (HTTP 401). Check the key in Settings → Models.",
    });
    expect(locked.seen).toHaveLength(1);
  });

  it("works without a model list when it has a model to call, and says what to add when it has none", async () => {
    const named = await probeProvider({ baseUrl: noList.url, model: "my-model" }, fetch);
    expect(named).toEqual({ ok: true, style: "chat", models: [] });
    expect(noList.seen.at(-1)?.body).toMatchObject({ model: "my-model" });
    const unnamed = await probeProvider({ baseUrl: noList.url }, fetch);
    expect(unnamed.ok).toBe(false);
    expect(unnamed.error).toMatch(/lists no models: add a model by its name/);
  });

  it("says a server that took the request and never answered timed out, not that it could not be reached", async () => {
    const { url, close } = await stalling(() => undefined);
    try {
      const result = await probeProvider({ baseUrl: url, name: "Slow" }, fetch, { timeoutMs: 300 });
      expect(result).toEqual({
        ok: false,
        models: [],
        error:
          "Slow did not answer within 0.3 s. Check that the server is running and not overloaded, or pick another model.",
      });
    } finally {
      await close();
    }
  });

  it("says a server that trickles its answer began and did not finish, never a raw abort", async () => {
    const { url, close } = await stalling((res) => {
      res.writeHead(200, { "Content-Type": "application/json" });
      res.write('{"data": [');
      const drip = setInterval(() => res.write(" "), 50);
      res.on("close", () => clearInterval(drip));
    });
    try {
      const result = await probeProvider({ baseUrl: url, model: "m" }, fetch, { timeoutMs: 300 });
      expect(result.ok).toBe(false);
      expect(result.error).toBe(
        "The model server began to answer but did not finish within 0.3 s. Try again in a moment, or pick another model.",
      );
    } finally {
      await close();
    }
  });

  it("says which host it could not reach", async () => {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    await new Promise((resolve) => server.close(resolve));
    const result = await probeProvider({ baseUrl: `http://127.0.0.1:${port}/v1` }, fetch);
    expect(result.ok).toBe(false);
    expect(result.error).toBe(
      `Could not reach 127.0.0.1:${port} (connection refused). Check the base URL and that the server is running.`,
    );
  });
});
