// What bench/workers/context-compaction.ts measures of one conversation (shared with bench/run.ts, which loads
// that benchmark bundled and cannot import its Worker code directly).
export interface ConversationFigures {
  requests: number;
  compactions: number;
  inputTokens: number;
  cachedTokens: number;
  largest: number;
  overWindow: number;
  /** Per request: the share of it that is the previous request's prefix. */
  prefixShares: number[];
  /** Requests (after the first) that begin with the whole previous request of their branch. */
  wholePrefix: number;
  /** Pairs of consecutive requests on one branch (what `prefixShares` and `wholePrefix` count). */
  pairs: number;
  turnsCompleted: number;
}
