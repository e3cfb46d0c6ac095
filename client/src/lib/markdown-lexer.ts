// The Markdown lexer chunk (loaded by lib/markdown.ts's loadMarkdown): marked's lexer with GFM
// footnotes (marked-footnote: [^1] and its "[^1]: text" definition) and the maths delimiters of
// lib/math-syntax.ts. Only tokens come out; nothing here renders HTML.
import { Marked, type Token } from "marked";
import markedFootnote from "marked-footnote";
import { blockMath, inlineMath } from "./math-syntax";

/**
 * marked-footnote keeps per-parse state in its extension (it resets it in walkTokens), so a lexer that
 * threw is replaced by a fresh one rather than reused with that state half set.
 */
function createMarked(): Marked {
  return new Marked(markedFootnote(), { extensions: [blockMath, inlineMath] });
}

let marked = createMarked();

/** The tokens of a Markdown text (GFM, single line breaks kept); a `footnotes` token holds the notes. */
export function lex(source: string): Token[] {
  try {
    // Fresh options per call: the lexer stores its tokenizer on the object it is given.
    const tokens = marked.lexer(source, { ...marked.defaults, gfm: true, breaks: true });
    const walk = marked.defaults.walkTokens;
    if (walk) marked.walkTokens(tokens, walk);
    return tokens;
  } catch (error) {
    marked = createMarked();
    throw error;
  }
}
