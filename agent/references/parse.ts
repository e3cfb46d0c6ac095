// References in a user's message (seed 002): `@path` attaches a note (a folder: its listing),
// `#slug` a knowledge entry, `/slug` runs a saved workflow. A reference starts the message or follows
// whitespace, so e-mail addresses, URLs and "a/b" paths in prose are left alone.
export type Reference =
  | { kind: "file"; path: string }
  | { kind: "knowledge"; slug: string }
  | { kind: "workflow"; slug: string };

const PATTERN =
  /(?<=^|\s)(?:@([A-Za-z0-9_][A-Za-z0-9_./-]*)|#([a-z][a-z0-9-]{0,39})|\/([a-z][a-z0-9-]{0,39}))(?=$|[\s,;:!?)]|\.(?:\s|$))/g;

export function parseReferences(text: string): Reference[] {
  const seen = new Set<string>();
  const out: Reference[] = [];
  for (const match of text.matchAll(PATTERN)) {
    const [, path, knowledge, workflow] = match;
    const reference: Reference | undefined = path
      ? { kind: "file", path: path.replace(/\.+$/, "") }
      : knowledge
        ? { kind: "knowledge", slug: knowledge }
        : workflow
          ? { kind: "workflow", slug: workflow }
          : undefined;
    if (!reference) continue;
    const key = JSON.stringify(reference);
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(reference);
  }
  return out;
}
