// A notification's line for people. The headline a subscriber's template writes is also what the model
// reads, so it names tools by their names and may advise the model ("Consider wrapping up your
// response."); for the shipped subscribers that do, the card says the same from the notice's data in
// the user's words: tools by their labels, no advice to the model. Any other notice keeps its headline.
import { type SystemItem, toolWords } from "../../../protocol";
import { plural } from "./plural";

type Notification = Extract<SystemItem, { kind: "notification" }>;
type Row = Record<string, unknown>;

export const isRecord = (value: unknown): value is Row =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** The notice's data as rows: one per event (a batch), or the one event. */
export function rows(item: Notification): Row[] {
  if (Array.isArray(item.data)) return item.data.filter(isRecord);
  return isRecord(item.data) ? [item.data] : [];
}

const num = (n: unknown) => (typeof n === "number" ? n.toLocaleString("en-US") : String(n));
const tool = (row: Row) => toolWords(String(row.tool));
const count = (row: Row) => (typeof row.count === "number" ? row.count : 1);

/** "Search notes", "Search notes and Read a note". */
const and = (words: string[]) => (words.length > 1 ? `${words.slice(0, -1).join(", ")} and ${words.at(-1)}` : words[0]);

function toolCalls(list: Row[], verb: string): string {
  const tools = [...new Set(list.map(tool))];
  const times = list.reduce((n, row) => n + count(row), 0);
  if (tools.length === 1) return `${tools[0]} ${verb}${times > 1 ? ` ${times} times` : ""}`;
  return `${times} tool calls ${verb}: ${tools.join(", ")}`;
}

function loop(row: Row): string {
  const times = num(row.count);
  switch (row.kind) {
    case "repeat":
      return `${tool(row)} ran ${times} times in a row with the same input`;
    case "alternation":
      return `going back and forth between ${and((Array.isArray(row.tools) ? row.tools : []).map((t) => toolWords(String(t))))} (${times} calls)`;
    case "repeated_error":
      return `${tool(row)} failed ${times} times in a row with the same error`;
    default:
      return "the same steps again and again";
  }
}

function budget(row: Row): string {
  switch (row.budget) {
    case "iterations":
      return `Close to the step limit: ${num(row.used)} of ${plural(Number(row.limit), "step")} used`;
    case "tokens":
      return `Close to the token budget: ${num(row.percent)}% used (${num(row.used)} of ${num(row.limit)} tokens)`;
    case "time":
      return `Close to the time limit: ${num(row.percent)}% used (${num(row.used)} of ${num(row.limit)} s)`;
    default:
      return `Close to a limit (${String(row.budget)})`;
  }
}

/**
 * The quota meter's sentence (the payload's `message`, the headline) tells the user how much of which
 * quota is used and when it resets, then asks the agent to keep its answer short: the card keeps the
 * first part. Without a headline, the figures of the data say it.
 */
function quota(list: Row[], headline: string): string {
  const said = headline.replace(/\s*Keep the rest of this answer short\.?\s*$/, "").trim();
  if (said) return said;
  const row = list.at(-1) ?? {};
  return `${num(row.percent)}% of ${row.period === "month" ? "this month's" : "today's"} quota on this server's models is used`;
}

const SAYINGS: Record<string, (list: Row[], headline: string) => string> = {
  tool_failure: (list) => toolCalls(list, list.every((r) => r.error_type === "timeout") ? "timed out" : "failed"),
  tool_success: (list) => toolCalls(list, "succeeded"),
  loop_detected: (list) => `Loop detected: ${list.map(loop).join("; ")}`,
  budget_warning: (list) => list.map(budget).join("; "),
  quota_warning: quota,
};

/** The notice's line for people, from its data where a shipped subscriber's headline is worded for the model; else `fallback` (the headline). */
export function plainHeadline(item: Notification, fallback: string): string {
  const say = SAYINGS[item.subscriber ?? ""];
  const list = rows(item);
  return say && list.length ? say(list, fallback) : fallback;
}
