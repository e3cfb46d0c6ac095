// Conversation search's ranking (core/search-rank.ts): the user's words, then answers, then a step's narration.
import { describe, expect, it } from "vitest";
import { rankHits, type TextHit } from "../../core/search-rank";

const hit = (conversation: string, seq: number, kind: TextHit["kind"], updated = "2026-01-02"): TextHit => ({
  conversation_id: conversation,
  title: conversation,
  updated_at: updated,
  seq,
  kind,
  snippet: `${kind} ${seq}`,
});

describe("rankHits", () => {
  it("keeps a conversation's user message and answer when narration matches more often", () => {
    const hits = [
      hit("a", 9, "step"),
      hit("a", 8, "step"),
      hit("a", 10, "answer"),
      hit("a", 7, "step"),
      hit("a", 1, "user"),
    ];
    const ranked = rankHits(hits, [], 3, 50);
    expect(ranked.map((r) => [r.seq, r.kind])).toEqual([
      [1, "user"],
      [10, "answer"],
      [9, "step"],
    ]);
  });

  it("puts conversations whose user words or answers match before newer ones with only narration", () => {
    const ranked = rankHits(
      [
        hit("narrated", 5, "step", "2026-01-09"),
        hit("answered", 4, "answer", "2026-01-05"),
        hit("asked", 1, "user", "2026-01-01"),
      ],
      [{ conversation_id: "titled", title: "t", updated_at: "2026-01-08" }],
      3,
      50,
    );
    expect(ranked.map((r) => r.conversation_id)).toEqual(["asked", "titled", "answered", "narrated"]);
    expect(ranked[1]).toEqual({ conversation_id: "titled", title: "t", snippet: "t" });
  });

  it("orders by last activity within a rank, and caps the results", () => {
    const ranked = rankHits([hit("old", 1, "user", "2026-01-01"), hit("new", 1, "user", "2026-01-03")], [], 3, 1);
    expect(ranked.map((r) => r.conversation_id)).toEqual(["new"]);
  });

  it("lists a conversation whose title matched only once when its text matched too", () => {
    const ranked = rankHits([hit("a", 2, "answer")], [{ conversation_id: "a", title: "a", updated_at: "x" }], 3, 50);
    expect(ranked).toHaveLength(1);
  });
});
