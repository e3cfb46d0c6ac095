// The words of voice: an answer's Markdown as the plain text a speech synthesiser reads (no asterisks,
// no link addresses; code and formulas named, not spelled out), cut into pieces short enough that a
// browser does not stop mid-way (Chrome cuts an utterance off after about 15 s), and dictated words
// joined to what the message box already holds. An answer's citations ("[1]", "[1, 2]") are not read:
// they are links to its sources, not words. Pure functions: test/node/speech-text.test.ts.
import { citationGroups } from "../../../protocol";
import type { MdNode } from "./markdown";

const BLOCKS = new Set(["p", "h1", "h2", "h3", "h4", "h5", "h6", "blockquote", "li", "tr", "ul", "ol", "table"]);
const ENDS_SENTENCE = /[.!?…:;]["'”’)]*$/;

/** A block's words as a sentence of their own, so the voice pauses after them. */
function sentence(text: string): string {
  const words = text.replace(/\s+/g, " ").trim();
  if (!words) return "";
  return ENDS_SENTENCE.test(words) ? words : `${words}.`;
}

/** A text without its citations of sources. */
function withoutCitations(text: string): string {
  let out = text;
  for (const group of citationGroups(text).reverse()) out = out.slice(0, group.start) + out.slice(group.end);
  return out;
}

function spoken(node: MdNode): string {
  switch (node.kind) {
    case "text":
      return withoutCitations(node.text);
    case "codespan":
      return node.text;
    case "link":
      return node.children.map(spoken).join("");
    case "code":
      return sentence("A code block");
    case "math":
      return node.display ? ` ${sentence("A formula")} ` : "a formula";
    case "element": {
      if (node.cite) return "";
      if (node.tag === "br") return " ";
      if (node.tag === "hr") return " ";
      if (node.tag === "th" || node.tag === "td") return `${node.children.map(spoken).join("")}, `;
      const inner = node.children.map(spoken).join("");
      if (node.tag === "tr") return ` ${sentence(inner.replace(/,\s*$/, ""))} `;
      return BLOCKS.has(node.tag) ? ` ${sentence(inner)} ` : inner;
    }
    default:
      return ""; // footnote marks and notes, task checkboxes
  }
}

/** The text to read aloud: the parsed answer, or its source when Markdown is not loaded. */
export function speechText(nodes: MdNode[] | null, source: string): string {
  const text = nodes ? nodes.map(spoken).join(" ") : withoutCitations(source);
  return text
    .replace(/\s+/g, " ")
    .replace(/\s+([.,;:!?])/g, "$1")
    .trim();
}

/** `text` in pieces of at most `max` characters, cut between sentences where it can, else between words. */
export function speechChunks(text: string, max = 200): string[] {
  const chunks: string[] = [];
  let current = "";
  const add = (piece: string) => {
    if (current && current.length + 1 + piece.length > max) {
      chunks.push(current);
      current = piece;
    } else current = current ? `${current} ${piece}` : piece;
  };
  const sentences = text.replace(/([.!?…]["'”’)]*)\s+/g, "$1\n").split("\n");
  for (const one of sentences) {
    if (one.length <= max) {
      if (one) add(one);
      continue;
    }
    for (const word of one.split(" ")) {
      for (let at = 0; at < word.length; at += max) add(word.slice(at, at + max));
    }
  }
  if (current) chunks.push(current);
  return chunks;
}

/** The message box after dictation: what was there, then what was heard (one space between). */
export function withDictation(before: string, heard: string): string {
  const words = heard.replace(/\s+/g, " ").trim();
  if (!words) return before;
  return before === "" || /\s$/.test(before) ? `${before}${words}` : `${before} ${words}`;
}

/** A recognition error in words a person can act on; null for one the app caused (it stopped listening). */
export function dictationProblem(code: string): string | null {
  switch (code) {
    case "aborted":
      return null;
    case "not-allowed":
    case "service-not-allowed":
      return "Dictation needs the microphone, and permission was denied: allow the microphone for this site in the browser's settings, then try again.";
    case "no-speech":
      return "No speech was heard. Tap the microphone and speak.";
    case "audio-capture":
      return "No microphone was found. Connect one, or type the message.";
    case "network":
      return "Dictation needs a connection to the browser's speech service. Check your connection.";
    case "language-not-supported":
      return "Dictation does not support your browser's language.";
    default:
      return `Dictation stopped (${code}). Try again, or type the message.`;
  }
}
