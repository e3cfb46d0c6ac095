// The user's schedules in D1, shared by the /api/schedules routes, the agent's `schedule` tool and the
// conversation object that runs them, so the rules exist once. Every statement is scoped by user id:
// another user's schedule (or conversation) is indistinguishable from a missing one.

import { checkAt, checkRepeat, nextRun, type Rule, type RuleProblem, ruleNote, ruleOf } from "../core/schedule-times";
import {
  MAX_SCHEDULES,
  type Schedule,
  type ScheduleCreate,
  type SchedulePatch,
  type ScheduleStatus,
  scheduleNameOf,
} from "../protocol/schedules";
import { writeOnce } from "./tool-effects";

/** Why a write was refused, with the HTTP status the routes answer and the field to blame. */
export interface ScheduleRefusal {
  status: 400 | 404 | 409;
  code: "invalid_input" | "not_found" | "conflict";
  message: string;
  field?: string;
}
export type ScheduleWrite = { schedule: Schedule; repeated?: boolean } | { refused: ScheduleRefusal };

const SELECT = `SELECT s.id, s.conversation_id, s.project_id, c.title AS conversation_title, s.name, s.text, s.kind, s.at, s.cron,
  s.time_zone, s.paused, s.next_run_at, s.last_run_at, s.last_status, s.last_error, s.created_at, s.updated_at
  FROM schedules s JOIN conversations c ON c.id = s.conversation_id`;

type Row = Omit<Schedule, "paused" | "note"> & { paused: number };
const toSchedule = (row: Row): Schedule => ({ ...row, paused: row.paused === 1 });

/** A schedule as the API answers it: a recurring rule's times that a daylight-saving change moves, in words. */
function answered(row: Row, now = new Date()): Schedule {
  const note = row.kind === "cron" && row.cron ? ruleNote(row.cron, row.time_zone, now) : undefined;
  return { ...toSchedule(row), ...(note ? { note } : {}) };
}

export async function listSchedules(d1: D1Database, userId: string, conversationId?: string): Promise<Schedule[]> {
  const where = conversationId ? "s.user_id = ?1 AND s.conversation_id = ?2" : "s.user_id = ?1";
  const statement = d1.prepare(`${SELECT} WHERE ${where} ORDER BY s.created_at, s.id`);
  const { results } = await (conversationId
    ? statement.bind(userId, conversationId)
    : statement.bind(userId)
  ).all<Row>();
  const now = new Date();
  return results.map((row) => answered(row, now));
}

export async function getSchedule(d1: D1Database, userId: string, id: string): Promise<Schedule | undefined> {
  const row = await d1.prepare(`${SELECT} WHERE s.user_id = ?1 AND s.id = ?2`).bind(userId, id).first<Row>();
  return row ? answered(row) : undefined;
}

export async function loadTimeZone(d1: D1Database, userId: string): Promise<string | null> {
  const row = await d1
    .prepare("SELECT time_zone FROM user_time_zones WHERE user_id = ?")
    .bind(userId)
    .first<{ time_zone: string }>();
  return row?.time_zone ?? null;
}

export async function saveTimeZone(d1: D1Database, userId: string, timeZone: string): Promise<void> {
  await d1
    .prepare(
      `INSERT INTO user_time_zones (user_id, time_zone) VALUES (?1, ?2)
       ON CONFLICT (user_id) DO UPDATE SET time_zone = ?2, updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')`,
    )
    .bind(userId, timeZone)
    .run();
}

const invalidRule = (problem: RuleProblem): ScheduleRefusal => ({
  status: 400,
  code: "invalid_input",
  message: problem.message,
  field: problem.field,
});

/** A rule given, with what a daylight-saving change does to a one-off's wall time (checkAt). */
type GivenRule = Rule & { note?: string };

/** The rule a create or patch gives (`at` or `repeat`), checked in `zone`; undefined when it gives none. */
function ruleFrom(
  input: { at?: string; repeat?: string },
  zone: string,
  now: Date,
): GivenRule | RuleProblem | undefined {
  if (input.at !== undefined) {
    const checked = checkAt(input.at, zone, now);
    return "at" in checked ? { kind: "once", ...checked } : checked;
  }
  if (input.repeat !== undefined) {
    const checked = checkRepeat(input.repeat, zone, now);
    return "cron" in checked ? { kind: "cron", cron: checked.cron } : checked;
  }
  return undefined;
}

const isProblem = (value: GivenRule | RuleProblem): value is RuleProblem => "field" in value && "message" in value;

/** The answer to a write: a one-off's note (a recurring rule's comes with every read) joins it. */
const withNote = (schedule: Schedule, rule: GivenRule | undefined): Schedule =>
  rule?.note ? { ...schedule, note: rule.note } : schedule;

/**
 * The statement that makes a schedule's own conversation, named after it (in its project, with the
 * project's model), when the cap leaves room.
 */
