// A conversation title's text as plain logic (no D1 here, so Node tests and the agent use it too): the
// first message made into a title (markdown stripped) and a model's reply made into one. The rules of
// who may name a conversation when are in titles.ts.

/** What a conversation is called until its first message names it. */
export const DEFAULT_TITLE = "New conversation";
/** The longest title the sidebar is given (the first message's is cut with an ellipsis). */
export const MAX_TITLE_LENGTH = 60;

export type TitleSource = "default" | "first_message" | "model" | "user";

const oneLine = (text: string) => text.replace(/\s+/g, " ").trim();

/** Markdown's marks taken off one line of text, leaving the words a reader sees. */
function stripInline(line: string): string {
  return (
    line
      // Images and links keep their text; autolinks and bare tags go.
      .replace(/!\[([^\]]*)\]\([^)]*\)/g, "$1")
      .replace(/\[([^\]]*)\]\([^)]*\)/g, "$1")
      .replace(/<\/?[A-Za-z][^>]*>/g, " ")
      // Block marks at the start: headings, quotes, list bullets and numbers, task boxes.
      .replace(/^\s*(?:#{1,6}\s+|>\s*)+/, "")
      .replace(/^\s*(?:[-*+]|\d+[.)])\s+(?:\[[ xX]\]\s+)?/, "")
      // Emphasis, strikethrough and code marks (an underscore inside a word, as in snake_case, stays).
      .replace(/(\*{1,3}|~~|`+)/g, "")
      .replace(/(^|[^\p{L}\p{N}])_{1,3}(?=\S)/gu, "$1")
      .replace(/(\S)_{1,3}(?=[^\p{L}\p{N}]|$)/gu, "$1")
  );
}

/** The first line with words on it, markdown stripped (a code fence's own line is skipped, its code is not). */
export function plainFirstLine(content: string): string {
  for (const raw of content.split("\n")) {
    if (/^\s*(```|~~~)/.test(raw) || /^\s*([-*_]\s*){3,}$/.test(raw)) continue;
    const line = oneLine(stripInline(raw));
    if (/[\p{L}\p{N}]/u.test(line)) return line;
  }
  return "";
}

const cut = (line: string) =>
  line.length > MAX_TITLE_LENGTH ? `${line.slice(0, MAX_TITLE_LENGTH - 1).trimEnd()}…` : line;

/** A title from the start of a message's first line, markdown stripped. */
export function titleFrom(content: string): string {
  return cut(plainFirstLine(content));
}

/**
 * What a model wrote, made into a title: one plain line without markdown, a "Title:" label, quotes or
 * trailing punctuation, at most MAX_TITLE_LENGTH characters (cut at a word). Empty when nothing is left.
 */
export function cleanModelTitle(text: string): string {
  let line = plainFirstLine(text)
    .replace(/^(?:title|conversation title)\s*:\s*/i, "")
    .replace(/^["'“”‘’«»]+|["'“”‘’«»]+$/g, "")
    .replace(/[\s.,;:!?…·-]+$/u, "")
    .trim();
  if (line.length > MAX_TITLE_LENGTH) {
    const words = line.slice(0, MAX_TITLE_LENGTH + 1).split(" ");
    line = (words.length > 1 ? words.slice(0, -1).join(" ") : line.slice(0, MAX_TITLE_LENGTH)).replace(
      /[\s.,;:!?…·-]+$/u,
      "",
    );
  }
  return /[\p{L}\p{N}]/u.test(line) ? line : "";
}
