// Tool outcomes in words, for the demo's answers, observations and wrap-ups.
import { DELEGATE } from "./intent";
import type { ToolOutcome } from "./prompt-reading";
import { arrayField, clip, count, field } from "./text";

export const errorText = (r: ToolOutcome) => clip(typeof r.value === "string" ? r.value : JSON.stringify(r.value), 200);

/** One sentence per tool outcome, for observations and wrap-ups. */
export function describe(r: ToolOutcome): string {
  if (!r.ok) return `${r.tool} failed: ${errorText(r)}.`;
  switch (r.tool) {
    case "vault_search": {
      const hits = arrayField(r.value, "results");
      return hits.length
        ? `vault_search found ${count(hits.length, "note")} (${hits.map((h) => String(field(h, "path"))).join(", ")}).`
        : "vault_search found no matching notes.";
    }
    case "vault_list":
      return `vault_list shows ${count(arrayField(r.value, "notes").length, "note")}.`;
    case "vault_read":
      return `vault_read opened ${String(field(r.value, "path") ?? "the note")}.`;
    case "vault_write":
      return `vault_write saved ${String(field(r.value, "path") ?? "the note")}.`;
    case "task_create":
      return `task_create added “${String(field(r.value, "title") ?? "a task")}”.`;
    case "task_list":
      return `task_list shows ${count(arrayField(r.value, "tasks").length, "task")}.`;
    case DELEGATE:
      return `delegate: subagent ${String(field(r.value, "pod_name") ?? "?")} answered in ${count(Number(field(r.value, "steps") ?? 0), "step")}.`;
    case "schedule":
      return `schedule saved “${String(field(r.value, "name") ?? "the schedule")}” (${String(field(r.value, "rule") ?? "?")}).`;
    case "request_input":
      return `The user answered “${String(field(r.value, "answer") ?? "")}”.`;
    default:
      return `${r.tool} returned ${clip(JSON.stringify(r.value) ?? "nothing", 120)}.`;
  }
}

export function summarize(results: ToolOutcome[]): string {
  return results.map(describe).join(" ");
}
