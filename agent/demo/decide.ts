// What to do next for an intent, given what this turn's tool calls returned: call a tool (and why, in
// one sentence), or answer. One small function per intent; a tool that is not offered gets the tour.
import { toolWords } from "../../protocol";
import type { Attached } from "./files";
import { DELEGATE, type Intent, LOOP_NOTE } from "./intent";
import { describe, errorText, refusal } from "./outcomes";
import type { ToolOutcome } from "./prompt-reading";
import { type ReminderPlan, whenInWords } from "./reminders";
import { longStory } from "./story";
import { arrayField, blockQuote, clip, count, field } from "./text";
import { introduction } from "./tour";

export interface Call {
  name: string;
  args: Record<string, unknown>;
}

/** What to do next: call a tool (and why, in one sentence), or answer. */
export type Decision = { call: Call; why: string } | { call?: undefined; answer: string };

/** The loop demo gives up by itself after this many reads, should the loop detector not stop it first. */
export const MAX_LOOP_CALLS = 10;
const ASK_QUESTION = "What should I call you? (This is the question demo: the answer waits for your reply.)";

/** What one intent's decision reads: the latest outcome of a tool, and a call made only when offered. */
interface Turn {
  results: ToolOutcome[];
  last(tool: string): ToolOutcome | undefined;
  callIf(call: Call, why: string, otherwise?: () => string): Decision;
}

type Decide<K extends Intent["kind"]> = (intent: Extract<Intent, { kind: K }>, turn: Turn) => Decision;

export function decide(intent: Intent, results: ToolOutcome[], offered: ReadonlySet<string>): Decision {
  const decideWith = (outcomes: ToolOutcome[]) =>
    (DECISIONS[intent.kind] as Decide<Intent["kind"]>)(intent, {
      results: outcomes,
      last: (tool) => outcomes.findLast((r) => r.tool === tool),
      callIf: (call, why, otherwise = introduction) =>
        offered.has(call.name) ? { call, why } : { answer: otherwise() },
    });
  // A call the user did not approve ends the turn in the demo's own words, never in the words the
  // model was given about it: what it would have done is the plan that led to the call.
  const refused = refusal(results.at(-1));
  if (refused) return { answer: refusedAnswer(refused, decideWith(results.slice(0, -1))) };
  return decideWith(results);
}

/** The demo cannot see or understand: it says what it was given, and quotes how each document begins. */
function filesAnswer({ images, documents }: Attached, readStart = ""): string {
  const lines = [
    "This is the demo model: it cannot read files the way a real model does, but here is what it was given.",
  ];
  for (const image of images) lines.push(`- An image: ${image}.`);
  for (const doc of documents) {
    const start = doc.start || (doc.readId ? readStart : "");
    lines.push(`- ${doc.header.slice(1, -1)}${start ? `, which begins:\n${blockQuote(start)}` : "."}`);
  }
  lines.push("\nWith an API key (see the README), the model reads them and answers about them.");
  return lines.join("\n");
}

const REFUSED_OPENINGS = {
  denied: "OK, I won't run it.",
  timed_out: "Nobody approved it in time, so I did not run it.",
  unavailable: "That step needs your approval, which I cannot ask for as a subagent, so I left it undone.",
} as const;

function refusedAnswer(refused: keyof typeof REFUSED_OPENINGS, planned: Decision): string {
  const plan = planned.call ? planned.why.replace(/^I will /, "") : "";
  return plan ? `${REFUSED_OPENINGS[refused]} Here is what I would have done: ${plan}` : REFUSED_OPENINGS[refused];
}

