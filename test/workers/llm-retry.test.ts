// Retries of a refused model request (issue 10), seen from the user's side: 429 and 5xx are retried a
// few times, after the wait the provider asks for (Retry-After, retry-after-ms) or an exponential
// backoff, never past the turn's time limit, and each retry is a System message the model reads too.
// Stop cuts a wait short.
import { describe, expect, it } from "vitest";
import { FIRST_BACKOFF_MS, MAX_RETRIES } from "../../agent/llm/retry";
import type { Message } from "../../protocol";
import { marker, modelRequests, type RecordedRequest, type Step } from "../support/fake-openai-client";
import { chat, finalMessage, history, llmUrl, requestText, scenario } from "./turn-helpers";

const retries = (messages: Message[]) =>
  messages.flatMap((m) =>
    m.role === "system" && m.item.kind === "notification" && m.item.subscriber === "llm_retry" ? [m] : [],
  );

/** Milliseconds between the fake receiving request i-1 and request i. */
const gap = (requests: RecordedRequest[], i: number) =>
  Date.parse(requests[i]?.received_at ?? "") - Date.parse(requests[i - 1]?.received_at ?? "");

const refused = (status: number, headers: { retry_after?: string; retry_after_ms?: number } = {}): Step => ({
  error: { status, message: status === 429 ? "Rate limit reached" : "Service unavailable", ...headers },
});

describe("retrying a refused model request", () => {
  it("waits as long as Retry-After says, shows the retry, and the model reads it next time", async () => {
    const s = await scenario([refused(429, { retry_after: "1" }), { text: "Done." }]);
    const { done } = await chat(s, "go");
    expect(done.termination_reason).toBe("completed");
    const messages = await history(s);
    expect(finalMessage(messages).content).toBe("Done.");
    const [retry, ...more] = retries(messages);
    expect(more).toHaveLength(0);
    expect(retry).toMatchObject({ source: "Model Provider", severity: "warning" });
    expect(retry?.item.body).toMatch(/answered 429: retry 1 of 3 in 1 s.*Rate limit reached/s);
    const requests = await modelRequests(llmUrl, s.key);
    expect(requests).toHaveLength(2);
    expect(gap(requests, 1)).toBeGreaterThanOrEqual(1000);

    await chat(s, "and then?");
    expect(requestText((await modelRequests(llmUrl, s.key)).at(-1)?.body ?? {})).toContain("retry 1 of 3");
  });

  it("honours retry-after-ms, once per retry", async () => {
    const s = await scenario([
      refused(503, { retry_after_ms: 300 }),
      refused(503, { retry_after_ms: 300 }),
      { text: "Back." },
    ]);
    expect((await chat(s, "go")).done.termination_reason).toBe("completed");
    const bodies = retries(await history(s)).map((m) => m.item.body);
    expect(bodies).toHaveLength(2);
    expect(bodies[0]).toMatch(/answered 503: retry 1 of 3 in 0\.3 s/);
    expect(bodies[1]).toMatch(/retry 2 of 3/);
    const requests = await modelRequests(llmUrl, s.key);
    expect(gap(requests, 1)).toBeGreaterThanOrEqual(300);
    expect(gap(requests, 2)).toBeGreaterThanOrEqual(300);
  });

  it("backs off by itself when the provider does not say how long", async () => {
    const s = await scenario([refused(503), { text: "Back." }]);
    expect((await chat(s, "go")).done.termination_reason).toBe("completed");
    expect(retries(await history(s))).toHaveLength(1);
    expect(gap(await modelRequests(llmUrl, s.key), 1)).toBeGreaterThanOrEqual(FIRST_BACKOFF_MS);
  });

  it("gives up after the last retry with llm_error", async () => {
    const s = await scenario([refused(429, { retry_after_ms: 10 })]);
    const { done } = await chat(s, "go");
    expect(done.termination_reason).toBe("llm_error");
    const messages = await history(s);
    expect(retries(messages)).toHaveLength(MAX_RETRIES);
    expect(await modelRequests(llmUrl, s.key)).toHaveLength(MAX_RETRIES + 1);
    expect(finalMessage(messages).content).toMatch(
      /rate limiting requests.*HTTP 429.*It still failed after 3 retries\./,
    );
  });

  it("fails at once when the provider asks to wait past the turn's time limit", async () => {
    const s = await scenario([refused(429, { retry_after: "600" }), { text: "too late" }]);
    const { done } = await chat(s, "go");
    expect(done.termination_reason).toBe("llm_error");
    const messages = await history(s);
    expect(retries(messages)).toHaveLength(0);
    expect(finalMessage(messages).content).toMatch(/Not retried: the provider asked to wait 600 s/);
    expect(await modelRequests(llmUrl, s.key)).toHaveLength(1);
  });

  it("ends the turn user_cancelled when Stop comes during the wait", async () => {
    const s = await scenario([refused(429, { retry_after: "30" }), { text: "too late" }]);
    const from = s.socket.frames.length;
    s.socket.send({ type: "chat", content: `go ${marker(s.key)}` });
    await s.socket.next("message", (f) => f.message.role === "system", { from });
    s.socket.send({ type: "agent_control", action: "stop" });
    const done = await s.socket.next("response_complete", () => true, { from });
    expect(done.termination_reason).toBe("user_cancelled");
    expect(finalMessage(await history(s)).content).toContain("Stopped by the user.");
    expect(await modelRequests(llmUrl, s.key)).toHaveLength(1);
  });
});
