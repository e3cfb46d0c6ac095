// What an account import writes into D1 (docs/protocol.md "Export and import"): conversations' index rows
// with the times and titles they had, notes under paths not taken, tasks, library entries and paused
// schedules, each added beside what the account holds, never over it. Every statement is scoped by user
// id; the writes go in batches of a few dozen statements (a D1 batch is one transaction, bounded in size).
import type { ExportedLibrary, ExportedSchedules, ExportedTasks } from "../protocol";
import type { ExportedProjects } from "../protocol/projects";
import { MAX_SCHEDULES } from "../protocol/schedules";
import { saveInstructions } from "./instructions";
import { createMemory } from "./memories";
import { createProject, setConversationProject } from "./projects";

const BATCH = 40;

async function inBatches(d1: D1Database, statements: D1PreparedStatement[]): Promise<D1Result[]> {
  const results: D1Result[] = [];
  for (let i = 0; i < statements.length; i += BATCH) results.push(...(await d1.batch(statements.slice(i, i + BATCH))));
  return results;
}

const changed = (results: D1Result[]) => results.filter((r) => r.meta.changes > 0).length;

export interface ImportedRow {
  title: string;
  title_source: "default" | "first_message" | "model" | "user";
  created_at: string;
  updated_at: string;
  pinned: boolean;
  /** A protocol ModelRef as JSON, checked to be one of the user's models. */
  model: string | null;
}

/** A new conversation's index row, with the times and the title it had where it came from; its new id. */
export async function insertImportedConversation(d1: D1Database, userId: string, row: ImportedRow): Promise<string> {
  const id = crypto.randomUUID();
  await d1
    .prepare(
      `INSERT INTO conversations (id, user_id, title, title_source, created_at, updated_at, pinned, model)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    )
    .bind(id, userId, row.title, row.title_source, row.created_at, row.updated_at, row.pinned ? 1 : 0, row.model)
    .run();
  return id;
}

export async function deleteImportedConversation(d1: D1Database, userId: string, id: string): Promise<void> {
  await d1.prepare("DELETE FROM conversations WHERE id = ? AND user_id = ?").bind(id, userId).run();
}

/** Every note path the user has. */
export async function notePaths(d1: D1Database, userId: string): Promise<Set<string>> {
  const { results } = await d1.prepare("SELECT path FROM notes WHERE user_id = ?").bind(userId).all<{ path: string }>();
  return new Set(results.map((r) => r.path));
}

/** Adds notes at paths the caller found free; one taken since (a write meanwhile) is left as it is. Returns how many. */
export async function insertNotes(
  d1: D1Database,
  userId: string,
  notes: readonly { path: string; content: string }[],
): Promise<number> {
  const statements = notes.map((note) =>
    d1
      .prepare("INSERT INTO notes (user_id, path, content) VALUES (?, ?, ?) ON CONFLICT (user_id, path) DO NOTHING")
      .bind(userId, note.path, note.content),
  );
  return changed(await inBatches(d1, statements));
}

export async function insertTasks(d1: D1Database, userId: string, tasks: ExportedTasks["tasks"]): Promise<number> {
  const statements = tasks.map((task) =>
    d1
      .prepare(
        "INSERT INTO tasks (id, user_id, title, status, details, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
      )
      .bind(crypto.randomUUID(), userId, task.title, task.status, task.details, task.created_at, task.updated_at),
  );
  return changed(await inBatches(d1, statements));
}

type Entry = ExportedLibrary["entries"][number];

/** The user's knowledge entries or workflows by slug. */
export async function libraryEntries(
  d1: D1Database,
  kind: "knowledge" | "workflows",
  userId: string,
): Promise<Map<string, Entry>> {
  const table = kind === "knowledge" ? "knowledge" : "workflows";
  const { results } = await d1
    .prepare(`SELECT slug, title, body FROM ${table} WHERE user_id = ?`)
    .bind(userId)
    .all<Entry>();
  return new Map(results.map((entry) => [entry.slug, entry]));
}

/** Adds entries at slugs the caller found free. Returns how many. */
export async function insertLibraryEntries(
  d1: D1Database,
  kind: "knowledge" | "workflows",
  userId: string,
  entries: readonly Entry[],
): Promise<number> {
  const table = kind === "knowledge" ? "knowledge" : "workflows";
  const statements = entries.map((entry) =>
    d1
      .prepare(`INSERT INTO ${table} (user_id, slug, title, body) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING`)
      .bind(userId, entry.slug, entry.title, entry.body),
  );
  return changed(await inBatches(d1, statements));
}

type ImportedSchedule = ExportedSchedules["schedules"][number];

/**
 * Adds schedules, paused (nothing runs until the user resumes one), while the user has fewer than
 * MAX_SCHEDULES: the count is in each insert, so the cap holds under anything running meanwhile.
 * Returns how many were added.
 */
export async function insertPausedSchedules(
  d1: D1Database,
  userId: string,
  schedules: readonly ImportedSchedule[],
): Promise<number> {
  const statements = schedules.map((s) =>
    d1
      .prepare(
        `INSERT INTO schedules (id, user_id, conversation_id, name, text, kind, at, cron, time_zone, paused, next_run_at)
         SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, 1, NULL
         WHERE (SELECT count(*) FROM schedules WHERE user_id = ?2) < ?10
           AND EXISTS (SELECT 1 FROM conversations WHERE id = ?3 AND user_id = ?2)`,
      )
      .bind(
        crypto.randomUUID(),
        userId,
        s.conversation_id,
        s.name,
        s.text,
        s.kind,
        s.at,
        s.cron,
        s.time_zone,
        MAX_SCHEDULES,
      ),
  );
  return changed(await inBatches(d1, statements));
}

/**
 * The archive's projects as new ones (their conversations, by the ids the import gave them, moved in),
 * its memories (each in its new project, from its new conversation), and, where the settings are
 * applied, its custom instructions.
 */
export async function importProjects(
  d1: D1Database,
  userId: string,
  archived: ExportedProjects,
  conversationIds: ReadonlyMap<string, string>,
  withSettings: boolean,
): Promise<{ projects: number; memories: number }> {
  if (withSettings) await saveInstructions(d1, userId, archived.instructions);
  const projectIds = new Map<string, string>();
  for (const project of archived.projects) {
    const row = await createProject(d1, userId, project);
    if (!row) continue; // past the cap: the import's summary says how many came
    projectIds.set(project.id, row.id);
    for (const id of project.conversations) {
      const moved = conversationIds.get(id);
      if (moved) await setConversationProject(d1, userId, moved, row.id);
    }
  }
  let memories = 0;
  for (const memory of archived.memories) {
    const projectId = memory.project_id === null ? null : projectIds.get(memory.project_id);
    if (projectId === undefined) continue;
    const conversationId =
      memory.conversation_id === null ? null : (conversationIds.get(memory.conversation_id) ?? null);
    if (await createMemory(d1, userId, { text: memory.text, projectId, conversationId, seq: null })) memories++;
  }
  return { projects: projectIds.size, memories };
}