const DECISIONS: { [K in Intent["kind"]]: Decide<K> } = {
  chat: (_, { results }) => ({
    answer: results.length ? `Here is what the tools said: ${results.map(describe).join(" ")}` : introduction(),
  }),
  story: () => ({ answer: longStory() }),
  files: ({ attached }, { last, callIf }) => {
    const long = attached.documents.find((d) => d.readId);
    const read = last("file_read");
    if (long?.readId && !read)
      return callIf(
        { name: "file_read", args: { file: long.readId, pages: "1" } },
        "I will read the start of the long document.",
        () => filesAnswer(attached),
      );
    const start = read?.ok ? clip(String(field(read.value, "text") ?? ""), 400) : "";
    return { answer: filesAnswer(attached, start) };
  },
  web_read: ({ url }, { last, callIf }) => {
    const read = last("web_fetch");
    if (!read) return callIf({ name: "web_fetch", args: { url } }, "I will read the page you linked.");
    if (!read.ok) return { answer: `I could not read that page: ${errorText(read)}.` };
    const title = String(field(read.value, "title") ?? url);
    const start = clip(String(field(read.value, "text") ?? ""), 400);
    return {
      answer:
        `This is the demo model: it cannot summarise, but it read “${title}” [${String(field(read.value, "n"))}], ` +
        `which begins:\n${blockQuote(start)}\n\nWith an API key (see the README), the model answers from what the page says.`,
    };
  },
  web_search: ({ query }, { last, callIf }) => {
    const searched = last("web_search");
    if (!searched)
      return callIf({ name: "web_search", args: { query, count: 5 } }, `I will search the web for “${query}”.`);
    if (!searched.ok) return { answer: `The search failed: ${errorText(searched)}.` };
    const results = arrayField(searched.value, "results") as { n?: number; title?: string; snippet?: string }[];
    if (!results.length) return { answer: `The web has nothing for “${query}”.` };
    const lines = results.map((r) => `- ${r.title ?? "A page"}: ${clip(r.snippet ?? "", 160)} [${r.n}]`);
    return { answer: `Here is what the web says about “${query}”:\n${lines.join("\n")}` };
  },
  delegate: (intent, { last, callIf }) => {
    const done = last(DELEGATE);
    if (!done)
      return callIf(
        { name: DELEGATE, args: { task: intent.task } },
        `I will hand this to a subagent: “${intent.task}”`,
      );
    if (!done.ok) return { answer: `The subagent could not finish: ${errorText(done)}.` };
    const answer = String(field(done.value, "answer") ?? "").trim();
    if (!answer) return { answer: "The subagent finished without an answer." };
    return { answer: `The subagent did it in its own conversation and answered:\n${blockQuote(answer)}` };
  },
  ask: (_, { last, callIf }) => {
    const reply = last("request_input");
    if (!reply)
      return callIf({ name: "request_input", args: { question: ASK_QUESTION } }, "I will ask you a question first.");
    const answer = field(reply.value, "answer");
    return {
      answer:
        reply.ok && typeof answer === "string"
          ? `Thanks! You answered: “${answer}”. The turn waited for your reply and went on from there.`
          : `I did not get an answer (${errorText(reply)}), so I will leave it there.`,
    };
  },
  loop: (_, { results, callIf }) => {
    const reads = results.filter((r) => r.tool === "vault_read").length;
    const again = reads === 0 ? "" : " again";
    if (reads < MAX_LOOP_CALLS)
      return callIf(
        { name: "vault_read", args: { path: LOOP_NOTE } },
        `This is the loop demo: I will read ${LOOP_NOTE}${again}, with the same arguments every time.`,
      );
    return { answer: `I read ${LOOP_NOTE} ${reads} times and nothing changed, so I am stopping here.` };
  },
  remember: ({ fact }, { last, callIf }) => {
    const saved = last("memory");
    if (!saved) return callIf({ name: "memory", args: { action: "save", text: fact } }, "I will remember that.");
    return {
      answer: saved.ok
        ? `I will remember: “${String(field(field(saved.value, "memory"), "text") ?? fact)}” You can see and edit what I remember in Settings → Personalization.`
        : `I could not remember it: ${errorText(saved)}.`,
    };
  },
  add_task: (intent, { last, callIf }) => {
    const created = last("task_create");
    if (!created)
      return callIf(
        { name: "task_create", args: { title: intent.title } },
        `I will add “${intent.title}” to your tasks.`,
      );
    return {
      answer: created.ok
        ? `Added the task “${String(field(created.value, "title") ?? intent.title)}” (${String(field(created.value, "status") ?? "open")}). Say “show my tasks” to see the list.`
        : `I could not add the task: ${errorText(created)}.`,
    };
  },
  write_note: (intent, { last, callIf }) => {
    const written = last("vault_write");
    if (!written)
      return callIf(
        { name: "vault_write", args: { path: intent.path, content: intent.content } },
        `I will save that as ${intent.path}.`,
      );
    return {
      answer: written.ok
        ? `Saved your note as ${String(field(written.value, "path") ?? intent.path)} (${String(field(written.value, "bytes") ?? "?")} bytes). Ask me to “search my notes for …” to find it again.`
        : `I could not save the note: ${errorText(written)}.`,
    };
  },
  mcp: (intent, { last, callIf }) => {
    const done = last(intent.tool);
    const tool = toolWords(intent.tool);
    if (!done) return callIf({ name: intent.tool, args: intent.args }, `I will use ${tool}.`);
    if (!done.ok) return { answer: `${tool} failed: ${errorText(done)}.` };
    const value = typeof done.value === "string" ? done.value : JSON.stringify(done.value, null, 2);
    return { answer: `${tool} answered:\n${blockQuote(clip(value ?? "", 4000))}` };
  },
  tasks: (_, { last, callIf }) => {
    const listed = last("task_list");
    if (!listed) return callIf({ name: "task_list", args: {} }, "I will look at your tasks.");
    if (!listed.ok) return { answer: `I could not list your tasks: ${errorText(listed)}.` };
    const tasks = arrayField(listed.value, "tasks");
    if (!tasks.length) return { answer: "You have no tasks yet. Try “add task water the plants”." };
    const lines = tasks
      .slice(0, 20)
      .map((t) => `- ${String(field(t, "title") ?? "?")} (${String(field(t, "status") ?? "?")})`);
    return { answer: `You have ${count(tasks.length, "task")}:\n${lines.join("\n")}` };
  },
  list_notes: (_, { last, callIf }) => {
    const listed = last("vault_list");
    if (!listed) return callIf({ name: "vault_list", args: {} }, "I will list your notes.");
    if (!listed.ok) return { answer: `I could not list your notes: ${errorText(listed)}.` };
    const notes = arrayField(listed.value, "notes");
    if (!notes.length) return { answer: "Your vault is empty. Try “write a note: the demo works”." };
    const lines = notes.slice(0, 20).map((n) => `- ${String(field(n, "path") ?? "?")}`);
    return { answer: `You have ${count(notes.length, "note")}:\n${lines.join("\n")}` };
  },
  search: searchNotes,
  schedule: scheduleReminder,
  reminder: ({ subject }) => ({
    answer: `⏰ ${subject.charAt(0).toUpperCase()}${subject.slice(1)} (a reminder you scheduled; the Schedules page lists them).`,
  }),
};

