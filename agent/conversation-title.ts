// The title the model writes for a conversation after its first answer (durable-objects/conversation/
// conversation-titles.ts runs it, off the turn's path). One tiny request: a fixed system prompt that
// begins with TITLE_REQUEST_TAG (so a fake model server, and the demo model, can tell it from a turn's
// request), the first message and the start of the answer, no tools, a few output tokens, no retries.
// The demo model answers it with demoTitle, the first message's subject in its own words.
import type { LanguageModelV3, LanguageModelV3Prompt } from "@ai-sdk/provider";
import { cleanModelTitle, plainFirstLine } from "../core/title-text";
import type { Message } from "../protocol";
import { modelWords } from "./explanations";
import { callModel } from "./llm/call-model";

export const TITLE_REQUEST_TAG = "[Title request]";
const TITLE_SYSTEM = `${TITLE_REQUEST_TAG} Write a title for the conversation below: at most 6 words, plain text, no markdown, no quotes, no trailing punctuation, in the language of the user's message. Reply with the title only.`;
/** Enough of each text for a title; the rest only costs tokens. */
const EXCERPT_CHARS = 1_000;
export const TITLE_MAX_OUTPUT_TOKENS = 24;
export const TITLE_TIMEOUT_MS = 20_000;

export function titlePrompt(firstMessage: string, answer: string): LanguageModelV3Prompt {
  const text = `${FIRST_MESSAGE_HEADER}${firstMessage.slice(0, EXCERPT_CHARS)}${ANSWER_HEADER}${answer.slice(0, EXCERPT_CHARS)}`;
  return [
    { role: "system", content: TITLE_SYSTEM },
    { role: "user", content: [{ type: "text", text }] },
  ];
}

const FIRST_MESSAGE_HEADER = "User's first message:\n";
const ANSWER_HEADER = "\n\nAssistant's answer (start):\n";

/** The first message a title prompt carries (what the demo model names the conversation after). */
export function firstMessageOfTitlePrompt(prompt: LanguageModelV3Prompt): string {
  const user = prompt[1];
  const text = user?.role === "user" ? user.content.map((p) => (p.type === "text" ? p.text : "")).join("") : "";
  const start = text.indexOf(FIRST_MESSAGE_HEADER);
  const end = text.lastIndexOf(ANSWER_HEADER);
  return start < 0 ? text : text.slice(start + FIRST_MESSAGE_HEADER.length, end < 0 ? undefined : end);
}

/** True for the title request's prompt (the demo model answers it with demoTitle). */
export const isTitlePrompt = (prompt: LanguageModelV3Prompt) =>
  prompt[0]?.role === "system" && prompt[0].content.startsWith(TITLE_REQUEST_TAG);

/** The model's title, cleaned (d1/titles.ts); undefined when it wrote nothing usable. Throws when the call fails. */
export async function generateTitle(
  model: LanguageModelV3,
  firstMessage: string,
  answer: string,
  signal: AbortSignal,
): Promise<string | undefined> {
  const result = await callModel({
    model,
    prompt: titlePrompt(firstMessage, answer),
    maxOutputTokens: TITLE_MAX_OUTPUT_TOKENS,
    signal,
    // No retries: a title is not worth waiting for, and a failed one changes nothing.
    deadline: Date.now(),
  });
  return cleanModelTitle(result.text) || undefined;
}

/**
 * The first message and the answer to it, once a turn answered it: a stopped answer counts (with what
 * was streamed before Stop, maybe nothing), a failed model call does not (a title call would likely fail
 * too; a later turn asks). The answer is the model's words, without the product's note.
 */
export function firstExchange(messages: readonly Message[]): { question: string; answer: string } | undefined {
  const first = messages.findIndex((m) => m.role === "user");
  if (first < 0) return undefined;
  const answer = messages
    .slice(first + 1)
    .find((m) => m.role === "agent" && m.phase === "final" && m.termination_reason !== "llm_error");
  const question = messages[first];
  if (question?.role !== "user" || answer?.role !== "agent") return undefined;
  return { question: question.content, answer: modelWords(answer) };
}

/** What a request opens with that says nothing of its subject: greetings, "please", "can you", "tell me". */
const OPENERS =
  /^(?:(?:hi|hello|hey|ok|okay|so|please)\b[\s,.!]*|(?:can|could|would|will) you\s+(?:please\s+)?|i(?:'d| would) like (?:you )?to\s+|i (?:want|need) (?:you )?to\s+|(?:tell|show|give) me\s+|help me (?:to\s+)?|let's\s+)+/i;
/** Words a title does not end on (nor begin with, for the articles). */
const DANGLING = new Set(
  (
    "a an the and or but nor of to in on at by for with from about as into onto over under than then so " +
    "that this these those is are was were be been am do does did can could would should will shall may " +
    "might must my your our its their his her some any very also please called named if when while"
  ).split(" "),
);
/** A demo title's length at most, cut at a word: about what the sidebar shows. */
const DEMO_TITLE_CHARS = 40;

const bare = (word: string) => word.toLowerCase().replace(/[^\p{L}\p{N}']+/gu, "");

/**
 * The demo model's title: the subject of the first message in its own words, as a reader would name it.
 * Its plain first line (markdown stripped, a call's JSON arguments left out), without an opener ("Can
 * you", "Tell me"), its first sentence, at most about 40 characters cut at a word, not ending on a word
 * that leaves it hanging ("with", "the"), capitalised: "Tell me a long story" → "Long story", "What
 * tasks are open?" → "What tasks are open". Two different messages get two different titles (never one
 * generic name); empty only when the message has no word at all.
 */
export function demoTitle(firstMessage: string): string {
  const line = plainFirstLine(firstMessage.replace(/(\w)__(?=\w)/g, "$1 ")) // an MCP tool's name: server__tool
    .replace(/[{[].*$/, " ") // arguments written out as JSON
    .replace(/\s+/g, " ")
    .trim();
  const stripped = line.replace(OPENERS, "");
  const subject = stripped.split(" ").filter(Boolean).length >= 2 ? stripped : line;
  const sentence = /^(.+?[^\s.!?])[.!?](?:\s|$)/.exec(subject)?.[1] ?? subject;
  const text = sentence.split(" ").length >= 2 ? sentence : subject;
  const all = text.split(" ");
  if (all.every((w) => DANGLING.has(bare(w)))) return capitalised(cleanModelTitle(text));
  const words: string[] = [];
  for (const word of all) {
    if (words.length > 0 && [...words, word].join(" ").length > DEMO_TITLE_CHARS) break;
    words.push(word);
  }
  // Cut short, it does not end on a word that needs the rest ("with", "the"); whole, only "please" goes.
  const whole = words.length === all.length;
  // Cut short: at the end of a clause, when one ends in what is kept ("…called ideas: try the" → "…called ideas").
  const clause = whole ? -1 : words.findLastIndex((w, i) => i >= 2 && /[,:;]$/.test(w));
  if (clause > 0) words.splice(clause + 1);
  const hanging = (word: string) => (whole ? bare(word) === "please" : DANGLING.has(bare(word)));
  while (words.length > 1 && hanging(words.at(-1) ?? "")) words.pop();
  while (words.length > 1 && /^(?:a|an|the)$/.test(bare(words[0] ?? ""))) words.shift();
  return capitalised(cleanModelTitle(words.join(" ")));
}

const capitalised = (title: string) => title.charAt(0).toUpperCase() + title.slice(1);
