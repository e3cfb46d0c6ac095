// docs/protocol.md `GET /api/search?q=`: full text over the user's own conversations (their titles and the
// user and agent text the objects index), newest first; never another user's.
import { describe, expect, it } from "vitest";
import type { SearchResult } from "../../protocol";
import { api, eventually, type Session } from "./helpers";
import { chat, type Scenario, scenario } from "./turn-helpers";

async function search(session: Session, q: string): Promise<SearchResult[]> {
  const res = await api(`/api/search?q=${encodeURIComponent(q)}`, { headers: session.headers });
  expect(res.status).toBe(200);
  return ((await res.json()) as { results: SearchResult[] }).results;
}

async function rename(s: Scenario, title: string): Promise<void> {
  const res = await api(`/api/conversations/${s.conversationId}`, {
    method: "PATCH",
    json: { title },
    headers: s.session.headers,
  });
  expect(res.status).toBe(200);
}

/** Waits until the background index flush has landed what the test expects. */
const searchUntil = (session: Session, q: string, count: number) =>
  eventually(
    () => search(session, q),
    (results) => results.length >= count,
    `search ${q}`,
  );

describe("search", () => {
  it("finds only the signed-in user's conversations, with the matching message and a highlighted snippet", async () => {
    const alice = await scenario([{ text: "The capybara is the largest living rodent." }]);
    await chat(alice, "Tell me about capybaras and other rodents");
    const bob = await scenario([{ text: "Capybara facts are private to Bob." }]);
    await chat(bob, "Bob asks about the capybara too");

    const mine = await searchUntil(alice.session, "capybara", 2);
    expect(mine.length).toBeGreaterThan(0);
    expect(new Set(mine.map((r) => r.conversation_id))).toEqual(new Set([alice.conversationId]));
    const answer = mine.find((r) => r.snippet.includes("largest"));
    expect(answer?.seq).toBeGreaterThan(1);
    expect(answer?.snippet).toContain("«capybara»");
    expect(JSON.stringify(mine)).not.toContain("Bob");

    const theirs = await searchUntil(bob.session, "capybara", 2);
    expect(new Set(theirs.map((r) => r.conversation_id))).toEqual(new Set([bob.conversationId]));
    expect(await search(alice.session, "private")).toEqual([]);
  });

  it("matches titles too, takes any text safely, and refuses an empty query", async () => {
    const s = await scenario([]);
    await rename(s, "Budget for the numbat trip");
    const byTitle = await search(s.session, "numbat");
    expect(byTitle).toEqual([
      { conversation_id: s.conversationId, title: "Budget for the numbat trip", snippet: "Budget for the numbat trip" },
    ]);
    for (const q of ['"unterminated', "NEAR(", "a AND OR", "100%", "*"]) {
      expect(Array.isArray(await search(s.session, q))).toBe(true);
    }
    const empty = await api("/api/search?q=%20", { headers: s.session.headers });
    expect(empty.status).toBe(400);
    expect(await empty.json()).toMatchObject({ error: { code: "invalid_input" } });
    const anonymous = await api("/api/search?q=numbat");
    expect(anonymous.status).toBe(401);
  });

  it("answers a query of a hundred words, repeated or not, instead of failing in SQLite", async () => {
    const s = await scenario([]);
    await rename(s, "Plans for the x quoll survey");
    // search() asserts the 200 (it was a 500).
    const repeated = await search(s.session, "x ".repeat(99));
    expect(repeated.map((r) => r.conversation_id)).toEqual([s.conversationId]);
    // 99 distinct words, past the cap of 16: answered too (only the first 16 count).
    const many = `quoll survey ${Array.from({ length: 97 }, (_, i) => `${i}`).join(" ")}`.slice(0, 200);
    expect(Array.isArray(await search(s.session, many))).toBe(true);
  });

  it("forgets a conversation's text when the conversation is deleted", async () => {
    const s = await scenario([{ text: "Bilbies are nocturnal." }]);
    await chat(s, "Are bilbies nocturnal?");
    expect((await searchUntil(s.session, "bilbies", 2)).length).toBeGreaterThan(0);
    const res = await api(`/api/conversations/${s.conversationId}`, { method: "DELETE", headers: s.session.headers });
    expect(res.status).toBe(204);
    expect(await search(s.session, "bilbies")).toEqual([]);
  });
});
