// A search snippet's parts: the server marks each hit between « and » (d1/conversation-search.ts
// HIGHLIGHT). A stray « or » (an unmatched one, or one the text itself holds) stays the character it is.
export type SnippetPart = { text: string; hit: boolean };

const HIT = /«([^«»]*)»/g;

export function snippetParts(snippet: string): SnippetPart[] {
  const parts: SnippetPart[] = [];
  let last = 0;
  for (const match of snippet.matchAll(HIT)) {
    if (match.index > last) parts.push({ text: snippet.slice(last, match.index), hit: false });
    if (match[1]) parts.push({ text: match[1], hit: true });
    last = match.index + match[0].length;
  }
  if (last < snippet.length) parts.push({ text: snippet.slice(last), hit: false });
  return parts;
}
