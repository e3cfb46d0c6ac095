// A user's projects in D1 (docs/protocol.md "Projects, instructions and memory"): a name, instructions, a
// memory switch and a default model; its conversations and files point at it. Always looked up with its
// owner: another user's project is a missing one (404).
import { and, asc, count, desc, eq, inArray, isNotNull } from "drizzle-orm";
import type { ModelRef } from "../protocol";
import {
  type CreateProject,
  MAX_PROJECTS,
  NO_PROJECT_DEFAULTS,
  type Project,
  type ProjectDefaults,
  ProjectDefaultsSchema,
  type ProjectIncludes,
  ProjectIncludesSchema,
  type UpdateProject,
} from "../protocol/projects";
import { database, nowIso } from "./client";
import { type FileRow, projectFiles, toAttachment } from "./files";
import { parseModelRef } from "./providers";
import { conversations, files, memories, projects, schedules } from "./schema";

export type ProjectRow = typeof projects.$inferSelect;

const newProjectId = () => `p_${crypto.randomUUID().replaceAll("-", "")}`;
const modelJson = (ref: ModelRef | null | undefined) => (ref ? JSON.stringify(ref) : null);

/** What the project includes; a stored value that no longer passes is nothing. */
export const includesOf = (stored: unknown): ProjectIncludes => ProjectIncludesSchema.parse(stored ?? {});

/** The saved defaults; a stored value that no longer passes (bounds changed) is none. */
export function defaultsOf(stored: unknown): ProjectDefaults {
  const parsed = ProjectDefaultsSchema.safeParse(stored ?? {});
  return parsed.success ? parsed.data : NO_PROJECT_DEFAULTS;
}

export function toProject(row: ProjectRow, conversationCount: number, files: readonly FileRow[]): Project {
  const model = parseModelRef(row.model);
  return {
    id: row.id,
    name: row.name,
    instructions: row.instructions,
    memory: row.memory,
    ...(model ? { model } : {}),
    defaults: defaultsOf(row.defaults),
    ...includesOf(row.includes),
    created_at: row.createdAt,
    updated_at: row.updatedAt,
    conversations: conversationCount,
    files: files.map(toAttachment),
  };
}

export async function findProject(d1: D1Database, userId: string, id: string): Promise<ProjectRow | undefined> {
  const rows = await database(d1)
    .select()
    .from(projects)
    .where(and(eq(projects.id, id), eq(projects.userId, userId)))
    .limit(1);
  return rows[0];
}

/** The project as the API shows it: with how many conversations it holds and its files. */
export async function shownProject(d1: D1Database, row: ProjectRow): Promise<Project> {
  const [counted] = await database(d1)
    .select({ n: count() })
    .from(conversations)
    .where(and(eq(conversations.userId, row.userId), eq(conversations.projectId, row.id)));
  return toProject(row, counted?.n ?? 0, await projectFiles(d1, row.userId, row.id));
}

/** Every project of the user's, the latest changed first, with their counts and files (three queries). */
export async function listProjects(d1: D1Database, userId: string): Promise<Project[]> {
  const db = database(d1);
  const rows = await db.select().from(projects).where(eq(projects.userId, userId)).orderBy(desc(projects.updatedAt));
  if (!rows.length) return [];
  // Grouped over the user's conversations, not `IN (ids…)`: D1 takes at most 100 bound values a statement.
  const counts = await db
    .select({ id: conversations.projectId, n: count() })
    .from(conversations)
    .where(and(eq(conversations.userId, userId), isNotNull(conversations.projectId)))
    .groupBy(conversations.projectId);
  const { results: files } = await d1
    .prepare("SELECT * FROM files WHERE user_id = ? AND project_id IS NOT NULL ORDER BY created_at, id")
    .bind(userId)
    .all<FileRow>();
  const countOf = new Map(counts.map((c) => [c.id, c.n]));
  return rows.map((row) =>
    toProject(
      row,
      countOf.get(row.id) ?? 0,
      files.filter((f) => f.project_id === row.id),
    ),
  );
}

/**
 * Makes a project, unless the user has MAX_PROJECTS already: undefined then. The cap holds under
 * concurrent creates: the insert counts in the same statement.
 */