/** "remind me on Friday at 9 to …": the `schedule` tool creates it in this conversation; the answer says when, in words. */
function scheduleReminder({ plan }: { plan?: ReminderPlan }, { last, callIf }: Turn): Decision {
  if (!plan)
    return {
      answer:
        "Tell me when, and I will schedule it: “remind me on Friday at 9 to call the bank”, “remind me tomorrow at 8:30 to …” or “remind me every weekday at 8 to …”.",
    };
  const done = last("schedule");
  const when = "at" in plan ? plan.at : plan.repeat;
  if (!done)
    return callIf(
      { name: "schedule", args: { action: "create", ...plan } },
      `I will schedule “${plan.text}” (${when}) with the schedule tool.`,
    );
  if (!done.ok) return { answer: `I could not schedule it: ${errorText(done)}.` };
  const rule = String(field(done.value, "rule") ?? when);
  const note = field(done.value, "note");
  return {
    answer:
      `Scheduled: I will post “${String(field(done.value, "text") ?? plan.text)}” in this conversation ${whenInWords(rule)}, and answer it then.` +
      `${typeof note === "string" ? ` ${note}` : ""} You can pause, change or delete it on the Schedules page.`,
  };
}

/** The search demo: search the notes, read the best match, answer with what it says. */
function searchNotes({ query }: { query: string }, { last, callIf }: Turn): Decision {
  const searched = last("vault_search");
  if (!searched) return callIf({ name: "vault_search", args: { query } }, `I will search your notes for “${query}”.`);
  if (!searched.ok) return { answer: `The search failed: ${errorText(searched)}.` };
  const hits = arrayField(searched.value, "results");
  if (!hits.length) return { answer: `I found no notes matching “${query}”. Try “write a note: …” to save one.` };
  const top = String(field(hits[0], "path") ?? "");
  const read = last("vault_read");
  if (!read && top)
    return callIf({ name: "vault_read", args: { path: top } }, `The best match is ${top}; I will read it.`, () =>
      foundList(query, hits),
    );
  const content = read?.ok ? field(read.value, "content") : undefined;
  const quote =
    typeof content === "string" && content.trim() ? `\n\n${top} says:\n${blockQuote(clip(content.trim(), 300))}` : "";
  return { answer: `${foundList(query, hits)}${quote}` };
}

function foundList(query: string, hits: unknown[]): string {
  const lines = hits.map((h) => `- ${String(field(h, "path") ?? "?")}`);
  return `I found ${count(hits.length, "note")} matching “${query}”:\n${lines.join("\n")}`;
}
