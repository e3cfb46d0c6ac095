// Issue 12: a conversation far longer than the model's context window. Through the real object and the
// fake OpenAI server (which counts a request's tokens as chars/4 of its messages), with a 6,000-token
// window: no request is larger, compactions happen and every turn completes; between compactions every
// request begins with the previous one byte for byte (tool failures, notifications, task reminders and
// references included), also after the object is evicted; a failed summary call falls back to the cut;
// a huge tool result is cut to fit.

import { evictDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Message, SystemItem } from "../../protocol";
import { modelRequests, type RecordedRequest, type Step, scriptModel } from "../support/fake-openai-client";
import { api, connect } from "./helpers";
import { chat, history, llmUrl, type Scenario, scenario } from "./turn-helpers";

const WINDOW = 6_000;
const vars = env as unknown as Record<string, string | undefined>;
beforeAll(() => {
  vars.OPENAI_CONTEXT_WINDOW = String(WINDOW);
});
afterAll(() => {
  delete vars.OPENAI_CONTEXT_WINDOW;
});

type Compaction = Extract<SystemItem, { kind: "compaction" }>;

const messagesOf = (r: RecordedRequest) => r.body.messages as unknown[];
const compactions = (log: Message[]) =>
  log.flatMap((m) => (m.role === "system" && m.item.kind === "compaction" ? [m.item as Compaction] : []));

/** The first messages of `longer` are `shorter`'s, byte for byte. */
function startsWith(longer: unknown[], shorter: unknown[]): boolean {
  return JSON.stringify(longer.slice(0, shorter.length)) === JSON.stringify(shorter);
}

const filler = (i: number, n: number) => `${`turn ${i} `.repeat(Math.ceil(n / 7))}`.slice(0, n);

async function evict(s: Scenario): Promise<void> {
  s.socket.close();
  await evictDurableObject(env.CONVERSATION.get(env.CONVERSATION.idFromName(s.conversationId)));
  s.socket = await connect(s.session, s.conversationId);
}

