// The Markdown lexer chunk (loaded by lib/markdown.ts's loadMarkdown): marked's lexer with GFM
// footnotes (marked-footnote: [^1] and its "[^1]: text" definition) and the maths delimiters of
// lib/math-syntax.ts, and the mapping of its tokens to lib/markdown.ts's nodes (lib/markdown-tree.ts).
// Only tokens and nodes come out; nothing here renders HTML.
import { Marked, type Token, type Tokens } from "marked";
import markedFootnote from "marked-footnote";
import type { WebSource } from "../../../protocol";
import type { MdNode } from "./markdown";
import { parseTokens } from "./markdown-tree";
import { blockMath, inlineMath } from "./math-syntax";

/**
 * marked-footnote keeps per-parse state in its extension (it resets it in walkTokens), so a lexer that
 * threw is replaced by a fresh one rather than reused with that state half set.
 */
function createMarked(): Marked {
  return new Marked(markedFootnote(), { extensions: [blockMath, inlineMath] });
}

let marked = createMarked();

/** A task item's box with the name a screen reader reads for it (lib/markdown.ts gives it to the box). */
export type NamedCheckbox = Tokens.Checkbox & { label?: string };

/** The words of tokens as they read, without a nested list's: the name of a task item's box. */
function words(tokens: Token[]): string {
  return tokens
    .map((t) => {
      if (t.type === "list") return "";
      if (t.type === "br") return " ";
      if ("tokens" in t && t.tokens) return words(t.tokens);
      return t.type === "checkbox" || !("text" in t) ? "" : String(t.text);
    })
    .join("");
}

/**
 * Names a task item's checkbox by the item's own words (its first paragraph in a loose list): a box with
 * no name is what axe-core calls a critical fault, and "checkbox, not checked" alone says nothing.
 */
function nameTaskBox(token: Token): void {
  if (token.type !== "list_item" || !(token as Tokens.ListItem).task) return;
  const first = (token as Tokens.ListItem).tokens[0];
  const line = first?.type === "checkbox" ? (token as Tokens.ListItem).tokens : (first as Tokens.Paragraph)?.tokens;
  const box = line?.find((t) => t.type === "checkbox") as NamedCheckbox | undefined;
  if (box && line) box.label = words(line).replace(/\s+/g, " ").trim() || "Task";
}

/** The tokens of a Markdown text (GFM, single line breaks kept); a `footnotes` token holds the notes. */
export function lex(source: string): Token[] {
  try {
    // Fresh options per call: the lexer stores its tokenizer on the object it is given.
    const tokens = marked.lexer(source, { ...marked.defaults, gfm: true, breaks: true });
    const walk = marked.defaults.walkTokens;
    if (walk) marked.walkTokens(tokens, walk);
    marked.walkTokens(tokens, nameTaskBox);
    return tokens;
  } catch (error) {
    marked = createMarked();
    throw error;
  }
}

/** A text's tree of nodes (lib/markdown.ts parseMarkdown); `sources`: an answer's, its citations linked. */
export function parse(source: string, sources?: readonly WebSource[]): MdNode[] {
  return parseTokens(lex(source), sources);
}
