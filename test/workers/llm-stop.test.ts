// Stop closes the request to the model server (issue 40): whatever the call is doing when the turn's
// signal aborts, the provider sees its client go away and is never read on to the end of its answer in
// the background (a real provider would go on generating, and billing). The fake records when each
// request's connection closed; every provider path the app builds is called here as a turn calls it
// (languageModel, callModel): Chat Completions through @ai-sdk/openai-compatible, the Responses API
// through the compatibility layer, and OpenAI's own API in both styles through @ai-sdk/openai (whose
// stream is teed to find an early error). Then the whole turn: Stop through the conversation's object,
// on a user's provider (through the outbound policy's fetch) in both styles.
import { describe, expect, it } from "vitest";
import { callModel } from "../../agent/llm/call-model";
import { languageModel } from "../../agent/llm/model";
import type { ApiStyle } from "../../protocol";
import {
  marker,
  modelRequests,
  type RecordedRequest,
  type Step,
  scriptModel,
  waitForModelRequests,
} from "../support/fake-openai-client";
import { api, connect, createConversation, signup, uniqueName } from "./helpers";
import { llmUrl } from "./turn-helpers";

/** The four ways the app calls a model server. OpenAI's own API is reached at the fake through its fetch. */
const PATHS = {
  "Chat Completions (openai-compatible)": { style: "chat", own: false },
  "Responses (compatibility layer)": { style: "responses", own: false },
  "OpenAI's Chat Completions": { style: "chat", own: true },
  "OpenAI's Responses": { style: "responses", own: true },
} satisfies Record<string, { style: ApiStyle; own: boolean }>;
type Path = (typeof PATHS)[keyof typeof PATHS];

const OPENAI = "https://api.openai.com";
const toFake: typeof fetch = (input, init) =>
  fetch(String(input instanceof Request ? input.url : input).replace(OPENAI, llmUrl), init);

function modelFor({ style, own }: Path) {
  return languageModel({
    provider: "openai",
    providerId: "default",
    providerName: "Fake",
    model: "m",
    apiKey: "k",
    baseURL: own ? `${OPENAI}/v1` : `${llmUrl}/v1`,
    style,
    streamIdleMs: 60_000,
    contextWindow: 32_000,
    maxOutputTokens: 1_000,
    sendReasoning: false,
    imageInput: false,
    ...(own ? { fetch: toFake } : {}),
  });
}

/** A call that Stop aborts when `stopWhen` says so; resolves once the call has ended. */
async function stoppedCall(path: Path, steps: Step[], stopWhen: (at: { deltas: number; retries: number }) => boolean) {
  const key = uniqueName("stop");
  await scriptModel(llmUrl, key, steps);
  const stop = new AbortController();
  const seen = { deltas: 0, retries: 0 };
  // Stop comes as its own event (a socket frame), never inside the provider's callback.
  const check = () => void (stopWhen(seen) && setTimeout(() => stop.abort(new Error("stopped by the user")), 0));
  const call = callModel({
    model: modelFor(path),
    prompt: [{ role: "user", content: [{ type: "text", text: `tell me ${marker(key)}` }] }],
    signal: stop.signal,
    deadline: Date.now() + 120_000,
    onTextDelta: () => {
      seen.deltas++;
      check();
    },
    onRetry: () => {
      seen.retries++;
      check();
    },
  });
  return {
    key,
    stop,
    ended: call.then(
      () => "answered",
      () => (stop.signal.aborted ? "stopped" : "failed"),
    ),
  };
}

/** Every request of `key` once each has closed: the call does not end before the fake hears of it. */
const allClosed = (key: string) =>
  waitForModelRequests(llmUrl, key, (rs) => rs.length > 0 && rs.every((r) => r.closed_ms !== undefined));

const words = (n: number) => Array.from({ length: n }, (_, i) => `word${i} `);

