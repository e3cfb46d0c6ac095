// A checked Oracle export written into the account (docs/protocol.md "Export and import"), beside what
// it holds: settings applied; notes added (one whose path is taken comes in under a new path, said in
// the answer); tasks added; library entries added (an entry the account already holds as it is, is not
// doubled; one whose slug holds something else comes in under a new slug); every conversation as a new
// one, with every branch; then schedules, paused, in the new conversations. The conversations, the slow
// part, are what the progress counts.

import { checkRepeat } from "../../core/schedule-times";
import {
  importProjects,
  insertLibraryEntries,
  insertNotes,
  insertPausedSchedules,
  insertTasks,
  libraryEntries,
  notePaths,
} from "../../d1/account-import";
import { ensureLibrarySeeded } from "../../d1/library/defaults";
import { type Placement, shardDb } from "../../d1/shards";
import { tellUserChanged } from "../../durable-objects/user-changes";
import { type ExportedLibrary, type ImportSummary, isTimeZone, type ModelRef } from "../../protocol";
import { MAX_MEMORIES, MAX_PROJECTS } from "../../protocol/projects";
import { freeNotePath, freeSlug } from "./free-names";
import { importConversation } from "./import-conversation";
import { applySettings, usableModel } from "./import-settings";
import type { Progress } from "./progress";
import { type CheckedArchive, noteText, readConversation } from "./read-archive";

/** Notes written per batch: their text is read from the archive just before, so memory holds a batch's worth. */
const NOTES_AT_ONCE = 40;

export async function importArchive(
  env: Env,
  owner: Placement,
  archive: CheckedArchive,
  progress: Progress,
): Promise<ImportSummary> {
  const { userId } = owner;
  const shard = shardDb(env, owner.shard);
  const summary = emptySummary();
  if (archive.settings) {
    summary.left_out.push(...(await applySettings(env, owner, archive.settings)));
    summary.settings = true;
    await tellUserChanged(env, owner, "settings");
  }
  await importNotes(shard, userId, archive, summary);
  summary.tasks = await insertTasks(shard, userId, archive.tasks);
  await ensureLibrarySeeded(shard, userId);
  summary.knowledge = await importEntries(shard, "knowledge", userId, archive.knowledge, summary);
  summary.workflows = await importEntries(shard, "workflows", userId, archive.workflows, summary);
  const ids = await importConversations(env, owner, archive, summary, progress);
  const now = new Date();
  const schedules = archive.schedules.flatMap((s) => {
    const conversation_id = ids.get(s.conversation_id);
    return conversation_id && runnable(s, now) ? [{ ...s, conversation_id }] : [];
  });
  summary.schedules = await insertPausedSchedules(shard, userId, schedules);
  if (archive.projects) {
    const counted = await importProjects(shard, userId, archive.projects, ids, Boolean(archive.settings));
    Object.assign(summary, counted);
    const missed = archive.projects.projects.length - counted.projects;
    const forgotten = archive.projects.memories.length - counted.memories;
    if (missed)
      summary.left_out.push(`${missed} project${missed === 1 ? "" : "s"}: at most ${MAX_PROJECTS} per account`);
    if (forgotten)
      summary.left_out.push(
        `${forgotten} ${forgotten === 1 ? "memory" : "memories"}: at most ${MAX_MEMORIES} per account`,
      );
  }
  const missed = archive.schedules.length - summary.schedules;
  if (missed)
    summary.left_out.push(
      `${missed} schedule${missed === 1 ? "" : "s"}: at most 20 per account, each in a conversation of the archive`,
    );
  return summary;
}

/** A schedule whose rule would run once resumed: a one-off's time, or a cron rule read in a zone this runtime knows. */
function runnable(schedule: CheckedArchive["schedules"][number], now: Date): boolean {
  if (!isTimeZone(schedule.time_zone)) return false;
  if (schedule.kind === "once") return schedule.at !== null;
  return schedule.cron !== null && "cron" in checkRepeat(schedule.cron, schedule.time_zone, now);
}

export function emptySummary(): ImportSummary {
  return {
    conversations: 0,
    messages: 0,
    notes: 0,
    tasks: 0,
    knowledge: 0,
    workflows: 0,
    schedules: 0,
    projects: 0,
    memories: 0,
    settings: false,
    renamed_notes: [],
    renamed_entries: [],
    left_out: [],
  };
}

async function importNotes(d1: D1Database, userId: string, archive: CheckedArchive, summary: ImportSummary) {
  const taken = await notePaths(d1, userId);
  for (let i = 0; i < archive.notes.length; i += NOTES_AT_ONCE) {
    const batch = archive.notes.slice(i, i + NOTES_AT_ONCE).map(({ path, entry }) => {
      const free = freeNotePath(path, taken);
      taken.add(free);
      if (free !== path) summary.renamed_notes.push({ from: path, to: free });
      return { path: free, content: noteText(entry) };
    });
    summary.notes += await insertNotes(d1, userId, batch);
  }
}

async function importEntries(
  d1: D1Database,
  kind: "knowledge" | "workflows",
  userId: string,
  entries: ExportedLibrary["entries"],
  summary: ImportSummary,
): Promise<number> {
  const held = await libraryEntries(d1, kind, userId);
  const taken = new Set(held.keys());
  const added = entries.flatMap((entry) => {
    const same = held.get(entry.slug);
    if (same && same.title === entry.title && same.body === entry.body) return [];
    const slug = freeSlug(entry.slug, taken);
    taken.add(slug);
    if (slug !== entry.slug)
      summary.renamed_entries.push({ from: `${kindMark(kind)}${entry.slug}`, to: `${kindMark(kind)}${slug}` });
    return [{ ...entry, slug }];
  });
  return insertLibraryEntries(d1, kind, userId, added);
}

const kindMark = (kind: "knowledge" | "workflows") => (kind === "knowledge" ? "#" : "/");

/** Every conversation, one after another; the archive's ids → the new ones. */
async function importConversations(
  env: Env,
  owner: Placement,
  archive: CheckedArchive,
  summary: ImportSummary,
  progress: Progress,
): Promise<Map<string, string>> {
  const ids = new Map<string, string>();
  const models = new Map<string, ModelRef | undefined>();
  const total = archive.conversations.length;
  progress(0, total);
  for (const entry of archive.conversations) {
    const conversation = readConversation(entry);
    const { id, model, ...row } = conversation.conversation;
    let usable: ModelRef | undefined;
    if (model) {
      const key = JSON.stringify(model);
      if (!models.has(key)) models.set(key, await usableModel(env, owner, model));
      usable = models.get(key);
    }
    const fields = { ...row, messages: conversation.messages, leaf_seq: conversation.leaf_seq };
    ids.set(id, await importConversation(env, owner, fields, usable ? JSON.stringify(usable) : null));
    summary.conversations++;
    summary.messages += conversation.messages.length;
    progress(summary.conversations, total);
  }
  return ids;
}
