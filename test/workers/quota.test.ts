// The operator's quota (docs/protocol.md "Quotas and usage") against real conversation objects and D1:
// five concurrent turns of one user cannot pass a daily token limit by more than the calls in flight when
// it was reached; the warning comes once per threshold, before the limit; a turn at the limit ends with
// its own termination reason and says when the quota resets; a new turn is refused before any model call;
// the user's own provider is never counted.
import { describe, expect, it } from "vitest";
import type { Message, UsageReport } from "../../protocol";
import { marker, modelRequests, type Step, scriptModel } from "../support/fake-openai-client";
import { api, connect, createConversation, type Session, signup, uniqueName } from "./helpers";
import { llmUrl, ownModel } from "./turn-helpers";

const STEP_USAGE = { prompt_tokens: 1000, completion_tokens: 50 };

/** A turn that would go on for `steps` tool steps, each reported as 1,050 tokens, if nothing stopped it. */
const longTurn = (steps: number, tag: string): Step[] => [
  ...Array.from({ length: steps }, (_, i) => ({
    tool_calls: [{ name: "vault_search", arguments: { query: `${tag} ${i}` } }],
    usage: STEP_USAGE,
    delay_ms: 40,
  })),
  { text: "done", usage: STEP_USAGE },
];

async function setQuota(session: Session, limits: Record<string, number | null>) {
  await session.db
    .prepare("INSERT INTO user_quotas (user_id, limits) VALUES (?1, ?2) ON CONFLICT(user_id) DO UPDATE SET limits = ?2")
    .bind(session.user.id, JSON.stringify(limits))
    .run();
}

async function dayTokens(session: Session): Promise<number> {
  const row = await session.db
    .prepare("SELECT day_tokens FROM usage_totals WHERE user_id = ?")
    .bind(session.user.id)
    .first<{
      day_tokens: number;
    }>();
  return row?.day_tokens ?? 0;
}

async function messagesOf(session: Session, id: string): Promise<Message[]> {
  const res = await api(`/api/conversations/${id}/messages?limit=1000`, { headers: session.headers });
  return ((await res.json()) as { messages: Message[] }).messages;
}

const quotaWarnings = (messages: Message[]) =>
  messages.flatMap((m) =>
    m.role === "system" && m.item.kind === "notification" && m.item.subscriber === "quota_warning" ? [m.item.body] : [],
  );

