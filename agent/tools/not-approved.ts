// What the model reads as the result of a call that did not run for want of approval, and which of
// those a result is. Apart from approval.ts (which knows the tools) so the demo model, which answers
// such a result in its own words, needs nothing else.
import type { ApprovalDecision } from "../../protocol";

type NotApproved = ApprovalDecision | "aborted" | "unavailable";

/** Which refusal a call's error text is (notApprovedText's own words), if it is one: the demo model answers it in its own words. */
export function notApprovedReason(tool: string, error: string): Exclude<NotApproved, "approved"> | undefined {
  return (["denied", "timed_out", "unavailable", "aborted"] as const).find((d) => notApprovedText(tool, d) === error);
}

/** What the model reads as the result of a call that did not run for want of approval. */
export function notApprovedText(tool: string, decision: NotApproved): string {
  switch (decision) {
    case "denied":
      return `The user denied this call of ${tool}, so it did not run. Do not call it again unless the user asks; say what you would have done instead.`;
    case "timed_out":
      return `Not run: this call of ${tool} needs the user's approval, and nobody approved it in time.`;
    case "unavailable":
      return `Not run: ${tool} needs the user's approval, which a subagent cannot ask for. Leave this to the main agent.`;
    default:
      return "Cancelled: the turn was stopped while this call waited for approval";
  }
}
