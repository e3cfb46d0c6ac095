// The entries every user's library starts with. They are written the first time the user's library is
// touched (listed, looked up, written or deleted), in one batch that also sets the user's
// `library_seeded` marker, so seeding happens once: an edited default stays edited, a deleted one
// stays deleted.
import type { EntryInput } from "../../protocol/library";

export type DefaultEntry = EntryInput & { slug: string };

export const DEFAULT_KNOWLEDGE: readonly DefaultEntry[] = [
  {
    slug: "oracle",
    title: "What Oracle can do",
    body: `Oracle is a chat assistant whose agent works in steps: it reasons, may call tools, observes the results and answers.

Tools:
- Notes (the user's vault): vault_search (full-text search), vault_read (one note in full), vault_write (create or replace a note), vault_list (paths, optionally under a prefix).
- Tasks: task_create, task_update (status open / in_progress / done, title, details), task_list.
- request_input: pause and ask the user one clarifying question; the answer comes back as the tool result.
- The web, where the operator and the user allow it: web_fetch reads a public page (by parts when long), web_search searches. Each page has a number; cite it as [n] after what it supports, and the user sees a link and a Sources list.
- Files the user attaches: file_read and file_search read documents by pages or lines.
- schedule (reminders and repeated runs), delegate (a subagent for a part of the work), and the tools of the user's MCP servers.
There is no code execution and no e-mail.

References in a message (at its start or after a space):
- @path attaches a note, e.g. @projects/plan.md (a folder attaches its listing).
- #slug attaches a knowledge entry like this one, e.g. #writing-style.
- /slug runs a saved workflow: its prompt enters the context, e.g. /summarize.
Knowledge entries and workflows are edited on the Library page.

Limits, per turn (Settings → Agent): a maximum number of steps, a token budget, a time limit and a cap on tool calls. A warning comes before a limit is reached; when one is hit the turn ends and says why.

The user can press Stop at any time: the turn ends and what was written so far is kept. External notifications (webhooks, scripts, sub-tasks) can arrive in a conversation as system messages.`,
  },
  {
    slug: "writing-style",
    title: "Writing style",
    body: `- Lead with the answer, then the reasons. No preamble, no restating the question.
- Plain, everyday words; short sentences; one idea per paragraph.
- Use bullet points for lists of three or more items and numbered steps for procedures.
- Be concrete: names, numbers, dates and examples rather than generalities.
- Say so when unsure, and what would settle it. Do not invent facts, paths or quotes.
- Put code, commands and file paths in code formatting.
- Match the user's language and level of formality.
- Stop when the question is answered; no closing summary of what was just said.`,
  },
];

export const DEFAULT_WORKFLOWS: readonly DefaultEntry[] = [
  {
    slug: "summarize",
    title: "Summarise the conversation",
    body: `Summarise this conversation so far.

- Give the key points as short bullet points, in the order they came up: what was asked, what was decided, what was found or produced.
- Then list the open questions and unfinished work under "Open questions", each as a bullet. Write "None" if there are none.
- Do not call tools and do not add new information; use only what is in the conversation.`,
  },
  {
    slug: "plan",
    title: "Plan and create tasks",
    body: `Turn the request that follows (or, if there is none, the current topic of the conversation) into a plan.

1. If the goal is unclear in a way that changes the plan, ask one question with request_input first.
2. Write a numbered, step-by-step plan: each step a concrete action with a clear result, in the order to do them, small enough to finish in one sitting. Mention dependencies and risks briefly.
3. Create one task per step with task_create: a short imperative title, and details saying what "done" means.
4. End with the plan and the titles of the tasks you created.`,
  },
  {
    slug: "review-notes",
    title: "Review related notes",
    body: `Find out what the user's notes say about the topic that follows (or, if there is none, the current topic of the conversation).

1. Search the vault with vault_search, trying two or three different phrasings or keywords.
2. Read the most relevant notes in full with vault_read (at most five).
3. Report what they say: the main points per note, with the note's path, and where notes agree, differ or look out of date.
4. If nothing relevant is found, say so and list the searches you tried. Do not change any note.`,
  },
];

const NOT_SEEDED = "NOT EXISTS (SELECT 1 FROM library_seeded WHERE user_id = ?)";

function seedStatements(
  d1: D1Database,
  table: "knowledge" | "workflows",
  userId: string,
  entries: readonly DefaultEntry[],
) {
  return entries.map((entry) =>
    d1
      .prepare(`INSERT OR IGNORE INTO ${table} (user_id, slug, title, body) SELECT ?, ?, ?, ? WHERE ${NOT_SEEDED}`)
      .bind(userId, entry.slug, entry.title, entry.body, userId),
  );
}

/**
 * Gives the user the default entries unless they already had them. One read when already seeded;
 * otherwise one atomic batch whose inserts only run while the marker is absent and which then sets
 * it, so two first requests racing each other still seed once, and an entry the user already wrote
 * under a default's slug is kept.
 */
export async function ensureLibrarySeeded(d1: D1Database, userId: string): Promise<void> {
  const seeded = await d1.prepare("SELECT 1 AS seeded FROM library_seeded WHERE user_id = ?").bind(userId).first();
  if (seeded) return;
  await d1.batch([
    ...seedStatements(d1, "knowledge", userId, DEFAULT_KNOWLEDGE),
    ...seedStatements(d1, "workflows", userId, DEFAULT_WORKFLOWS),
    d1.prepare("INSERT OR IGNORE INTO library_seeded (user_id) VALUES (?)").bind(userId),
  ]);
}
