// Reference completion in the composer (seed 002): `@` offers notes, `#` knowledge entries and `/`
// workflows. A reference starts the message or follows whitespace, as the server's parser
// (agent/references/parse.ts) requires; these pure functions find the reference being typed
// at the caret, rank candidates for it and splice the chosen one in.

export type CompletionKind = "note" | "knowledge" | "workflow";

export const SIGILS: Record<CompletionKind, string> = { note: "@", knowledge: "#", workflow: "/" };
const KIND_OF_SIGIL: Record<string, CompletionKind> = { "@": "note", "#": "knowledge", "/": "workflow" };

/** What may follow the sigil while a reference is typed; anything else means it is not one. */
const QUERY_PATTERN: Record<CompletionKind, RegExp> = {
  note: /^[A-Za-z0-9_./-]*$/,
  knowledge: /^(?:[a-z][a-z0-9-]*)?$/,
  workflow: /^(?:[a-z][a-z0-9-]*)?$/,
};

/** A note path the parser can read back as an `@` reference (no spaces, say). */
export const REFERABLE_NOTE_PATH = /^[A-Za-z0-9_][A-Za-z0-9_./-]*[A-Za-z0-9_/-]$|^[A-Za-z0-9_]$/;

/** The reference being typed: `text.slice(start, end)` is the whole word, sigil included. */
export type Trigger = { kind: CompletionKind; start: number; end: number; query: string };

export type Candidate = {
  value: string;
  detail?: string;
  /** A folder of notes: inserted without a trailing space, so completion goes on inside it. */
  folder?: boolean;
};

const isSpace = (char: string | undefined) => char !== undefined && /\s/.test(char);

/** The reference at a collapsed caret, or null. The query is what lies between the sigil and the caret. */
export function findTrigger(text: string, caret: number): Trigger | null {
  if (caret < 1 || caret > text.length) return null;
  let start = caret;
  while (start > 0 && !isSpace(text[start - 1])) start--;
  const kind = KIND_OF_SIGIL[text[start] ?? ""];
  if (!kind) return null;
  const query = text.slice(start + 1, caret);
  if (!QUERY_PATTERN[kind].test(query)) return null;
  let end = caret;
  while (end < text.length && !isSpace(text[end])) end++;
  return { kind, start, end, query };
}

/** Prefix matches first, then a match at the start of a path segment or word, then anywhere; stable. */
export function rankCandidates(candidates: readonly Candidate[], query: string, limit = 50): Candidate[] {
  const q = query.toLowerCase();
  if (!q) return candidates.slice(0, limit);
  const tiers: Candidate[][] = [[], [], []];
  for (const candidate of candidates) {
    const value = candidate.value.toLowerCase();
    const at = value.indexOf(q);
    if (at === 0) tiers[0]?.push(candidate);
    else if (at > 0 && /[/\-_. ]/.test(value[at - 1] ?? "")) tiers[1]?.push(candidate);
    else if (at > 0) tiers[2]?.push(candidate);
  }
  return tiers.flat().slice(0, limit);
}

/** Replaces the typed word with the reference; a space follows unless one already does or it is a folder. */
export function applyCandidate(text: string, trigger: Trigger, candidate: Candidate): { text: string; caret: number } {
  const reference = SIGILS[trigger.kind] + candidate.value;
  const after = text.slice(trigger.end);
  const before = text.slice(0, trigger.start);
  if (candidate.folder) return { text: before + reference + after, caret: before.length + reference.length };
  if (isSpace(after[0])) return { text: before + reference + after, caret: before.length + reference.length + 1 };
  return { text: `${before}${reference} ${after}`, caret: before.length + reference.length + 1 };
}

/** Notes and the folders that hold them, each folder listed once, just before its first note. */
export function noteCandidates(paths: readonly string[]): Candidate[] {
  const out: Candidate[] = [];
  const folders = new Set<string>();
  for (const path of paths) {
    const parts = path.split("/");
    for (let i = 1; i < parts.length; i++) {
      const folder = `${parts.slice(0, i).join("/")}/`;
      if (folders.has(folder) || !REFERABLE_NOTE_PATH.test(folder)) continue;
      folders.add(folder);
      out.push({ value: folder, detail: "folder", folder: true });
    }
    if (REFERABLE_NOTE_PATH.test(path)) out.push({ value: path });
  }
  return out;
}
