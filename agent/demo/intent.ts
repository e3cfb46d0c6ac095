// What the user wants, read from their last message: the first trigger phrase that matches and whose
// tool is offered (the list is at the top of script.ts), or plain chat.

import { linksIn } from "../web/links";
import type { Attached } from "./files";
import { asksReminder, type ReminderPlan, reminderIn, reminderText } from "./reminders";
import { clean, clip, parseJson } from "./text";

export type Intent =
  | { kind: "chat" }
  | { kind: "delegate"; task: string }
  | { kind: "story" }
  | { kind: "ask" }
  | { kind: "loop" }
  | { kind: "add_task"; title: string }
  /** "remember that …": the demo saves it with the memory tool. */
  | { kind: "remember"; fact: string }
  | { kind: "write_note"; path: string; content: string }
  | { kind: "tasks" }
  | { kind: "search"; query: string }
  | { kind: "list_notes" }
  | { kind: "mcp"; tool: string; args: Record<string, unknown> }
  /** "remind me on Friday at 9 to …": the reminder to schedule (undefined: no time was said). */
  | { kind: "schedule"; plan?: ReminderPlan }
  /** A reminder's run ("Reminder: water the plants"). */
  | { kind: "reminder"; subject: string }
  /** The message links to a page: the demo reads it with web_fetch and quotes how it begins. */
  | { kind: "web_read"; url: string }
  /** "search the web for …": the demo searches and lists what it found, citing each result. */
  | { kind: "web_search"; query: string }
  /** The message carries files and asks nothing the demo has a tool for: what they are, and how they begin. */
  | { kind: "files"; attached: Attached };

export const DELEGATE = "delegate";
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

export function detectIntent(text: string, offered: ReadonlySet<string>): Intent {
  const lower = text.toLowerCase();
  const needs = (tool: string, intent: Intent): Intent => (offered.has(tool) ? intent : { kind: "chat" });
  const reminded = reminderText(text);
  if (reminded !== undefined) return { kind: "reminder", subject: reminded };
  if (DELEGATION.test(lower) && offered.has(DELEGATE)) return { kind: "delegate", task: delegatedTask(text) };
  const mcp = mcpCallIn(text, offered);
  if (mcp) return mcp;
  const web = webIntent(text, offered);
  if (web) return web;
  if (asksReminder(text)) return needs("schedule", { kind: "schedule", plan: reminderIn(text) });
  const remembered = /\bremember(?: that|:)?\s+(.+)$/is.exec(text);
  if (remembered) return needs("memory", { kind: "remember", fact: rememberedFact(remembered[1] ?? "") });
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

const WEB_SEARCH_ASK =
  /\b(?:search|look up|google)\s+(?:the\s+)?(?:web|internet|online)\s+(?:for\s+|about\s+)?(.+)$|\blook up\s+(.+?)\s+online\b/is;

/** A link to read (web_fetch), or a web search asked for (web_search), where that tool is offered. */
function webIntent(text: string, offered: ReadonlySet<string>): Intent | undefined {
  const asked = WEB_SEARCH_ASK.exec(text);
  const query = clip(clean(asked?.[1] ?? asked?.[2] ?? "").replace(/[?.!]+$/, ""), 200);
  if (query && offered.has("web_search")) return { kind: "web_search", query };
  const url = linksIn(text)[0];
  return url && offered.has("web_fetch") ? { kind: "web_read", url } : undefined;
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

/** "remember that I like tea" → "The user likes tea." in the third person, as memories are kept. */
function rememberedFact(said: string): string {
  const fact = clip(clean(said).replace(/[.!?]+$/, ""), 400)
    .replace(/^I am\b/i, "The user is")
    .replace(/^I'm\b/i, "The user is")
    .replace(/^my\b/i, "The user's")
    .replace(/^I (\w+)\b/i, (_all, verb: string) => `The user ${verb}${verb.endsWith("s") ? "" : "s"}`);
  return `${fact.charAt(0).toUpperCase()}${fact.slice(1)}.`;
}
