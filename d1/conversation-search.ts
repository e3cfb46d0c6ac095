// docs/protocol.md `GET /api/search`: the user's own conversations whose title or user/agent text matches.
// Text hits come from the index the conversation objects keep (message_search_fts), at most a few per
// conversation so one long chat cannot hide the others, ranked by what matched (core/search-rank.ts): the
// user's words and answers before a step's narration, then newest first. A title hit without a text
// hit is a result without `seq`.

import { kindOrderSql, rankHits, type TextHit } from "../core/search-rank";
import type { SearchResult } from "../protocol";
import { HIGHLIGHT, isFtsQueryError, matchAll, matchPhrase, matchTerms, matchWords } from "./fts-query";

const HITS_PER_CONVERSATION = 3;
const MAX_RESULTS = 50;

/** `project`: only that project's conversations; null: all. */
async function textHits(d1: D1Database, userId: string, match: string, project: string | null): Promise<TextHit[]> {
  // FTS5's snippet() cannot run under a window function, so the per-conversation cap is applied in
  // rankHits. The rows fetched are the best kinds first, so the limit here drops narration before the
  // user's own words.
  const { results } = await d1
    .prepare(
      `SELECT s.conversation_id, c.title, c.updated_at, s.seq, s.kind,
              snippet(message_search_fts, 0, ?3, ?4, '…', 12) AS snippet
       FROM message_search_fts
       JOIN message_search s ON s.id = message_search_fts.rowid
       JOIN conversations c ON c.id = s.conversation_id
       WHERE message_search_fts MATCH ?1 AND s.user_id = ?2 AND c.user_id = ?2 AND c.parent_id IS NULL
         AND (?6 IS NULL OR c.project_id = ?6)
       ORDER BY ${kindOrderSql("s.kind")}, c.updated_at DESC, s.seq DESC
       LIMIT ?5`,
    )
    .bind(match, userId, HIGHLIGHT.open, HIGHLIGHT.close, MAX_RESULTS * HITS_PER_CONVERSATION, project)
    .all<TextHit>();
  return results;
}

/** Titles holding every word of the query (case-insensitive; `%` and `_` are literal). */
async function titleHits(d1: D1Database, userId: string, words: string[], project: string | null) {
  const conditions = words.map((_, i) => `instr(lower(title), lower(?${i + 3})) > 0`).join(" AND ");
  const { results } = await d1
    .prepare(
      `SELECT id AS conversation_id, title, updated_at FROM conversations
       WHERE user_id = ?1 AND parent_id IS NULL AND (?2 IS NULL OR project_id = ?2) AND ${conditions}
       ORDER BY updated_at DESC LIMIT ${MAX_RESULTS}`,
    )
    .bind(userId, project, ...words)
    .all<{ conversation_id: string; title: string; updated_at: string }>();
  return results;
}

export async function searchConversations(
  d1: D1Database,
  userId: string,
  query: string,
  project: string | null = null,
): Promise<SearchResult[]> {
  const terms = matchTerms(query);
  if (!terms.length) return [];
  const [text, titles] = await Promise.all([
    textHits(d1, userId, matchAll(terms), project).catch((err) => {
      if (!isFtsQueryError(err)) throw err;
      return textHits(d1, userId, matchPhrase(query), project).catch(() => []);
    }),
    titleHits(d1, userId, matchWords(query), project),
  ]);
  return rankHits(text, titles, HITS_PER_CONVERSATION, MAX_RESULTS);
}
