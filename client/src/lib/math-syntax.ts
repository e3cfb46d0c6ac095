// Where maths starts and ends in a model's Markdown: marked tokenizer extensions for $…$ and \(…\)
// inline, $$…$$ and \[…\] display. Only the TeX source is kept (a `math` token); KaTeX, in its own
// chunk, renders it later. Prices must stay text, so a single $ is maths only when the opening $ is
// not after a letter, digit or backslash and not before a space, and the closing $ is not after a space
// and not before a letter or digit (the rules Pandoc uses): "$5 and $10" and "US$5" are text, $E = mc^2$
// is maths. marked-katex-extension has near the same rules, but it imports KaTeX itself, and this runs
// on every message, so its rules are restated here.
import type { TokenizerExtension, Tokens } from "marked";

export interface MathToken extends Tokens.Generic {
  type: "math";
  raw: string;
  tex: string;
  display: boolean;
}

/** $…$: one line; the content does not start or end with a space; an escaped \$ does not close it. */
const INLINE_DOLLAR = /^\$(?![\s$])((?:\\.|[^\\\n$])*?(?:\\.|[^\\\s$]))\$(?![0-9A-Za-z])/;
/** $$…$$ inside a paragraph (may span lines; not across a blank line). */
const INLINE_DOUBLE = /^\$\$(?!\$)((?:\\.|[^\\$]|\$(?!\$))+?)\$\$/;
/** \(…\) inline. */
const INLINE_PAREN = /^\\\(((?:\\(?!\))|[^\\])+?)\\\)/;
/** A display block on its own lines: $$…$$ or \[…\], the closing delimiter ending its line. */
const BLOCK = /^ {0,3}(?:\$\$((?:\\.|[^\\$]|\$(?!\$))+?)\$\$|\\\[((?:\\(?!\])|[^\\])+?)\\\])[ \t]*(?:\n|$)/;

const mathToken = (raw: string, tex: string, display: boolean): MathToken | undefined => {
  const trimmed = tex.trim();
  // Not across a blank line (a paragraph break), and not empty.
  if (!trimmed || /\n[ \t]*\n/.test(tex)) return undefined;
  return { type: "math", raw, tex: trimmed, display };
};

/** Whether the text just before a $ rules it out as an opening (a price like US$5, an escaped \$). */
function glued(tokens: Tokens.Generic[]): boolean {
  const last = tokens.at(-1)?.raw ?? "";
  return /[0-9A-Za-z\\]$/.test(last);
}

export const inlineMath: TokenizerExtension = {
  name: "math",
  level: "inline",
  start(src: string) {
    const match = /\$|\\\(/.exec(src);
    return match ? match.index : undefined;
  },
  tokenizer(src: string, tokens: Tokens.Generic[]) {
    if (src.startsWith("\\(")) {
      const m = INLINE_PAREN.exec(src);
      return m ? mathToken(m[0], m[1] ?? "", false) : undefined;
    }
    if (!src.startsWith("$") || glued(tokens)) return undefined;
    const double = INLINE_DOUBLE.exec(src);
    if (double) return mathToken(double[0], double[1] ?? "", true);
    const single = INLINE_DOLLAR.exec(src);
    return single ? mathToken(single[0], single[1] ?? "", false) : undefined;
  },
};

export const blockMath: TokenizerExtension = {
  name: "math",
  level: "block",
  start(src: string) {
    const match = /(?:^|\n) {0,3}(?:\$\$|\\\[)/.exec(src);
    if (!match) return undefined;
    return match.index + (src[match.index] === "\n" ? 1 : 0);
  },
  tokenizer(src: string) {
    const m = BLOCK.exec(src);
    if (!m) return undefined;
    return mathToken(m[0], m[1] ?? m[2] ?? "", true);
  },
};