function newConversation(
  d1: D1Database,
  userId: string,
  id: string,
  title: string,
  projectId: string | null,
): D1PreparedStatement {
  // The title is the user's own (a schedule's name), so the first message or the model never replaces it.
  return d1
    .prepare(
      `INSERT INTO conversations (id, user_id, title, title_source, project_id, model)
       SELECT ?1, ?2, ?3, 'user', ?5, (SELECT model FROM projects WHERE id = ?5 AND user_id = ?2)
       WHERE (SELECT count(*) FROM schedules WHERE user_id = ?2) < ?4`,
    )
    .bind(id, userId, title, MAX_SCHEDULES, projectId);
}

/**
 * A project's schedule's next run goes into a conversation of its own: made once (its id comes from the
 * run, so a run retried after a crash finds it), in the project, named after the schedule; false when
 * the project is gone.
 */
export async function runConversation(
  d1: D1Database,
  userId: string,
  id: string,
  title: string,
  projectId: string,
): Promise<boolean> {
  await d1
    .prepare(
      `INSERT OR IGNORE INTO conversations (id, user_id, title, title_source, project_id, model)
       SELECT ?1, ?2, ?3, 'user', p.id, p.model FROM projects p WHERE p.id = ?4 AND p.user_id = ?2`,
    )
    .bind(id, userId, title, projectId)
    .run();
  const made = await d1.prepare("SELECT 1 FROM conversations WHERE id = ? AND user_id = ?").bind(id, userId).first();
  return made !== null;
}

/** The schedule goes on in `to` (its runs' alarm with it), if it was still `from`'s. */
export async function handOverSchedule(d1: D1Database, userId: string, id: string, from: string, to: string) {
  await d1
    .prepare("UPDATE schedules SET conversation_id = ?4 WHERE id = ?1 AND user_id = ?2 AND conversation_id = ?3")
    .bind(id, userId, from, to)
    .run();
}

/**
 * Creates a schedule in one of the user's own (top-level) conversations, or, without `conversation_id`,
 * in a new conversation named after it, made in the same transaction (a refused schedule leaves none
 * behind). The cap holds under concurrent creates: the insert counts in the same statement. With a key
 * (an agent tool's call) it happens once.
 */
export async function createSchedule(
  d1: D1Database,
  userId: string,
  input: ScheduleCreate,
  key?: string,
): Promise<ScheduleWrite> {
  const now = new Date();
  if (input.conversation_id !== undefined) {
    const owned = await d1
      .prepare("SELECT id FROM conversations WHERE id = ?1 AND user_id = ?2 AND parent_id IS NULL")
      .bind(input.conversation_id, userId)
      .first();
    if (!owned)
      return { refused: { status: 404, code: "not_found", message: "No such conversation", field: "conversation_id" } };
  }
  if (input.project_id !== undefined) {
    const owned = await d1
      .prepare("SELECT id FROM projects WHERE id = ?1 AND user_id = ?2")
      .bind(input.project_id, userId)
      .first();
    if (!owned) return { refused: { status: 404, code: "not_found", message: "No such project", field: "project_id" } };
  }
  const zone = input.time_zone ?? (await loadTimeZone(d1, userId)) ?? "UTC";
  const rule = ruleFrom(input, zone, now);
  if (!rule) return { refused: invalidRule({ field: "at", message: "give exactly one of at and repeat" }) };
  if (isProblem(rule)) return { refused: invalidRule(rule) };
  const id = crypto.randomUUID();
  const name = input.name ?? scheduleNameOf(input.text);
  const conversationId = input.conversation_id ?? crypto.randomUUID();
  const next = input.paused ? null : nextRun(rule, zone, now);
  const insert = d1
    .prepare(
      `INSERT INTO schedules (id, user_id, conversation_id, name, text, kind, at, cron, time_zone, paused, next_run_at, project_id)
       SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?13
       WHERE (SELECT count(*) FROM schedules WHERE user_id = ?2) < ?12
         AND EXISTS (SELECT 1 FROM conversations WHERE id = ?3 AND user_id = ?2)
       RETURNING id`,
    )
    .bind(
      id,
      userId,
      conversationId,
      name,
      input.text,
      rule.kind,
      rule.kind === "once" ? rule.at : null,
      rule.kind === "cron" ? rule.cron : null,
      zone,
      input.paused ? 1 : 0,
      next,
      MAX_SCHEDULES,
      input.project_id ?? null,
    );
  const projectId = input.project_id ?? null;
  const write =
    input.conversation_id === undefined
      ? [newConversation(d1, userId, conversationId, name, projectId), insert]
      : [insert];
  const effect = await writeOnce<{ id: string }>(d1, userId, key, id, write);
  const createdId = effect.repeated ? effect.target : effect.results.at(-1)?.results[0]?.id;
  const schedule = createdId ? await getSchedule(d1, userId, createdId) : undefined;
  if (!schedule)
    return {
      refused: {
        status: 409,
        code: "conflict",
        message: `At most ${MAX_SCHEDULES} schedules per user; delete one first`,
      },
    };
  return { schedule: withNote(schedule, rule), repeated: effect.repeated };
}

/**
 * Changes a schedule; undefined when the user has no such schedule. The next run is computed afresh from
 * now (a resumed schedule does not catch up on the runs it missed while paused).
 */