describe("quota on the operator's models", () => {
  it("holds under five concurrent turns of one user, warns once before the limit, then refuses a new turn before any model call", async () => {
    const session = await signup();
    const limit = 6000;
    await setQuota(session, { daily_tokens: limit });
    const turns = await Promise.all(
      Array.from({ length: 5 }, async (_, i) => {
        const { id } = await createConversation(session);
        const key = uniqueName("quota");
        await scriptModel(llmUrl, key, longTurn(8, `t${i}`));
        return { id, key, socket: await connect(session, id) };
      }),
    );
    for (const t of turns) t.socket.send({ type: "chat", content: `search a lot ${marker(t.key)}` });
    const ends = await Promise.all(
      turns.map((t) => t.socket.next("response_complete", () => true, { timeoutMs: 20_000 })),
    );
    expect(ends.map((e) => e.termination_reason)).toContain("quota_exceeded");
    // Every call was admitted under the limit; what was in flight when it was reached may finish.
    const calls = (await Promise.all(turns.map((t) => modelRequests(llmUrl, t.key)))).flat();
    const used = await dayTokens(session);
    expect(used).toBeGreaterThanOrEqual(limit);
    expect(used).toBeLessThanOrEqual(limit + turns.length * 1050);
    expect(calls.length).toBeLessThan(5 * 9);
    // The saved answer of a turn the quota ended says so and when it resets.
    const stopped = turns[ends.findIndex((e) => e.termination_reason === "quota_exceeded")];
    const final = (await messagesOf(session, stopped?.id ?? "")).filter((m) => m.role === "agent").at(-1);
    expect(final).toMatchObject({
      termination_reason: "quota_exceeded",
      content: expect.stringMatching(/today's quota of 6,000 tokens .* resets at 00:00 UTC \(in /),
    });
    // The 80% warning went to the agent and the user once in all, never twice.
    const warnings = (await Promise.all(turns.map((t) => messagesOf(session, t.id)))).flatMap(quotaWarnings);
    expect(warnings.filter((w) => w.includes("80%")).length).toBeLessThanOrEqual(1);
    expect(warnings.filter((w) => w.includes("95%")).length).toBeLessThanOrEqual(1);
    // A new turn is refused before anything is sent to the model, and the message is not saved.
    const first = turns[0];
    if (!first) throw new Error("no turn");
    const key = uniqueName("refused");
    await scriptModel(llmUrl, key, [{ text: "must never be asked" }]);
    const before = (await messagesOf(session, first.id)).length;
    const from = first.socket.frames.length;
    first.socket.send({ type: "chat", content: `one more ${marker(key)}`, client_id: "c-refused" });
    const refusal = await first.socket.next("error", () => true, { from });
    expect(refusal).toMatchObject({ code: "quota_exceeded", message: expect.stringMatching(/resets at 00:00 UTC/) });
    expect(await modelRequests(llmUrl, key)).toHaveLength(0);
    expect(await messagesOf(session, first.id)).toHaveLength(before);
    for (const t of turns) t.socket.close();
  });

  it("warns the agent and the user before the limit ends a turn", async () => {
    const session = await signup();
    // Steps of 1,050 tokens: the 4th passes 80% of 5,000, the 5th reaches the limit.
    await setQuota(session, { daily_tokens: 5000 });
    const { id } = await createConversation(session);
    const key = uniqueName("warn");
    await scriptModel(llmUrl, key, longTurn(8, "w"));
    const socket = await connect(session, id);
    socket.send({ type: "chat", content: `go ${marker(key)}` });
    const end = await socket.next("response_complete", () => true, { timeoutMs: 20_000 });
    expect(end.termination_reason).toBe("quota_exceeded");
    const messages = await messagesOf(session, id);
    const warningAt = messages.findIndex((m) => quotaWarnings([m]).length > 0);
    expect(warningAt).toBeGreaterThan(0);
    expect(quotaWarnings(messages)).toEqual([
      expect.stringMatching(/80% of today's quota .* \(4,200 tokens of 5,000 tokens\); it resets in .* short/),
    ]);
    // The warning is in the request of the step after it (the agent read it).
    const requests = await modelRequests(llmUrl, key);
    expect(JSON.stringify(requests.at(-1)?.body.messages)).toContain("80% of today");
    socket.close();
  });

  it("never counts the user's own provider, and counts a title like any call", async () => {
    const session = await signup();
    await setQuota(session, { daily_tokens: 0 });
    await ownModel(session, "chat");
    const { id } = await createConversation(session);
    const key = uniqueName("own");
    await scriptModel(llmUrl, key, [{ text: "mine answers", usage: STEP_USAGE }]);
    const socket = await connect(session, id);
    socket.send({ type: "chat", content: `hello ${marker(key)}` });
    const end = await socket.next("response_complete");
    expect(end.termination_reason).toBe("completed");
    expect(await dayTokens(session)).toBe(0);
    socket.close();
    // The operator's model: its answer and the title written after it are both recorded.
    const other = await signup();
    const conversation = await createConversation(other);
    const key2 = uniqueName("counted");
    await scriptModel(llmUrl, key2, [{ text: "the operator answers", usage: STEP_USAGE }]);
    const socket2 = await connect(other, conversation.id);
    socket2.send({ type: "chat", content: `hello ${marker(key2)}` });
    await socket2.next("response_complete");
    const calls = async () =>
      (
        await other.db
          .prepare("SELECT sum(calls) AS n FROM usage_daily WHERE user_id = ?")
          .bind(other.user.id)
          .first<{ n: number | null }>()
      )?.n ?? 0;
    const until = Date.now() + 15_000;
    while ((await calls()) < 2 && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
    expect(await calls()).toBe(2);
    expect(await dayTokens(other)).toBeGreaterThanOrEqual(1050);
    // The user's own report: today against no limit, and the day's row for the model.
    await setQuota(other, { monthly_tokens: 1_000_000 });
    const report = (await (await api("/api/usage?days=7", { headers: other.headers })).json()) as UsageReport;
    expect(report.day).toMatchObject({
      tokens: await dayTokens(other),
      resets_at: expect.stringMatching(/T00:00:00/),
    });
    expect(report.day.token_limit).toBeUndefined();
    expect(report.month).toMatchObject({ token_limit: 1_000_000 });
    expect(report.rows).toEqual([expect.objectContaining({ model: "fake-model", calls: 2 })]);
    expect((await api("/api/usage?days=0", { headers: other.headers })).status).toBe(400);
    socket2.close();
  });

  it("counts a subagent's calls against its parent's user, and stops it at the limit too", async () => {
    const session = await signup();
    await setQuota(session, { daily_tokens: 3000 });
    const child = uniqueName("child");
    // The child would make 6 calls of 1,050 tokens; the user's quota holds for it as for the parent.
    await scriptModel(llmUrl, child, longTurn(5, "child"));
    const { id } = await createConversation(session);
    const key = uniqueName("parent");
    await scriptModel(llmUrl, key, [
      { tool_calls: [{ name: "delegate", arguments: { task: `Search a lot ${marker(child)}` } }], usage: STEP_USAGE },
      { text: "the parent's answer", usage: STEP_USAGE },
    ]);
    const socket = await connect(session, id);
    socket.send({ type: "chat", content: `delegate ${marker(key)}` });
    const end = await socket.next("response_complete", () => true, { timeoutMs: 20_000 });
    expect(end.termination_reason).toBe("quota_exceeded");
    const childCalls = (await modelRequests(llmUrl, child)).length;
    expect(childCalls).toBeGreaterThan(0);
    expect(childCalls).toBeLessThan(6);
    // Every call made (the parent's first, the child's) is in the user's total; none past the limit.
    expect(await dayTokens(session)).toBe((1 + childCalls) * 1050);
    socket.close();
  });
});