describe("a conversation longer than the context window", () => {
  it("runs 60 turns without a request over the window, compacting, each request beginning with the last", async () => {
    const steps: Step[] = [];
    for (let i = 0; i < 60; i++) {
      // Every fifth turn reads a note that is not there first: a tool failure and its notification.
      if (i % 5 === 2) steps.push({ tool_calls: [{ name: "vault_read", arguments: { path: `missing-${i}.md` } }] });
      steps.push({ text: `Answer ${i}: ${filler(i, 500)}` });
    }
    const s = await scenario([], { taskReminderRequests: 4 });
    await scriptModel(llmUrl, s.key, steps);
    await api("/api/notes/plan.md", { method: "PUT", json: { content: "Ship in May." }, headers: s.session.headers });
    await api("/api/tasks", { method: "POST", json: { title: "Write the launch post" }, headers: s.session.headers });

    const evictedAfter: number[] = [];
    for (let i = 0; i < 60; i++) {
      if (i % 20 === 10) {
        evictedAfter.push((await modelRequests(llmUrl, s.key)).length);
        await evict(s);
      }
      const content = i % 7 === 3 ? `What does @plan.md say? ${filler(i, 300)}` : `Question ${i}: ${filler(i, 300)}`;
      const { done } = await chat(s, content);
      expect(done.termination_reason, `turn ${i}`).toBe("completed");
    }

    const requests = await modelRequests(llmUrl, s.key);
    const log = await history(s);
    // The whole history is several windows long; no request came near the window.
    const whole = Math.ceil(
      log.reduce((n, m) => n + (m.role === "system" ? m.item.body : JSON.stringify(m)).length, 0) / 4,
    );
    expect(whole).toBeGreaterThan(3 * WINDOW);
    for (const r of requests) expect(r.usage?.prompt_tokens).toBeLessThanOrEqual(WINDOW);
    const items = compactions(log);
    expect(items.length).toBeGreaterThanOrEqual(3);
    expect(items.every((c) => c.method === "summary" && c.tokens_after < c.tokens_before)).toBe(true);
    expect(requests.filter((r) => r.compaction)).toHaveLength(items.length);
    // Every kind of item the issue names was in play.
    const kinds = new Set(log.flatMap((m) => (m.role === "system" ? [m.item.kind] : [])));
    for (const kind of ["notification", "task_reminder", "file_attachment", "compaction"])
      expect(kinds, kind).toContain(kind);

    // Prefix stability: between two compactions, each request begins with the previous one.
    let checked = 0;
    let previous: RecordedRequest | undefined;
    for (const r of requests) {
      if (r.compaction) {
        // The summary call itself begins like the turn's requests (same prefix, same tools): cacheable.
        const mine = messagesOf(r).slice(0, -1);
        const last = previous ? messagesOf(previous) : [];
        expect(startsWith(mine, last) || startsWith(last, mine)).toBe(true);
        expect(JSON.stringify(r.body.tools)).toBe(JSON.stringify(previous?.body.tools));
        previous = undefined;
        continue;
      }
      if (previous) {
        expect(startsWith(messagesOf(r), messagesOf(previous))).toBe(true);
        checked++;
      }
      previous = r;
    }
    expect(checked).toBeGreaterThan(50);
    // Each eviction was followed by a request that began with the one before it (unless a compaction came).
    const replayed = evictedAfter.filter((n) => {
      const [before, after] = [requests[n - 1], requests[n]];
      return before && after && !after.compaction && startsWith(messagesOf(after), messagesOf(before));
    });
    expect(replayed.length).toBeGreaterThanOrEqual(2);
    // The provider's prompt cache was reported back: cached tokens in the turn's usage and on the answer.
    const final = log.findLast((m) => m.role === "agent" && m.phase === "final");
    expect(final?.role === "agent" ? final.usage?.cached_input_tokens : undefined).toBeGreaterThan(0);
  }, 90_000); // 60 real turns: ~8 s alone, past the default 20 s on a busy 2-core machine

  it("falls back to a deterministic cut when the summary call fails, and the turns go on", async () => {
    const s = await scenario([]);
    await scriptModel(llmUrl, s.key, [{ text: `An answer. ${filler(0, 1500)}` }], {
      error: { status: 400, message: "summaries are not allowed here" },
    });
    for (let i = 0; i < 12; i++) {
      const { done } = await chat(s, `Question ${i}: ${filler(i, 1500)}`);
      expect(done.termination_reason).toBe("completed");
    }
    const items = compactions(await history(s));
    expect(items.length).toBeGreaterThan(0);
    expect(items[0]?.method).toBe("cut");
    expect(items[0]?.body).toContain("summaries are not allowed here");
    expect(items[0]?.body).toContain('"Question ');
    // The refused summary calls were answered with an error (no usage); every other request fit.
    for (const r of await modelRequests(llmUrl, s.key)) expect(r.usage?.prompt_tokens ?? 0).toBeLessThanOrEqual(WINDOW);
  });

  it("cuts a tool result larger than the window, keeping its start and end", async () => {
    const s = await scenario([
      { tool_calls: [{ name: "vault_read", arguments: { path: "huge.md" } }] },
      { text: "It is long." },
    ]);
    const content = `FIRST LINE\n${"lorem ipsum ".repeat(8000)}\nLAST LINE`; // ≈ 96,000 characters
    await api("/api/notes/huge.md", { method: "PUT", json: { content }, headers: s.session.headers });
    const { done } = await chat(s, "Read huge.md");
    expect(done.termination_reason).toBe("completed");
    const after = (await modelRequests(llmUrl, s.key)).at(-1) as RecordedRequest;
    const sent = JSON.stringify(messagesOf(after));
    expect(sent).toContain("characters cut here");
    expect(sent).toContain("FIRST LINE");
    expect(sent).toContain("LAST LINE");
    expect(after.usage?.prompt_tokens).toBeLessThanOrEqual(WINDOW);
    // The log keeps the whole result.
    const read = (await history(s)).find((m) => m.role === "tool");
    expect(JSON.stringify(read?.role === "tool" && read.result)).toContain("lorem ipsum ".repeat(100));
  });
});
