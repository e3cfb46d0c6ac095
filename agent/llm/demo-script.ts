// What the demo model says: a pure function of the prompt and of the tool names offered, so the offline
// demo is deterministic and testable, and still shows every feature through the real agent loop.
//
// Triggers (first match wins, only when the tool it needs is offered):
//   "delegate" / "subagent"             → delegate the rest of the message as a task (a canonical
//                                         wording of what the rest asks for, so the subagent's own
//                                         demo model picks the same intent), then answer quoting the
//                                         subagent's answer; with "nested" the subagent delegates again
//   "long story"                        → a long text, streamed slowly enough to press Stop
//   "ask me" / "question" / "clarify"   → request_input, then an answer quoting the user's reply
//   "loop" / "repeat"                   → the same vault_read again and again (no-progress detection)
//   "add task …"                        → task_create
//   "write a note …" / "save …"         → vault_write
//   "task(s)" / "todo(s)"               → task_list
//   "note(s)" / "vault" / "search"      → vault_search (with a query) then vault_read of the best hit,
//                                         or vault_list (without one)
//   anything else                       → a short explanation of the demo and of these phrases
// The phase instructions the loop appends ("REASON PHASE", "ACT PHASE", "OBSERVE PHASE", "The turn has
// to end now") get the reply shape they ask for, with a JSON control block for reason and observe.
import type { LanguageModelV3Message, LanguageModelV3Prompt } from "@ai-sdk/provider";

export interface DemoToolCall {
  id: string;
  name: string;
  args: Record<string, unknown>;
}

export interface DemoReply {
  text: string;
  toolCalls: DemoToolCall[];
  /** Streamed first, as a reasoning model's thinking is (asked for with "think" in the message). */
  reasoning?: string;
}

type Phase = "reason" | "act" | "observe" | "wrap-up";

interface ToolOutcome {
  tool: string;
  ok: boolean;
  /** The parsed JSON result (or the raw text); the error text when !ok. */
  value: unknown;
}

type Intent =
  | { kind: "chat" }
  | { kind: "delegate"; task: string }
  | { kind: "story" }
  | { kind: "ask" }
  | { kind: "loop" }
  | { kind: "add_task"; title: string }
  | { kind: "write_note"; path: string; content: string }
  | { kind: "tasks" }
  | { kind: "search"; query: string }
  | { kind: "list_notes" }
  | { kind: "mcp"; tool: string; args: Record<string, unknown> };

interface Call {
  name: string;
  args: Record<string, unknown>;
}

/** What to do next: call a tool (and why, in one sentence), or answer. */
type Decision = { call: Call; why: string } | { call?: undefined; answer: string };

const DELEGATE = "delegate";
const DELEGATION = /\bdelegat(?:e|es|ed|ing)\b|\bsub-?agents?\b/;
/** What a subagent is offered at most (never request_input); what its task is worded for. */
const SUBAGENT_TOOLS: ReadonlySet<string> = new Set([
  "vault_search",
  "vault_read",
  "vault_list",
  "vault_write",
  "task_list",
  "task_create",
  "task_update",
]);
export const LOOP_NOTE = "demo/loop.md";
/** The loop demo gives up by itself after this many reads, should the loop detector not stop it first. */
export const MAX_LOOP_CALLS = 10;
const ASK_QUESTION =
  "What should I call you? (This is the request_input demo: your answer comes back to me as the tool's result.)";

export function lastUserText(prompt: LanguageModelV3Prompt): string {
  const index = lastUserIndex(prompt);
  return index < 0 ? "" : textOf(prompt[index]);
}