export async function updateSchedule(
  d1: D1Database,
  userId: string,
  id: string,
  patch: SchedulePatch,
  key?: string,
): Promise<ScheduleWrite | undefined> {
  const now = new Date();
  const current = await getSchedule(d1, userId, id);
  if (!current) return undefined;
  const zone = patch.time_zone ?? current.time_zone;
  // A recurring rule is read in its zone: a new zone re-checks it.
  const given = ruleFrom(
    patch.at === undefined && patch.repeat === undefined && patch.time_zone && current.kind === "cron"
      ? { repeat: current.cron ?? "" }
      : patch,
    zone,
    now,
  );
  if (given && isProblem(given)) return { refused: invalidRule(given) };
  const rule = given ?? ruleOf(current);
  const paused = patch.paused ?? current.paused;
  const next = paused ? null : nextRun(rule, zone, now);
  if (!paused && next === null && patch.paused === false)
    return { refused: invalidRule({ field: "paused", message: "its time has passed; give a new time (at) first" }) };
  const update = d1
    .prepare(
      `UPDATE schedules SET name = ?3, text = ?4, kind = ?5, at = ?6, cron = ?7, time_zone = ?8, paused = ?9,
         next_run_at = ?10, updated_at = ?11 WHERE id = ?1 AND user_id = ?2`,
    )
    .bind(
      id,
      userId,
      patch.name ?? current.name,
      patch.text ?? current.text,
      rule.kind,
      rule.kind === "once" ? rule.at : null,
      rule.kind === "cron" ? rule.cron : null,
      zone,
      paused ? 1 : 0,
      next,
      now.toISOString(),
    );
  const effect = await writeOnce(d1, userId, key, id, [update]);
  const schedule = await getSchedule(d1, userId, id);
  return schedule ? { schedule: withNote(schedule, given), repeated: effect.repeated } : undefined;
}

/** Deletes it; the conversation it ran in (to re-arm), or undefined when the user has no such schedule. */
export async function deleteSchedule(d1: D1Database, userId: string, id: string): Promise<string | undefined> {
  const row = await d1
    .prepare("DELETE FROM schedules WHERE id = ?1 AND user_id = ?2 RETURNING conversation_id")
    .bind(id, userId)
    .first<{ conversation_id: string }>();
  return row?.conversation_id;
}

// What the conversation's object reads and writes (durable-objects/conversation/triggers/scheduled-runs.ts).

/** The conversation's schedules that are due at `now` (not paused). */
export async function dueSchedules(d1: D1Database, userId: string, conversationId: string, now: Date) {
  const { results } = await d1
    .prepare(
      `${SELECT} WHERE s.user_id = ?1 AND s.conversation_id = ?2 AND s.paused = 0
         AND s.next_run_at IS NOT NULL AND s.next_run_at <= ?3 ORDER BY s.next_run_at`,
    )
    .bind(userId, conversationId, now.toISOString())
    .all<Row>();
  return results.map(toSchedule);
}

/**
 * Moves a due schedule on to `next` (null: a one-off is done), only if it is still due at `from`: of two
 * alarms that read the same due run, one advances it. True when this one did.
 */
export async function advanceSchedule(
  d1: D1Database,
  userId: string,
  id: string,
  from: string,
  next: string | null,
): Promise<boolean> {
  const row = await d1
    .prepare(
      `UPDATE schedules SET next_run_at = ?4, last_status = 'queued', last_error = NULL
       WHERE id = ?1 AND user_id = ?2 AND next_run_at = ?3 RETURNING id`,
    )
    .bind(id, userId, from, next)
    .first();
  return row !== null;
}

/** The earliest run of the conversation's schedules that are not paused, or null. */
export async function earliestRun(d1: D1Database, userId: string, conversationId: string): Promise<string | null> {
  const row = await d1
    .prepare(
      `SELECT min(next_run_at) AS next FROM schedules
       WHERE user_id = ?1 AND conversation_id = ?2 AND paused = 0 AND next_run_at IS NOT NULL`,
    )
    .bind(userId, conversationId)
    .first<{ next: string | null }>();
  return row?.next ?? null;
}

/** Whether a queued run's schedule still exists and is not paused (a delete or a pause stops it). */
export async function stillScheduled(d1: D1Database, userId: string, id: string): Promise<boolean> {
  const row = await d1
    .prepare("SELECT paused FROM schedules WHERE id = ?1 AND user_id = ?2")
    .bind(id, userId)
    .first<{ paused: number }>();
  return row !== null && row.paused === 0;
}

/** What became of a run: started (its turn began), skipped or failed, with why. */
export async function recordRun(
  d1: D1Database,
  userId: string,
  id: string,
  status: ScheduleStatus,
  at: Date,
  error?: string,
): Promise<void> {
  await d1
    .prepare("UPDATE schedules SET last_status = ?3, last_run_at = ?4, last_error = ?5 WHERE id = ?1 AND user_id = ?2")
    .bind(id, userId, status, at.toISOString(), error ?? null)
    .run();
}