export async function createProject(
  d1: D1Database,
  userId: string,
  input: CreateProject,
): Promise<ProjectRow | undefined> {
  const now = nowIso();
  const row: ProjectRow = {
    id: newProjectId(),
    userId,
    name: input.name,
    instructions: input.instructions?.trim() ?? "",
    memory: input.memory ?? true,
    model: modelJson(input.model),
    defaults: input.defaults ?? NO_PROJECT_DEFAULTS,
    includes: { knowledge: input.knowledge ?? [], notes: input.notes ?? [] },
    createdAt: now,
    updatedAt: now,
  };
  const { meta } = await d1
    .prepare(
      `INSERT INTO projects (id, user_id, name, instructions, memory, model, defaults, includes, created_at, updated_at)
       SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?10, ?8, ?8 WHERE (SELECT count(*) FROM projects WHERE user_id = ?2) < ?9`,
    )
    .bind(
      row.id,
      userId,
      row.name,
      row.instructions,
      row.memory ? 1 : 0,
      row.model,
      JSON.stringify(row.defaults),
      now,
      MAX_PROJECTS,
      JSON.stringify(row.includes),
    )
    .run();
  return meta.changes === 1 ? row : undefined;
}

export async function updateProject(d1: D1Database, row: ProjectRow, patch: UpdateProject): Promise<ProjectRow> {
  const changes = {
    ...(patch.name !== undefined ? { name: patch.name } : {}),
    ...(patch.instructions !== undefined ? { instructions: patch.instructions.trim() } : {}),
    ...(patch.memory !== undefined ? { memory: patch.memory } : {}),
    ...(patch.model !== undefined ? { model: modelJson(patch.model) } : {}),
    ...(patch.defaults !== undefined ? { defaults: patch.defaults } : {}),
    ...(patch.knowledge !== undefined || patch.notes !== undefined
      ? { includes: includedAfter(includesOf(row.includes), patch) }
      : {}),
    updatedAt: nowIso(),
  };
  await database(d1).update(projects).set(changes).where(eq(projects.id, row.id));
  return { ...row, ...changes };
}

/**
 * Deletes a project's row and its memories; its conversations stay, outside any project, and its
 * schedules go on in the conversation of their latest run. Its files go
 * first (R2 and their rows, d1/files.ts deleteProjectFiles), by the caller.
 */
export async function deleteProject(d1: D1Database, row: ProjectRow): Promise<void> {
  const db = database(d1);
  await db.batch([
    db
      .update(conversations)
      .set({ projectId: null })
      .where(and(eq(conversations.userId, row.userId), eq(conversations.projectId, row.id))),
    db.delete(memories).where(and(eq(memories.userId, row.userId), eq(memories.projectId, row.id))),
    // Its schedules go on in the conversation of their latest run.
    db
      .update(schedules)
      .set({ projectId: null })
      .where(and(eq(schedules.userId, row.userId), eq(schedules.projectId, row.id))),
    db.delete(projects).where(eq(projects.id, row.id)),
  ]);
}

const includedAfter = (saved: ProjectIncludes, patch: UpdateProject): ProjectIncludes => ({
  knowledge: patch.knowledge ?? saved.knowledge,
  notes: patch.notes ?? saved.notes,
});

/** Puts the user's conversation in a project (its own, checked by the caller) or, with null, out of any. */
export async function setConversationProject(
  d1: D1Database,
  userId: string,
  conversationId: string,
  projectId: string | null,
): Promise<void> {
  await database(d1)
    .update(conversations)
    .set({ projectId })
    .where(and(eq(conversations.id, conversationId), eq(conversations.userId, userId)));
}

/** What a turn reads of its conversation's project (with its settings, user-settings.ts): none when outside one. */
export const conversationProjectQuery = (d1: D1Database, userId: string, conversationId: string) =>
  database(d1)
    .select({
      id: projects.id,
      name: projects.name,
      instructions: projects.instructions,
      memory: projects.memory,
      defaults: projects.defaults,
      includes: projects.includes,
    })
    .from(conversations)
    .innerJoin(projects, eq(projects.id, conversations.projectId))
    .where(and(eq(conversations.id, conversationId), eq(conversations.userId, userId)))
    .limit(1);

export type ConversationProject = Awaited<ReturnType<typeof conversationProjectQuery>>[number];

/** The project id of the user's conversation, as a subquery (`inArray(column, …)`): none outside a project. */
export const projectOfConversation = (d1: D1Database, userId: string, conversationId: string) =>
  database(d1)
    .select({ id: conversations.projectId })
    .from(conversations)
    .where(and(eq(conversations.id, conversationId), eq(conversations.userId, userId)));

/** The files of a conversation's project, oldest first, as attachments' columns (with the turn's settings). */
export const conversationProjectFilesQuery = (d1: D1Database, userId: string, conversationId: string) => {
  const db = database(d1);
  const project = projectOfConversation(d1, userId, conversationId);
  return db
    .select({
      id: files.id,
      name: files.name,
      content_type: files.contentType,
      kind: files.kind,
      size: files.size,
      pages: files.pages,
      lines: files.lines,
      width: files.width,
      height: files.height,
    })
    .from(files)
    .where(and(eq(files.userId, userId), inArray(files.projectId, project)))
    .orderBy(asc(files.createdAt), asc(files.id));
};
