// The labelled loop-detection corpus (seed 001 SC-007): sequences of tool calls, step by step, each
// labelled "stuck" or "progressing" by what a person reading it would say. generated.json comes from
// generate.ts (seeded, so it is the same on every machine); hand-written.json holds the cases written
// one by one. evaluate.ts replays each sequence through the loop's own detector and stop conditions.
import generated from "./generated.json";
import handWritten from "./hand-written.json";

export interface CorpusCall {
  tool: string;
  args: unknown;
  ok: boolean;
  error?: string;
  /** What the call returned, when it matters (polling sees the same or a changed result). */
  result?: unknown;
}

export interface CorpusSequence {
  id: string;
  label: "stuck" | "progressing";
  /** The family it belongs to, e.g. "repeat", "paging". */
  kind: string;
  /** The model's steps, each with the calls it made. */
  steps: CorpusCall[][];
}

export const CORPUS: readonly CorpusSequence[] = [
  ...(handWritten as CorpusSequence[]),
  ...(generated as CorpusSequence[]),
];
