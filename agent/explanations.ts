// The inline explanation a final answer carries when the turn did not simply complete (seed 001
// FR-007): which limit, with its figures, and what the user can do.
import type { TerminationReason } from "../protocol";
import { type AgentState, tokensUsed } from "./state";

export function explainTermination(reason: TerminationReason, s: AgentState): string | undefined {
  const c = s.config;
  const last = s.actions.at(-1);
  switch (reason) {
    case "completed":
      return undefined;
    case "user_cancelled":
      return "Stopped by the user.";
    case "max_iterations":
      return `Stopped at the iteration limit (${s.step}/${c.maxIterations}). Raise "Max iterations" in Settings, or ask me to continue.`;
    case "token_budget":
      return `Stopped because the token budget was used up (${tokensUsed(s).toLocaleString("en-US")} of ${c.tokenBudget.toLocaleString("en-US")} tokens).`;
    case "timeout":
      return `Stopped at the time limit of ${c.timeoutSeconds} s.`;
    case "no_progress":
      return `Stopped because I was repeating myself without progress (${last ? `${last.tool} with the same arguments` : "the same action"}).`;
    case "error_limit":
      return sentence(
        `Stopped after ${s.consecutiveErrors} tool errors in a row${last?.error ? `; the last one: ${last.error}` : ""}`,
      );
    case "input_timeout":
      return `Stopped because my question was not answered within ${c.requestInputTimeoutSeconds} s.`;
    case "llm_error":
      return sentence(`The model call failed: ${s.llmError || "unknown error"}`);
    case "quota_exceeded":
      return s.quotaReached ?? "Stopped because your quota on this server's models is used up.";
    case "interrupted":
      return "Stopped because the server restarted 3 times while I worked on this, so something in this turn may be making it crash. What I did so far is above; send your message again to try once more.";
  }
}

/** What a saved answer adds when the model stopped at its output limit (finish reason `length`). */
export const OUTPUT_LIMIT_NOTE = "The answer hit the model's output limit and may be incomplete.";

/**
 * Ends a sentence that quotes someone else's text (an error message) with one full stop: none is
 * added after terminal punctuation, even inside closing quotes or brackets ("lost." stays "lost.").
 */
export function sentence(text: string): string {
  const trimmed = text.trimEnd();
  return /[.!?…]["'”’)\]]*$/.test(trimmed) ? trimmed : `${trimmed}.`;
}

/** "vault_search ×2, vault_read" — what was attempted, for an answer that has nothing else to say. */
export function summarizeActions(s: AgentState): string {
  const counts = new Map<string, number>();
  for (const a of s.actions) counts.set(a.tool, (counts.get(a.tool) ?? 0) + 1);
  return [...counts].map(([tool, n]) => (n > 1 ? `${tool} ×${n}` : tool)).join(", ");
}

/** A turn's final message: `content` as saved and shown, and `note`, the product's own words in it. */
export interface FinalAnswer {
  content: string;
  /**
   * Why the turn ended, or what stands in for a missing answer: never the model's words, so never
   * replayed to it as its own (context/model-messages.ts). `content` ends with it.
   */
  note?: string;
}

/**
 * The final message of a turn: what there is, then why it ended or why it may be incomplete (the
 * answer hit the model's output limit). Never empty.
 */
export function composeFinal(
  text: string,
  reason: TerminationReason,
  s: AgentState,
  { outputLimited = false } = {},
): FinalAnswer {
  const discarded = s.discardedSubagents
    ? `${s.discardedSubagents === 1 ? "A subagent was" : `${s.discardedSubagents} subagents were`} stopped before finishing; its unfinished work was discarded.`
    : "";
  const why = [explainTermination(reason, s), discarded, outputLimited ? OUTPUT_LIMIT_NOTE : ""]
    .filter(Boolean)
    .join(" ");
  const body = text.trim();
  if (body) return why ? { content: `${body}\n\n— ${why}`, note: why } : { content: body };
  const instead = s.actions.length
    ? `I did not get to an answer. What I tried: ${summarizeActions(s)}.`
    : why
      ? ""
      : "(The model returned an empty answer.)";
  const note = [instead, why].filter(Boolean).join(" ");
  return { content: note, note };
}

/** What the model itself wrote in a final message: its content without the product's note. */
export function modelWords(message: { content: string; note?: string }): string {
  const { content, note } = message;
  if (!note) return content;
  if (content === note) return "";
  const suffix = `\n\n— ${note}`;
  return content.endsWith(suffix) ? content.slice(0, -suffix.length) : content;
}
