// Why a turn ended, in plain language: the UI never shows a raw termination code ("user_cancelled") or
// "after 1 steps". A failed turn (the model could not be reached, too many tool errors) reads as an
// error with what the user can do about it, derived from the saved answer's text.
import type { TerminationReason } from "../../../protocol";
import { plural } from "./plural";

/** One short sentence for how a turn ended, e.g. "You stopped this answer". */
export function terminationText(reason: TerminationReason, steps?: number): string {
  switch (reason) {
    case "completed":
      return "Answered";
    case "user_cancelled":
      return "You stopped this answer";
    case "max_iterations":
      return steps ? `Stopped at the step limit (${plural(steps, "step")})` : "Stopped at the step limit";
    case "token_budget":
      return "Stopped: the token budget for this answer ran out";
    case "timeout":
      return "Stopped: the time limit for this answer was reached";
    case "no_progress":
      return "Stopped: the agent kept repeating itself without progress";
    case "error_limit":
      return "Stopped after too many tool errors in a row";
    case "input_timeout":
      return "Stopped: the question to you was not answered in time";
    case "llm_error":
      return "The model could not be reached";
    case "interrupted":
      return "Stopped: the server restarted three times during this answer";
    case "quota_exceeded":
      return "Stopped: your quota on this server's models is used up";
  }
}

/** Reasons shown as an error bubble with Retry rather than as a note under the answer. */
export function isFailure(reason: TerminationReason | undefined): boolean {
  return reason === "llm_error" || reason === "error_limit" || reason === "interrupted";
}

export type FailureText = {
  /** The headline, e.g. "The model could not be reached (401 Unauthorized)." */
  title: string;
  /** What to do about it, e.g. "Check the API key." */
  hint: string;
  /** What the model wrote before the failure, if anything. */
  partial: string;
  /** The provider's own message, for whoever wants the detail. */
  detail: string;
};

const MODEL_FAILED = /^The model call failed:\s*/i;

/**
 * Splits a saved final answer into the text before its closing explanation ("\n\n— The model call
 * failed: …") and that explanation. A server that sends `note` says which the explanation is; an older
 * answer is read by its mark.
 */
function splitAnswer(content: string, note?: string): { body: string; why: string } {
  if (note !== undefined) {
    const suffix = `\n\n— ${note}`;
    if (content.endsWith(suffix)) return { body: content.slice(0, -suffix.length).trim(), why: note };
    return { body: content === note ? "" : content.trim(), why: note };
  }
  const at = content.lastIndexOf("\n\n— ");
  if (at >= 0) return { body: content.slice(0, at).trim(), why: content.slice(at + 4).trim() };
  return { body: "", why: content.trim() };
}

export type AnswerParts = {
  /** What the model wrote, as it reads in the bubble. */
  body: string;
  /** The one plain note on how the turn ended, or null when it simply completed. */
  note: string | null;
};

/**
 * A saved answer of a turn that did not simply complete ends with the agent's explanation ("…\n\n—
 * Stopped by the user."), which stays in what is persisted and replayed to the model. The bubble shows
 * the text without it and says how the turn ended once, in the note: "You stopped this answer", or the
 * agent's own explanation with its figures and what to do (e.g. the step limit and where to raise it).
 */
export function answerParts(content: string, reason: TerminationReason | undefined, note?: string): AnswerParts {
  if (!reason || reason === "completed") return { body: note ? splitAnswer(content, note).body : content, note: null };
  const plain = terminationText(reason);
  // Without the "\n\n— " mark the agent saved its explanation alone (there was no text), unless this
  // is an answer saved some other way: then the whole of it is text.
  const marked = note !== undefined || content.includes("\n\n— ");
  const { body, why } = splitAnswer(content, note);
  if (!marked && reason === "user_cancelled" && !/^Stopped by the user\./.test(why))
    return { body: content, note: plain };
  if (reason !== "user_cancelled") return { body, note: why || plain };
  const rest = why.replace(/^Stopped by the user\.\s*/, "").trim();
  return { body, note: rest ? `${plain}. ${rest}` : plain };
}

function modelFailure(detail: string): { title: string; hint: string } {
  const d = detail.toLowerCase();
  const status = /\b([45]\d\d)\b/.exec(detail)?.[1];
  if (status === "401" || /unauthori[sz]ed|api key|api_key|authentication|invalid.*key/.test(d))
    return { title: "The model could not be reached (401 Unauthorized).", hint: "Check the API key (OPENAI_API_KEY)." };
  if (status === "403" || /forbidden|permission/.test(d))
    return {
      title: "The model refused the request (403 Forbidden).",
      hint: "Check that the API key may use this model.",
    };
  if (status === "404" || /model.*(not found|does not exist)|no such model/.test(d))
    return { title: "The model was not found.", hint: "Check the model name (OPENAI_MODEL) and the base URL." };
  if (status === "429" || /rate limit|too many requests|quota/.test(d))
    return { title: "The model provider is limiting requests.", hint: "Wait a moment, then retry." };
  if (status?.startsWith("5") || /after \d+ retries|server error|internal error|overloaded|bad gateway/.test(d))
    return {
      title: "The model service failed.",
      hint: "It may be a passing problem on the provider's side: retry in a moment.",
    };
  if (/cut off|without a finish|ended without|stream/.test(d))
    return { title: "The model's answer was cut off.", hint: "Retry to get a complete answer." };
  if (/fetch failed|network|econnrefused|connect|timed? ?out|dns|enotfound/.test(d))
    return {
      title: "The model could not be reached (network).",
      hint: "Check the connection to the provider and its base URL.",
    };
  return { title: "The model call failed.", hint: "Retry, or check the model settings." };
}

/** The first sentence of the server's plain words, and the rest ("Check the key in Settings → Models."). */
function headline(words: string): { title: string; hint: string } {
  const end = /[.!?](?=\s+[A-Z(])/.exec(words);
  if (!end) return { title: words, hint: "Retry, or pick another model." };
  return { title: words.slice(0, end.index + 1), hint: words.slice(end.index + 1).trim() };
}

/**
 * Plain-language text for a failed turn's saved answer. A server that sends `note` has said what failed
 * and what to fix in plain words already (its first sentence is the headline); an older answer holds the
 * provider's own words, which are read for what they mean.
 */
export function describeFailure(reason: TerminationReason, content: string, note?: string): FailureText {
  const { body, why } = splitAnswer(content, note);
  if (note !== undefined && reason === "llm_error") {
    const words = why.replace(MODEL_FAILED, "").trim();
    return { ...headline(words), partial: body, detail: "" };
  }
  if (reason === "interrupted") {
    return {
      title: "The server restarted three times during this answer.",
      hint: "Something in this turn may be making it crash. What was done is in the steps above; retry to try once more.",
      partial: body,
      detail: why,
    };
  }
  if (reason === "error_limit") {
    return {
      title: "Stopped after too many tool errors in a row.",
      hint: "Rephrase the request or retry; the tool results are in the steps above.",
      partial: body,
      detail: why,
    };
  }
  const detail = why.replace(MODEL_FAILED, "").replace(/\.$/, "").trim();
  return { ...modelFailure(detail), partial: body, detail: detail || why };
}
