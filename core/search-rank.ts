// How conversation search orders its hits (d1/conversation-search.ts), kept apart as plain logic. What
// the user wrote or was answered ranks above a step's narration: a conversation whose user message or
// answer matches comes before one where only narration does, and within a conversation its few hits
// are its user messages first, then answers, then steps, so the narration of a long turn cannot push
// the user's own message out of the per-conversation limit. Ties go to the newest.
import type { SearchResult } from "../protocol";

export type HitKind = "user" | "answer" | "step";
/** A message hit as D1 returns it. */
export interface TextHit {
  conversation_id: string;
  title: string;
  updated_at: string;
  seq: number;
  kind: HitKind;
  snippet: string;
}
/** A conversation whose title matched. */
export interface TitleHit {
  conversation_id: string;
  title: string;
  updated_at: string;
}

export const KIND_ORDER: Record<HitKind, number> = { user: 0, answer: 1, step: 2 };
/** KIND_ORDER as an SQL expression over `column`, so the query fetches the best kinds first in the same order. */
export const kindOrderSql = (column: string) =>
  `CASE ${column} ${Object.entries(KIND_ORDER)
    .map(([kind, rank]) => `WHEN '${kind}' THEN ${rank}`)
    .join(" ")} ELSE ${Math.max(...Object.values(KIND_ORDER))} END`;
/** A title-only hit ranks with the answers: a title is the conversation's own summary. */
const TITLE_RANK = KIND_ORDER.answer;

/** Text hits, at most `perConversation` a conversation (its best kinds, newest first), merged with title hits. */
export function rankHits(text: TextHit[], titles: TitleHit[], perConversation: number, max: number): SearchResult[] {
  const byKind = [...text].sort(
    (a, b) =>
      KIND_ORDER[a.kind] - KIND_ORDER[b.kind] || b.seq - a.seq || a.conversation_id.localeCompare(b.conversation_id),
  );
  const kept = new Map<string, TextHit[]>();
  for (const hit of byKind) {
    const hits = kept.get(hit.conversation_id) ?? [];
    if (hits.length < perConversation) hits.push(hit);
    kept.set(hit.conversation_id, hits);
  }
  type Group = { rank: number; updated_at: string; id: string; results: SearchResult[] };
  const groups: Group[] = [...kept.values()].map((hits) => {
    const first = hits[0] as TextHit;
    return {
      rank: KIND_ORDER[first.kind],
      updated_at: first.updated_at,
      id: first.conversation_id,
      results: hits.map((h) => ({
        conversation_id: h.conversation_id,
        title: h.title,
        seq: h.seq,
        kind: h.kind,
        snippet: h.snippet,
      })),
    };
  });
  for (const t of titles) {
    if (kept.has(t.conversation_id)) continue;
    groups.push({
      rank: TITLE_RANK,
      updated_at: t.updated_at,
      id: t.conversation_id,
      results: [{ conversation_id: t.conversation_id, title: t.title, snippet: t.title }],
    });
  }
  groups.sort((a, b) => a.rank - b.rank || b.updated_at.localeCompare(a.updated_at) || a.id.localeCompare(b.id));
  return groups.flatMap((g) => g.results).slice(0, max);
}