export function planDemoReply(prompt: LanguageModelV3Prompt, tools: string[]): DemoReply {
  const phase = phaseOf(prompt);
  const offered = new Set(tools);
  // Reason, observe and wrap-up calls get no tools; they plan for the ones the prompt names instead.
  if (phase !== undefined && phase !== "act") for (const name of toolsNamedIn(prompt)) offered.add(name);
  const since = lastUserIndex(prompt) + 1;
  const results = outcomesIn(prompt.slice(since));
  // The results this step got: the tool message right before the trailing system messages, if any.
  const tail = lastNonSystem(prompt);
  const lastStep = tail >= since && prompt[tail]?.role === "tool" ? outcomesIn(prompt.slice(tail, tail + 1)) : [];
  const intent = detectIntent(lastUserText(prompt), offered);
  const decision = decide(intent, results, offered);

  switch (phase) {
    case "wrap-up":
      return say(wrapUp(intent, results));
    case "reason":
      return say(reasonReply(decision, results));
    case "observe":
      return say(observeReply(decision, lastStep));
    default: {
      if (!decision.call) {
        const thought = thinking(prompt, results.length);
        // Asked to think about something it has no tool for: a short answer under the thinking, not the tour.
        const answer = thought && intent.kind === "chat" && !results.length ? THOUGHT_ANSWER : decision.answer;
        return { ...say(answer), ...thought };
      }
      const id = `demo-${prompt.length}-${JSON.stringify(prompt).length}-0`;
      return { text: decision.why, toolCalls: [{ id, ...decision.call }] };
    }
  }
}

// --- Reading the prompt -------------------------------------------------------------------------

function textOf(message: LanguageModelV3Message | undefined): string {
  if (!message) return "";
  if (message.role === "system") return message.content;
  return message.content.map((part) => (part.type === "text" ? part.text : "")).join("");
}

function lastUserIndex(prompt: LanguageModelV3Prompt): number {
  return lastIndexOf(prompt, "user", 0);
}

function lastIndexOf(prompt: LanguageModelV3Prompt, role: LanguageModelV3Message["role"], from: number): number {
  for (let i = prompt.length - 1; i >= from; i--) if (prompt[i]?.role === role) return i;
  return -1;
}

function lastNonSystem(prompt: LanguageModelV3Prompt): number {
  for (let i = prompt.length - 1; i >= 0; i--) if (prompt[i]?.role !== "system") return i;
  return -1;
}

/** The phase instruction among the trailing system messages, if any (undefined: a plain tool-calling call). */
function phaseOf(prompt: LanguageModelV3Prompt): Phase | undefined {
  for (let i = prompt.length - 1; i >= 0; i--) {
    const message = prompt[i];
    if (message?.role !== "system") return undefined;
    const text = message.content.trimStart();
    if (text.startsWith("REASON PHASE")) return "reason";
    if (text.startsWith("OBSERVE PHASE")) return "observe";
    if (text.startsWith("ACT PHASE")) return "act";
    if (text.startsWith("The turn has to end now")) return "wrap-up";
  }
  return undefined;
}

/** Tool names from the system prompt ("Tools: a, b.") or a reason instruction ("…act phase: a, b."). */
function toolsNamedIn(prompt: LanguageModelV3Prompt): string[] {
  const names: string[] = [];
  for (const message of prompt) {
    if (message.role !== "system") continue;
    for (const match of message.content.matchAll(/Tools(?: available in the act phase)?: ([^\n]*)/g)) {
      names.push(
        ...(match[1] ?? "")
          .replace(/\.\s*$/, "")
          .split(",")
          .map((name) => name.trim())
          .filter((name) => /^[\w-]+$/.test(name)),
      );
    }
  }
  return names;
}