describe.each(Object.entries(PATHS))("Stop closes the model request: %s", (_, path) => {
  it("while the server has not answered yet", async () => {
    const { key, stop, ended } = await stoppedCall(path, [{ text: "late", delay_ms: 10_000 }], () => false);
    await waitForModelRequests(llmUrl, key, (rs) => rs.length === 1);
    stop.abort(new Error("stopped by the user"));
    expect(await ended).toBe("stopped");
    const [request] = await allClosed(key);
    expect(request?.aborted).toBe(true);
  });

  it("mid-stream, on a server that goes silent", async () => {
    const step: Step = { text: ["Partial ", "answer "], hang: true };
    const { key, ended } = await stoppedCall(path, [step], (at) => at.deltas === 2);
    expect(await ended).toBe("stopped");
    const [request] = await allClosed(key);
    expect(request?.aborted).toBe(true);
  });

  it("between two reads: the rest of the answer is never read in the background", async () => {
    const { key, ended } = await stoppedCall(path, [{ text: words(40), chunk_delay_ms: 100 }], (at) => at.deltas === 2);
    expect(await ended).toBe("stopped");
    const [request] = await allClosed(key);
    expect(request).toMatchObject({ aborted: true, completed: false });
  });

  it("while a retry waits: the refused request is closed and no other is made", async () => {
    const refused: Step = { error: { status: 503, message: "Overloaded", retry_after_ms: 30_000 } };
    const { key, ended } = await stoppedCall(path, [refused, { text: "too late" }], (at) => at.retries === 1);
    expect(await ended).toBe("stopped");
    const requests: RecordedRequest[] = await allClosed(key);
    expect(requests).toHaveLength(1);
    expect(await modelRequests(llmUrl, key)).toHaveLength(1);
  });
});

describe.each([
  ["OpenAI's Chat Completions", PATHS["OpenAI's Chat Completions"]],
  ["OpenAI's Responses", PATHS["OpenAI's Responses"]],
])("Stop while a retry waits after a streamed refusal: %s", (_, path) => {
  // OpenAI may refuse inside a stream it has begun: @ai-sdk/openai reads the first events (a tee) and
  // retries such an error; the refused stream, left open by the server, must be closed before the wait.
  it("closes the refused stream, and makes no other request", async () => {
    const refused: Step = { stream_error: "The server is overloaded", hang: true };
    const { key, ended } = await stoppedCall(path, [refused, { text: "too late" }], (at) => at.retries === 1);
    expect(await ended).toBe("stopped");
    const requests = await allClosed(key);
    expect(requests).toHaveLength(1);
    expect(requests[0]?.aborted).toBe(true);
  });
});

describe.each(["chat", "responses"] as const)("Stop in a turn on a user's provider (%s style)", (style) => {
  it("ends the turn and closes the request between two streamed parts, never reading the rest", async () => {
    const session = await signup();
    const created = await api("/api/providers", {
      method: "POST",
      json: { name: "Mine", base_url: `${llmUrl}/v1`, style, models: [{ id: "m", context_window: 32_000 }] },
      headers: session.headers,
    });
    const provider = (await created.json()) as { id: string };
    const picked = await api("/api/models/default", {
      method: "PUT",
      json: { model: { provider_id: provider.id, model: "m" } },
      headers: session.headers,
    });
    expect(picked.status).toBe(200);
    const { id } = await createConversation(session);
    const socket = await connect(session, id);
    const key = uniqueName("stop");
    await scriptModel(llmUrl, key, [{ text: words(40), chunk_delay_ms: 100 }]);

    socket.send({ type: "chat", content: `tell me ${marker(key)}` });
    await socket.next("text_delta", (f) => f.delta.includes("word1"));
    socket.send({ type: "agent_control", action: "stop" });
    const done = await socket.next("response_complete");
    expect(done.termination_reason).toBe("user_cancelled");
    const [request] = await allClosed(key);
    expect(request).toMatchObject({ aborted: true, completed: false });
    expect(request?.body.model).toBe("m");
  });
});
