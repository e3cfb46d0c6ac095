// What a System item says to a person, in the words its card in the chat uses: shared by the chat's
// cards (client/src/lib/system-text.ts re-exports these) and the Markdown of an export, which the
// browser writes for one conversation and the Worker for a whole account (transcript-markdown.ts).
import type { PodEvent, SystemItem } from "./system-item";

/** A subagent by its task (“…”), or in general words for events stored before they carried it. */
const quoted = (task: string | undefined) => (task ? `“${task}”` : "");

/**
 * One sentence for a subagent ("pod") lifecycle event: the work it is about, never its pod name (which
 * the card keeps under Details).
 */
export function podEventLine(event: PodEvent): string {
  // A task that ends its own sentence ends this one: “… the notes.” rather than “… the notes.”.
  return podEventWords(event).replace(/([.!?…])”\.$/, "$1”");
}

function podEventWords(event: PodEvent): string {
  const task = quoted(event.task);
  switch (event.type) {
    case "turn_ended":
      return task ? `The subagent finished ${task}.` : "A subagent finished its work.";
    case "errored":
      return `${task ? `The subagent working on ${task}` : "A subagent"} failed: ${event.message}`;
    case "shut_down":
      return `${task ? `The subagent working on ${task}` : "A subagent"} was stopped.`;
    case "scope_sub_delegated":
      return `A subagent handed part of its work to another subagent${task ? `: ${task}` : ""}.`;
  }
}

type TaskReminder = Extract<SystemItem, { kind: "task_reminder" }>;

/** "“A”", "“A” and “B”", "“A”, “B” and 3 more": the reminder's tasks by title. */
function titles(item: TaskReminder): string {
  const names = (item.tasks ?? []).map((t) => `“${t.title}”`);
  const more = Math.max(0, (item.open ?? names.length) - names.length);
  if (more) names.push(`${more} more`);
  return names.length > 1 ? `${names.slice(0, -1).join(", ")} and ${names.at(-1)}` : (names[0] ?? "");
}

/** What a task reminder did, for the user: which open tasks the agent was reminded of, and why. */
export function reminderSentence(item: TaskReminder): string {
  const open = item.open ?? item.tasks?.length ?? 0;
  const named = titles(item);
  const what = named ? `your open task${open === 1 ? "" : "s"} ${named}` : "your open tasks";
  return `Reminded the agent of ${what}, as it had not checked your tasks for a while.`;
}

/** What an interrupt means for the user: the server restarted, and whether the answer went on. */
export function interruptSentence(item: Extract<SystemItem, { kind: "interrupt" }>): string {
  if (item.resumed) return "The server restarted during this answer; it went on from its last saved step.";
  const count = item.cancelled_calls ?? 0;
  const calls = count
    ? `, and ${count.toLocaleString("en-US")} running tool call${count === 1 ? "" : "s"} stopped`
    : "";
  const lost = item.resumed === false ? " Anything not shown above was lost." : "";
  return `The server restarted and cut this answer short${calls}.${lost}`;
}

/**
 * A reference item's body without its first line when that is the header the server put there
 * ("[File: a.md]", "[Dir: a/]", "[Knowledge: slug] Title", "[Workflow: /slug] Title"), plus the title
 * that header carried. Anything else is returned whole.
 */
export function splitReferenceBody(body: string): { title: string; content: string } {
  const match = /^\[(?:File|Dir|Knowledge|Workflow): [^\]\n]*\]([^\n]*)(?:\n|$)/.exec(body);
  if (!match) return { title: "", content: body };
  return { title: (match[1] ?? "").trim(), content: body.slice(match[0].length) };
}

/** What a compaction did to the model's context, in one line (the divider's title, a subagent's line). */
export function compactionTitle(item: Extract<SystemItem, { kind: "compaction" }>): string {
  return item.method === "cut" ? "Earlier messages shortened to fit the context window" : "Earlier messages summarised";
}

/** What offering a message's links meant, for the user: "Offered the agent the link example.com/a to read." */
export function linksSentence(urls: readonly string[]): string {
  const shown = urls.map((url) => url.replace(/^https?:\/\/(www\.)?/, "").replace(/\/$/, ""));
  const list = shown.length > 1 ? `${shown.slice(0, -1).join(", ")} and ${shown.at(-1)}` : (shown[0] ?? "");
  return `Offered the agent ${urls.length === 1 ? "the link" : "the links"} ${list} to read.`;
}

type ContextItem = Extract<SystemItem, { kind: "context" }>;

/**
 * What a conversation started with, for the user: "Started with your instructions, project “Thesis”,
 * 3 memories and 2 files." An update says what the agent was told again before the message.
 */
export function contextSentence(item: ContextItem): string {
  const parts = [
    ...(item.instructions ? ["your instructions"] : []),
    ...(item.project ? [`project “${item.project.name}”`] : []),
    ...(item.memories ? [`${item.memories} ${item.memories === 1 ? "memory" : "memories"}`] : []),
    ...(item.files ? [`${item.files} ${item.files === 1 ? "file" : "files"}`] : []),
  ];
  const list = parts.length > 1 ? `${parts.slice(0, -1).join(", ")} and ${parts.at(-1)}` : (parts[0] ?? "");
  if (item.update)
    return list ? `Your instructions or project changed: now ${list}.` : "Your instructions or project were removed.";
  return list ? `Started with ${list}.` : "Started with no instructions.";
}