function outcomesIn(messages: LanguageModelV3Prompt): ToolOutcome[] {
  const outcomes: ToolOutcome[] = [];
  for (const message of messages) {
    if (message.role !== "tool") continue;
    for (const part of message.content) {
      if (part.type !== "tool-result") continue;
      const output = part.output;
      switch (output.type) {
        case "text":
          outcomes.push({ tool: part.toolName, ok: true, value: parseJson(output.value) });
          break;
        case "json":
          outcomes.push({ tool: part.toolName, ok: true, value: output.value });
          break;
        case "error-text":
          outcomes.push({ tool: part.toolName, ok: false, value: output.value });
          break;
        case "error-json":
          outcomes.push({ tool: part.toolName, ok: false, value: JSON.stringify(output.value) });
          break;
        case "execution-denied":
          outcomes.push({ tool: part.toolName, ok: false, value: output.reason ?? "denied" });
          break;
        default:
          outcomes.push({ tool: part.toolName, ok: true, value: "" });
      }
    }
  }
  return outcomes;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

// --- What the user wants ----------------------------------------------------------------------------

export function detectIntent(text: string, offered: ReadonlySet<string>): Intent {
  const lower = text.toLowerCase();
  const needs = (tool: string, intent: Intent): Intent => (offered.has(tool) ? intent : { kind: "chat" });
  if (DELEGATION.test(lower) && offered.has(DELEGATE)) return { kind: "delegate", task: delegatedTask(text) };
  const mcp = mcpCallIn(text, offered);
  if (mcp) return mcp;
  if (/\blong story\b/.test(lower)) return { kind: "story" };
  if (/\bask me\b|\bquestions?\b|\bclarify\b/.test(lower)) return needs("request_input", { kind: "ask" });
  if (/\bloop(?:s|ing)?\b|\brepeat(?:s|ing)?\b/.test(lower)) return needs("vault_read", { kind: "loop" });
  const task = /\badd (?:a |an |the )?(?:task|todo)\b[\s:,-]*(.*)$/is.exec(text);
  if (task) return needs("task_create", { kind: "add_task", title: clip(clean(task[1] ?? ""), 200) || "A demo task" });
  if (/\bwrite (?:a |me a |down a )?note\b|\bsave\b/.test(lower))
    return needs("vault_write", { kind: "write_note", ...noteToWrite(text) });
  if (/\b(?:tasks?|todos?|to-dos?)\b/.test(lower)) return needs("task_list", { kind: "tasks" });
  if (/\bnotes?\b|\bvault\b|\bsearch\b/.test(lower)) {
    const query = searchQuery(text);
    return query ? needs("vault_search", { kind: "search", query }) : needs("vault_list", { kind: "list_notes" });
  }
  return { kind: "chat" };
}

/** "call local__echo {"text": "hi"}": an offered MCP tool named in the message, with the JSON object after it. */
function mcpCallIn(text: string, offered: ReadonlySet<string>): Intent | undefined {
  const tool = text.match(/[a-z][a-z0-9-]*__[A-Za-z0-9_-]+/g)?.find((name) => offered.has(name));
  if (!tool) return undefined;
  const json = /\{[\s\S]*\}/.exec(text.slice(text.indexOf(tool)))?.[0];
  const args = json ? parseJson(json) : {};
  const isObject = typeof args === "object" && args !== null && !Array.isArray(args);
  return { kind: "mcp", tool, args: isObject ? (args as Record<string, unknown>) : {} };
}

/**
 * "delegate listing my notes to a subagent" → "Look through the vault and list the notes.": the rest
 * of the message, worded so that the subagent's own (demo) model picks the same intent. The task never
 * says "delegate" or "subagent", so the subagent does the work itself, unless "nested" asks for one
 * more level.
 */
export function delegatedTask(text: string): string {
  const nested = /\bnested\b/i.test(text);
  const rest = text
    .replace(/\b(?:to|with|via|using|through|by|for)\s+(?:a|an|the|one|your)?\s*(?:nested\s+)?sub-?agents?\b/gi, " ")
    .replace(/\b(?:a|an|the)?\s*(?:nested\s+)?sub-?agents?\b/gi, " ")
    .replace(/\b(?:please\s+)?(?:delegat(?:e|es|ed|ing)|hand off)\b/gi, " ")
    .replace(/\bnested\b/gi, " ")
    .replace(/\s+/g, " ")
    .replace(/^[\s:,;.!?-]+|[\s:,;.!?-]+$/g, "");
  const task = taskFor(detectIntent(rest, SUBAGENT_TOOLS), rest);
  return nested ? `Delegate to a subagent: ${task}` : task;
}

function taskFor(intent: Intent, rest: string): string {
  switch (intent.kind) {
    case "list_notes":
      return "Look through the vault and list the notes.";
    case "search":
      return `Search the notes for “${intent.query}” and report what the best match says.`;
    case "tasks":
      return "Look at the task list and report every task with its status.";
    case "add_task":
      return `Add a task: ${intent.title}`;
    case "write_note":
      return `Write a note called ${intent.path.replace(/^notes\//, "").replace(/\.md$/, "")}: ${intent.content}`;
    case "story":
      return "Tell me a long story.";
    case "loop":
      return `Loop: read ${LOOP_NOTE} again and again.`;
    default:
      return rest ? `${rest.charAt(0).toUpperCase()}${rest.slice(1)}.` : "Say hello and explain what you can do.";
  }
}

const clean = (s: string) =>
  s
    .trim()
    .replace(/^["“'`]+|["”'`.!?]+$/g, "")
    .trim();
const clip = (s: string, n: number) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

/** Text as a markdown block quote, line by line, so the quoted note's own markdown still reads as such. */
const blockQuote = (text: string) =>
  text
    .split("\n")
    .map((line) => (line.trim() ? `> ${line}` : ">"))
    .join("\n");

/** "search my notes for budget", "notes about 'q3 plan'", "search oracle" → the words to look for. */
function searchQuery(message: string): string {
  // @note, #knowledge and /workflow references attach things; they are not words to look for.
  const text = message.replace(/(?<=^|\s)[@#/][\w./-]+/g, " ");
  const quoted = /["“]([^"”]+)["”]/.exec(text)?.[1];
  const after =
    quoted ??
    /\b(?:for|about|on|mentioning|containing|matching|regarding)\s+(.+)$/is.exec(text)?.[1] ??
    /\bsearch\s+(?:(?:in|through)\s+)?(?:(?:my|the)\s+)?(?:notes?|vault)?\s*(.*)$/is.exec(text)?.[1] ??
    "";
  const query = after
    .replace(/\s+in (?:my |the )?(?:notes?|vault)\b.*$/i, "")
    .replace(/[^\p{L}\p{N}\s*'-]/gu, " ")
    .replace(/^\s*(?:my|the|a|an)\s+/i, "")
    .replace(/\s+/g, " ")
    .trim();
  return /^(?:notes?|vault|everything|all)?$/i.test(query) ? "" : clip(query, 200);
}

/** "write a note called shopping: milk, eggs" → notes/shopping.md with "milk, eggs". */
function noteToWrite(text: string): { path: string; content: string } {
  const colon = text.indexOf(":");
  const named = /\b(?:called|named|titled)\s+["“]?([^:"”\n]+)/i.exec(text)?.[1];
  const body =
    colon >= 0
      ? text.slice(colon + 1)
      : (/\b(?:saying|that says|with|about)\s+(.+)$/is.exec(text)?.[1] ??
        text.replace(/^.*?\b(?:write (?:a |me a |down a )?note|save)\b/is, ""));
  const content = clean(body) || clean(text);
  const slug = slugify(named ?? content);
  return { path: `notes/${slug || "demo-note"}.md`, content };
}

function slugify(s: string): string {
  return s
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean)
    .slice(0, 6)
    .join("-")
    .slice(0, 48)
    .replace(/-+$/, "");
}

// --- What to do next ------------------------------------------------------------------------------

function decide(intent: Intent, results: ToolOutcome[], offered: ReadonlySet<string>): Decision {
  const last = (tool: string) => results.findLast((r) => r.tool === tool);
  const callIf = (call: Call, why: string, otherwise: () => string): Decision =>
    offered.has(call.name) ? { call, why } : { answer: otherwise() };
  switch (intent.kind) {
    case "chat":
      return { answer: results.length ? `Here is what the tools said: ${summarize(results)}` : introduction() };
    case "story":
      return { answer: longStory() };
    case "delegate": {
      const done = last(DELEGATE);
      if (!done)
        return callIf(
          { name: DELEGATE, args: { task: intent.task } },
          `I will hand this to a subagent: “${intent.task}”`,
          introduction,
        );
      if (!done.ok) return { answer: `The subagent could not finish: ${errorText(done)}.` };
      const answer = String(field(done.value, "answer") ?? "").trim();
      const pod = String(field(done.value, "pod_name") ?? "the subagent");
      if (!answer) return { answer: `The subagent ${pod} finished without an answer.` };
      return {
        answer: `The subagent ${pod} did it in its own conversation and answered:\n${blockQuote(answer)}`,
      };
    }
    case "ask": {
      const reply = last("request_input");
      if (!reply)
        return callIf(
          { name: "request_input", args: { question: ASK_QUESTION } },
          "I will ask you a question first.",
          introduction,
        );
      const answer = field(reply.value, "answer");
      return {
        answer:
          reply.ok && typeof answer === "string"
            ? `Thanks! You answered: “${answer}”. Your reply reached me as the result of request_input, and the turn went on from there.`
            : `I did not get an answer (${errorText(reply)}), so I will leave it there.`,
      };
    }
    case "loop": {
      const reads = results.filter((r) => r.tool === "vault_read").length;
      const again = reads === 0 ? "" : " again";
      if (reads < MAX_LOOP_CALLS)
        return callIf(
          { name: "vault_read", args: { path: LOOP_NOTE } },
          `This is the loop demo: I will read ${LOOP_NOTE}${again}, with the same arguments every time.`,
          introduction,
        );
      return { answer: `I read ${LOOP_NOTE} ${reads} times and nothing changed, so I am stopping here.` };
    }
    case "add_task": {
      const created = last("task_create");
      if (!created)
        return callIf(
          { name: "task_create", args: { title: intent.title } },
          `I will add “${intent.title}” to your tasks.`,
          introduction,
        );
      return {
        answer: created.ok
          ? `Added the task “${String(field(created.value, "title") ?? intent.title)}” (${String(field(created.value, "status") ?? "open")}). Say “show my tasks” to see the list.`
          : `I could not add the task: ${errorText(created)}.`,
      };
    }
    case "write_note": {
      const written = last("vault_write");
      if (!written)
        return callIf(
          { name: "vault_write", args: { path: intent.path, content: intent.content } },
          `I will save that as ${intent.path}.`,
          introduction,
        );
      return {
        answer: written.ok
          ? `Saved your note as ${String(field(written.value, "path") ?? intent.path)} (${String(field(written.value, "bytes") ?? "?")} bytes). Ask me to “search my notes for …” to find it again.`
          : `I could not save the note: ${errorText(written)}.`,
      };
    }
    case "mcp": {
      const done = last(intent.tool);
      if (!done) return callIf({ name: intent.tool, args: intent.args }, `I will call ${intent.tool}.`, introduction);
      if (!done.ok) return { answer: `${intent.tool} failed: ${errorText(done)}.` };
      const value = typeof done.value === "string" ? done.value : JSON.stringify(done.value, null, 2);
      return { answer: `${intent.tool} answered:\n${blockQuote(clip(value ?? "", 4000))}` };
    }
    case "tasks": {
      const listed = last("task_list");
      if (!listed) return callIf({ name: "task_list", args: {} }, "I will look at your tasks.", introduction);
      if (!listed.ok) return { answer: `I could not list your tasks: ${errorText(listed)}.` };
      const tasks = arrayField(listed.value, "tasks");
      if (!tasks.length) return { answer: "You have no tasks yet. Try “add task water the plants”." };
      const lines = tasks
        .slice(0, 20)
        .map((t) => `- ${String(field(t, "title") ?? "?")} (${String(field(t, "status") ?? "?")})`);
      return { answer: `You have ${count(tasks.length, "task")}:\n${lines.join("\n")}` };
    }
    case "list_notes": {
      const listed = last("vault_list");
      if (!listed) return callIf({ name: "vault_list", args: {} }, "I will list your notes.", introduction);
      if (!listed.ok) return { answer: `I could not list your notes: ${errorText(listed)}.` };
      const notes = arrayField(listed.value, "notes");
      if (!notes.length) return { answer: "Your vault is empty. Try “write a note: the demo works”." };
      const lines = notes.slice(0, 20).map((n) => `- ${String(field(n, "path") ?? "?")}`);
      return { answer: `You have ${count(notes.length, "note")}:\n${lines.join("\n")}` };
    }
    case "search":
      return searchNotes(intent.query, last, callIf);
  }
}

/** The search demo: search the notes, read the best match, answer with what it says. */
function searchNotes(
  query: string,
  last: (tool: string) => ToolOutcome | undefined,
  callIf: (call: Call, why: string, otherwise: () => string) => Decision,
): Decision {
  const searched = last("vault_search");
  if (!searched)
    return callIf({ name: "vault_search", args: { query } }, `I will search your notes for “${query}”.`, introduction);
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

function field(value: unknown, key: string): unknown {
  return value && typeof value === "object" && !Array.isArray(value)
    ? (value as Record<string, unknown>)[key]
    : undefined;
}

function arrayField(value: unknown, key: string): unknown[] {
  const found = field(value, key);
  return Array.isArray(found) ? found : [];
}

const count = (n: number, noun: string) => `${n} ${noun}${n === 1 ? "" : "s"}`;
const errorText = (r: ToolOutcome) => clip(typeof r.value === "string" ? r.value : JSON.stringify(r.value), 200);

/** One sentence per tool outcome, for observations and wrap-ups. */
function describe(r: ToolOutcome): string {
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
    case "request_input":
      return `The user answered “${String(field(r.value, "answer") ?? "")}”.`;
    default:
      return `${r.tool} returned ${clip(JSON.stringify(r.value) ?? "nothing", 120)}.`;
  }
}

function summarize(results: ToolOutcome[]): string {
  return results.map(describe).join(" ");
}

// --- Reply shapes ---------------------------------------------------------------------------------

const say = (text: string): DemoReply => ({ text, toolCalls: [] });

/** A short scripted reasoning block for a message that asks the model to think, before its first answer. */
function thinking(prompt: LanguageModelV3Prompt, results: number): { reasoning: string } | undefined {
  const text = lastUserText(prompt);
  if (results > 0 || !/\bthink\b|\bstep by step\b|\breason(?:ing)?\b/i.test(text)) return undefined;
  return {
    reasoning:
      `The user asks: "${clip(clean(text), 80)}". I am the offline demo model, so I have no real thoughts; ` +
      "this block is scripted. It streams before the answer, the way a reasoning model's thinking does, " +
      "and folds into one line above the answer once it is written.",
  };
}
const withControl = (prose: string, control: Record<string, unknown>) =>
  `${prose}\n\n\`\`\`json\n${JSON.stringify(control)}\n\`\`\``;

function reasonReply(decision: Decision, results: ToolOutcome[]): string {
  if (decision.call) {
    const plan = `${decision.why} Tool: ${decision.call.name}.`;
    return withControl(`Plan: ${plan}`, { plan, tools_to_consider: [decision.call.name], finish: false });
  }
  const plan = results.length
    ? "I have what I need from the tools, so I can answer now."
    : "No tool is needed for this; I can answer directly.";
  return withControl(plan, { plan, tools_to_consider: [], finish: true, final_answer: decision.answer });
}

function observeReply(decision: Decision, lastStep: ToolOutcome[]): string {
  const observation = lastStep.length ? summarize(lastStep) : "No tools were used in this step.";
  if (decision.call) {
    const next = `Next: ${decision.why}`;
    return withControl(`${observation} ${next}`, { observation, should_continue: true, final_answer: "" });
  }
  return withControl(`${observation} That is enough to answer.`, {
    observation,
    should_continue: false,
    final_answer: decision.answer,
  });
}

// The wrap-up does not say which limit ended the turn: the explanation the loop appends to the saved
// answer names the real one (iterations, repeats or errors, whichever came first).
function wrapUp(intent: Intent, results: ToolOutcome[]): string {
  if (intent.kind === "loop") {
    const reads = results.filter((r) => r.tool === "vault_read");
    const last = reads.at(-1);
    const outcome = last ? describe(last) : "";
    return `I read ${LOOP_NOTE} ${count(reads.length, "time")} with the same arguments (${outcome.replace(/\.$/, "")}), so repeating it was going nowhere. Left undone: nothing, this was the loop demo.`;
  }
  if (!results.length) return "I have to stop here before doing anything with the tools. Ask again to continue.";
  return `Here is where I got to: ${summarize(results)} Left undone: the final answer; ask me to continue.`;
}

const THOUGHT_ANSWER =
  "I thought it over (open “Thought for …” above to read how). As the offline demo model I cannot really plan, " +
  "but a real model shows its reasoning the same way: folded above its answer, timed, and kept with the answer.";

function introduction(): string {
  return [
    "Hi! I am the offline demo model: no OPENAI_API_KEY is set, so my replies are scripted, but they run through the real agent loop, tools and limits. Try:",
    "- “search my notes for …” or “list my notes” (vault_search, vault_read, vault_list)",
    "- “write a note: …” (vault_write)",
    "- “show my tasks” or “add task …” (task_list, task_create)",
    "- “ask me a question” (request_input pauses the turn until you answer)",
    "- “loop” (the same call again and again, until the loop detector stops it)",
    "- “tell me a long story” (streams slowly, so you can press Stop)",
    "- “delegate listing my notes to a subagent” (delegate: a subagent does it in its own conversation)",
    '- “call github__search {"query": "…"}” (a tool of one of your MCP servers, from Settings → Tools)',
    "Pick the “roa” tree to see reason → act → observe. Set OPENAI_API_KEY to talk to a real model.",
  ].join("\n");
}

const STORY_PLACES = [
  "a lighthouse at the end of a long pier",
  "a library carved into a mountain",
  "a market that only opened at dusk",
  "a garden where every path curved back on itself",
  "a harbour full of paper boats",
  "an observatory with a cracked lens",
  "a village that kept its clocks an hour late",
  "a bridge nobody remembered building",
  "a station where the trains ran on questions",
  "a quiet room at the top of a winding stair",
];
const STORY_KEEPERS = [
  "an old keeper",
  "a patient archivist",
  "a spice merchant",
  "a gardener",
  "a boatwright",
  "an astronomer",
  "a clockmaker",
  "a surveyor",
  "a conductor",
  "a child with a notebook",
];
const STORY_COLOURS = ["grey", "gold", "amber", "blue", "silver", "violet", "green", "rose", "copper", "white"];

/** The slow path for trying Stop: about 800 words, streamed a word at a time. */
function longStory(): string {
  const chapters = STORY_PLACES.map((place, i) => {
    const keeper = STORY_KEEPERS[i] ?? "a stranger";
    const from = STORY_COLOURS[i] ?? "grey";
    const to = STORY_COLOURS[(i + 3) % STORY_COLOURS.length] ?? "blue";
    return (
      `Chapter ${i + 1}. The Oracle travelled to ${place}, where ${keeper} kept a box of unanswered letters. ` +
      `"What do you remember?" the Oracle asked. The keeper opened an old notebook and read one line aloud, slowly, ` +
      "as if every word had to be weighed before it was allowed into the room. The Oracle wrote the line into the vault, " +
      `added a task to come back one day, and walked on while the sky turned from ${from} to ${to}.`
    );
  });
  return [
    "Here is a long story (the demo's slow path: press Stop whenever you like).",
    ...chapters,
    "And when the Oracle finally came home, the vault was full, the task list was long, and every answer had a question waiting behind it. The end.",
  ].join("\n\n");
}
