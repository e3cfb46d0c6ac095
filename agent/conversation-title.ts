// The title the model writes for a conversation after its first answer (durable-objects/conversation/
// conversation-titles.ts runs it, off the turn's path). One tiny request: a fixed system prompt that
// begins with TITLE_REQUEST_TAG (so a fake model server, and the demo model, can tell it from a turn's
// request), the first message and the start of the answer, no tools, a few output tokens, no retries.
// The demo model answers it with demoTitle, a deterministic summary of the first message.
import type { LanguageModelV3, LanguageModelV3Prompt } from "@ai-sdk/provider";
import { cleanModelTitle, plainFirstLine } from "../core/title-text";
import type { Message } from "../protocol";
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

/** The first message and the answer to it, when a turn has answered it (not a failure, not a Stop). */
export function firstExchange(messages: readonly Message[]): { question: string; answer: string } | undefined {
  const first = messages.findIndex((m) => m.role === "user");
  if (first < 0) return undefined;
  const answer = messages
    .slice(first + 1)
    .find(
      (m) =>
        m.role === "agent" &&
        m.phase === "final" &&
        m.content.trim() !== "" &&
        m.termination_reason !== "llm_error" &&
        m.termination_reason !== "user_cancelled",
    );
  const question = messages[first];
  if (question?.role !== "user" || answer?.role !== "agent") return undefined;
  return { question: question.content, answer: answer.content };
}

const STOP_WORDS = new Set(
  (
    "a an the and or but if then so of to in on at by for with from about as into over under is are was were be " +
    "been am do does did can could would should will shall may might must i me my we our you your it its this that " +
    "these those there here what which who whom how why when where please tell give show let make just some any " +
    "call before after until while during than too very also"
  ).split(" "),
);

/**
 * The demo model's title: the first message's plain first line (markdown stripped), its first few
 * words that carry meaning (no stop words, no JSON or tool names' punctuation), capitalised.
 */
export function demoTitle(firstMessage: string): string {
  const words = plainFirstLine(firstMessage)
    .replace(/[{[(].*$/, " ") // arguments written out as JSON or a call's parentheses
    .split(/[\s_]+|__/)
    .map((w) => w.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, ""))
    .filter((w) => /[\p{L}\p{N}]/u.test(w) && !STOP_WORDS.has(w.toLowerCase()));
  const picked = words.slice(0, 5).join(" ");
  const title = cleanModelTitle(picked);
  return title ? title.charAt(0).toUpperCase() + title.slice(1) : "Quick chat";
}
