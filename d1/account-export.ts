// What an account export reads of a user in D1 (docs/protocol.md "Export and import"): all of it, where
// the routes' lists stop at a page (200 notes, 100 tasks). Only what the user made and chose: no
// credential, no provider or MCP server (their keys, tokens and URLs stay behind), no push subscription.
// Every statement is scoped by user id. The conversations' messages are in their objects, not here.
import { and, asc, eq, isNotNull, isNull } from "drizzle-orm";
import {
  type AgentConfig,
  type ApprovalRule,
  type ExportedLibrary,
  type ExportedSchedules,
  type ExportedTasks,
  splitApprovalKey,
} from "../protocol";
import type { ExportedProjects } from "../protocol/projects";
import { database } from "./client";
import type { ConversationRow } from "./conversations";
import { loadInstructions } from "./instructions";
import { defaultsOf, includesOf } from "./projects";
import { defaultModelQuery, parseModelRef } from "./providers";
import { loadTimeZone } from "./schedules";
import { conversations, memories, projects, tasks } from "./schema";
import { listApprovalRules } from "./tool-approvals";
import { loadAgentConfig, loadSubscriberToggles } from "./user-settings";

const NOTES_PAGE = 100;

/** The user's own conversations (a subagent's lives in its parent's `delegate` call), oldest first. */
export async function conversationsToExport(d1: D1Database, userId: string): Promise<ConversationRow[]> {
  return database(d1)
    .select()
    .from(conversations)
    .where(and(eq(conversations.userId, userId), isNull(conversations.parentId)))
    .orderBy(asc(conversations.createdAt), asc(conversations.id));
}

/** Every note, a page at a time (a vault may be large), in path order. */
export async function* notesToExport(
  d1: D1Database,
  userId: string,
): AsyncGenerator<{ path: string; content: string }> {
  let after = "";
  for (;;) {
    const { results } = await d1
      .prepare("SELECT path, content FROM notes WHERE user_id = ? AND path > ? ORDER BY path LIMIT ?")
      .bind(userId, after, NOTES_PAGE)
      .all<{ path: string; content: string }>();
    yield* results;
    const last = results.at(-1);
    if (!last || results.length < NOTES_PAGE) return;
    after = last.path;
  }
}

/** Every task, oldest first. */
export async function tasksToExport(d1: D1Database, userId: string): Promise<ExportedTasks["tasks"]> {
  return database(d1)
    .select({
      title: tasks.title,
      status: tasks.status,
      details: tasks.details,
      created_at: tasks.createdAt,
      updated_at: tasks.updatedAt,
    })
    .from(tasks)
    .where(eq(tasks.userId, userId))
    .orderBy(asc(tasks.createdAt), asc(tasks.id));
}

/** The knowledge entries or workflows as they are (read without seeding the defaults a new library gets). */
export async function libraryToExport(
  d1: D1Database,
  kind: "knowledge" | "workflows",
  userId: string,
): Promise<ExportedLibrary["entries"]> {
  const table = kind === "knowledge" ? "knowledge" : "workflows";
  const { results } = await d1
    .prepare(`SELECT slug, title, body FROM ${table} WHERE user_id = ? ORDER BY slug`)
    .bind(userId)
    .all<ExportedLibrary["entries"][number]>();
  return results;
}

/** The schedules, each naming its conversation by id; what they did last is not taken along. */
export async function schedulesToExport(d1: D1Database, userId: string): Promise<ExportedSchedules["schedules"]> {
  const { results } = await d1
    .prepare(
      `SELECT conversation_id, name, text, kind, at, cron, time_zone, paused FROM schedules
       WHERE user_id = ? ORDER BY created_at, id`,
    )
    .bind(userId)
    .all<Omit<ExportedSchedules["schedules"][number], "paused"> & { paused: number }>();
  return results.map((row) => ({ ...row, paused: row.paused === 1 }));
}

/** The instructions, the projects with their conversations' ids, and every memory. */
export async function projectsToExport(d1: D1Database, userId: string): Promise<ExportedProjects> {
  const db = database(d1);
  const [instructions, rows, members, remembered] = await Promise.all([
    loadInstructions(d1, userId),
    db.select().from(projects).where(eq(projects.userId, userId)).orderBy(asc(projects.createdAt), asc(projects.id)),
    db
      .select({ id: conversations.id, projectId: conversations.projectId })
      .from(conversations)
      .where(and(eq(conversations.userId, userId), isNotNull(conversations.projectId))),
    db.select().from(memories).where(eq(memories.userId, userId)).orderBy(asc(memories.createdAt), asc(memories.id)),
  ]);
  return {
    instructions,
    projects: rows.map((row) => ({
      id: row.id,
      name: row.name,
      instructions: row.instructions,
      memory: row.memory,
      defaults: defaultsOf(row.defaults),
      ...includesOf(row.includes),
      conversations: members.filter((m) => m.projectId === row.id).map((m) => m.id),
      created_at: row.createdAt,
      updated_at: row.updatedAt,
    })),
    memories: remembered.map((m) => ({
      text: m.text,
      project_id: m.projectId,
      conversation_id: m.conversationId,
      created_at: m.createdAt,
      updated_at: m.updatedAt,
    })),
  };
}

/** What the user chose: the agent's settings, the notifications, the time zone, the default model, the approvals. */
export async function settingsToExport(d1: D1Database, userId: string) {
  const [agent, toggles, timeZone, model, approvals] = await Promise.all([
    loadAgentConfig(d1, userId),
    loadSubscriberToggles(d1, userId),
    loadTimeZone(d1, userId),
    defaultModelQuery(d1, userId),
    listApprovalRules(d1, userId),
  ]);
  return {
    agent: agent satisfies AgentConfig,
    subscribers: Object.fromEntries(toggles),
    time_zone: timeZone,
    default_model: parseModelRef(model[0]?.defaultModel) ?? null,
    // An MCP tool's rule names a server by its id, which means nothing in another account.
    approvals: approvals.filter((rule: ApprovalRule) => !splitApprovalKey(rule.tool)),
  };
}
