// Tool outcomes in words, for the demo's answers, observations and wrap-ups: what a person reads, so
// tools go by their labels (protocol/tool-words.ts), never their names, and a call the user did not
// approve is said in the demo's own words, never by repeating what the model was told about it.
import { toolWords } from "../../protocol";
import { notApprovedReason } from "../tools/not-approved";
import { DELEGATE } from "./intent";
import type { ToolOutcome } from "./prompt-reading";
import { arrayField, clip, count, field } from "./text";

const rawError = (r: ToolOutcome) => (typeof r.value === "string" ? r.value : JSON.stringify(r.value));

/** Why a call did not run for want of approval, if so: the user said no, nobody decided in time, or it could not be asked. */
export function refusal(r: ToolOutcome | undefined): "denied" | "timed_out" | "unavailable" | undefined {
  if (!r || r.ok) return undefined;
  const reason = notApprovedReason(r.tool, rawError(r));
  return reason === "aborted" ? undefined : reason;
}

const REFUSED: Record<NonNullable<ReturnType<typeof refusal>>, string> = {
  denied: "you did not approve it, so it did not run",
  timed_out: "nobody approved it in time, so it did not run",
  unavailable: "it needs your approval, which a subagent cannot ask for",
};

export const errorText = (r: ToolOutcome) => {
  const refused = refusal(r);
  return refused ? REFUSED[refused] : clip(rawError(r), 200);
};

/** One sentence per tool outcome, for observations and wrap-ups. */
export function describe(r: ToolOutcome): string {
  if (!r.ok) return `${toolWords(r.tool)}: ${errorText(r)}.`;
  switch (r.tool) {
    case "vault_search": {
      const hits = arrayField(r.value, "results");
      return hits.length
        ? `The search found ${count(hits.length, "note")} (${hits.map((h) => String(field(h, "path"))).join(", ")}).`
        : "The search found no matching notes.";
    }
    case "vault_list":
      return `Your notes: ${count(arrayField(r.value, "notes").length, "note")}.`;
    case "vault_read":
      return `I opened ${String(field(r.value, "path") ?? "the note")}.`;
    case "vault_write":
      return `I saved ${String(field(r.value, "path") ?? "the note")}.`;
    case "task_create":
      return `I added the task “${String(field(r.value, "title") ?? "a task")}”.`;
    case "task_list":
      return `Your tasks: ${count(arrayField(r.value, "tasks").length, "task")}.`;
    case DELEGATE:
      return `A subagent answered in ${count(Number(field(r.value, "steps") ?? 0), "step")}.`;
    case "schedule":
      return `I saved the schedule “${String(field(r.value, "name") ?? "the schedule")}” (${String(field(r.value, "rule") ?? "?")}).`;
    case "request_input":
      return `You answered “${String(field(r.value, "answer") ?? "")}”.`;
    default:
      return `${toolWords(r.tool)} returned ${clip(JSON.stringify(r.value) ?? "nothing", 120)}.`;
  }
}

export function summarize(results: ToolOutcome[]): string {
  return results.map(describe).join(" ");
}
