// Scheduled runs (docs/protocol.md "Schedules"): the routes' rules and ownership, and the conversation
// object's alarm that posts a due schedule's message (labelled with its origin) and starts its turn,
// once per due run however many were missed, after a running turn, and never after a delete or a pause.
import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { Message } from "../../protocol";
import { MAX_SCHEDULES, type Schedule, wallTime } from "../../protocol/schedules";
import { marker } from "../support/fake-openai-client";
import { fallBack as nextFallBack, springForward as nextSpringForward } from "../support/new-york-dst";
import { api, createConversation, eventually, type Session, signup, stubOf } from "./helpers";
import { history, type Scenario, scenario } from "./turn-helpers";

const inHours = (h: number) => new Date(Date.now() + h * 3600_000).toISOString();

async function create(session: Session, body: Record<string, unknown>): Promise<Response> {
  return api("/api/schedules", { method: "POST", json: body, headers: session.headers });
}

async function created(session: Session, body: Record<string, unknown>): Promise<Schedule> {
  const res = await create(session, body);
  if (res.status !== 201) throw new Error(`create schedule: ${res.status} ${await res.text()}`);
  return res.json();
}

async function read(session: Session, id: string): Promise<Schedule> {
  return (await api(`/api/schedules/${id}`, { headers: session.headers })).json();
}

/** Drives the clock: the schedule's next run moved into the past, as if its time had come. */
async function makeDue(session: Session, id: string, at = new Date(Date.now() - 1000).toISOString()): Promise<void> {
  // In the owner's shard; a schedule not found there would leave the test checking nothing.
  const { meta } = await session.db.prepare("UPDATE schedules SET next_run_at = ? WHERE id = ?").bind(at, id).run();
  if (meta.changes !== 1) throw new Error(`makeDue: no schedule ${id} in the owner's shard`);
}

const scheduledMessages = (messages: Message[]) =>
  messages.filter((m): m is Extract<Message, { role: "user" }> => m.role === "user" && m.origin !== undefined);

async function alarmAt(conversationId: string): Promise<number | null> {
  return runInDurableObject(stubOf(conversationId), (_instance, state) => state.storage.getAlarm());
}

describe("a schedule's run", () => {
  it("fires at its time: posts the labelled message and starts a turn", async () => {
    const s = await scenario([{ text: "Here is your review." }]);
    const schedule = await created(s.session, {
      conversation_id: s.conversationId,
      name: "Morning review",
      text: `review my day ${marker(s.key)}`,
      at: inHours(1),
    });
    expect(schedule).toMatchObject({ kind: "once", paused: false, next_run_at: schedule.at });
    // The object armed its alarm for the run.
    expect(await alarmAt(s.conversationId)).toBe(Date.parse(schedule.at ?? ""));

    const dueAt = new Date(Date.now() - 1000).toISOString();
    await makeDue(s.session, schedule.id, dueAt);
    const from = s.socket.frames.length;
    expect(await runDurableObjectAlarm(stubOf(s.conversationId))).toBe(true);
    const posted = await s.socket.next("message", (f) => f.message.role === "user", { from });
    expect(posted.message).toMatchObject({
      role: "user",
      content: `review my day ${marker(s.key)}`,
      origin: { kind: "schedule", schedule_id: schedule.id, name: "Morning review", due_at: dueAt },
    });
    const done = await s.socket.next("response_complete", () => true, { from, timeoutMs: 15_000 });
    expect(done.termination_reason).toBe("completed");
    const after = await read(s.session, schedule.id);
    expect(after).toMatchObject({ next_run_at: null, last_status: "started" });
    expect(after.last_run_at).not.toBeNull();
    // A one-off runs once: another alarm posts nothing more.
    await runDurableObjectAlarm(stubOf(s.conversationId));
    expect(scheduledMessages(await history(s))).toHaveLength(1);
  });

  it("in a project, posts each run into a new conversation of the project, which the schedule then follows", async () => {
    const s = await scenario([{ text: "Standup one." }, { text: "Standup two." }]);
    const project = (await (
      await api("/api/projects", {
        method: "POST",
        json: { name: "Team", instructions: "We ship on Fridays." },
        headers: s.session.headers,
      })
    ).json()) as { id: string };
    const schedule = await created(s.session, {
      project_id: project.id,
      name: "Standup",
      text: `standup notes ${marker(s.key)}`,
      repeat: "every day at 09:00",
      time_zone: "UTC",
    });
    expect(schedule).toMatchObject({ project_id: project.id, conversation_title: "Standup" });
    const first = schedule.conversation_id;
    const conversation = async (id: string) =>
      (await (await api(`/api/conversations/${id}`, { headers: s.session.headers })).json()) as { project_id?: string };
    expect((await conversation(first)).project_id).toBe(project.id);

    // The first run goes into the schedule's own (empty) conversation.
    await makeDue(s.session, schedule.id);
    await runDurableObjectAlarm(stubOf(first));
    const messagesOf = async (id: string) =>
      (
        (await (await api(`/api/conversations/${id}/messages`, { headers: s.session.headers })).json()) as {
          messages: Message[];
        }
      ).messages;
    const answered = (messages: Message[]) => messages.some((m) => m.role === "agent");
    await eventually(() => messagesOf(first), answered, "the first run's answer");

    // The second, into a new conversation of the project; the schedule (and its alarm) moves there.
    await makeDue(s.session, schedule.id);
    await runDurableObjectAlarm(stubOf(first));
    const moved = await read(s.session, schedule.id);
    expect(moved.conversation_id).not.toBe(first);
    expect((await conversation(moved.conversation_id)).project_id).toBe(project.id);
    await eventually(() => messagesOf(moved.conversation_id), answered, "the second run's answer");
    const second = await messagesOf(moved.conversation_id);
    expect(scheduledMessages(second)).toHaveLength(1);
    // It starts like any conversation of the project: with the project's instructions.
    expect(
      second.some(
        (m) => m.role === "system" && m.item.kind === "context" && m.item.body.includes("We ship on Fridays."),
      ),
    ).toBe(true);
    expect(scheduledMessages(await messagesOf(first))).toHaveLength(1);
    expect(await alarmAt(moved.conversation_id)).toBe(Date.parse(moved.next_run_at ?? ""));

    const other = await signup();
    expect((await create(other, { project_id: project.id, text: "x", at: inHours(1) })).status).toBe(404);
    const both = await create(s.session, { project_id: project.id, conversation_id: first, text: "x", at: inHours(1) });
    expect(both.status).toBe(400);
  });

  it("runs a recurring schedule that missed several runs once, then waits for the next occurrence", async () => {
    const s = await scenario([{ text: "Daily check done." }, { text: "should not run" }]);
    const schedule = await created(s.session, {
      conversation_id: s.conversationId,
      text: `daily check ${marker(s.key)}`,
      repeat: "every day at 08:00",
      time_zone: "Europe/Paris",
    });
    expect(schedule).toMatchObject({ kind: "cron", cron: "0 8 * * *", time_zone: "Europe/Paris" });
    // Three days of runs missed (the object was not awake).
    await makeDue(s.session, schedule.id, new Date(Date.now() - 3 * 86_400_000).toISOString());
    const from = s.socket.frames.length;
    expect(await runDurableObjectAlarm(stubOf(s.conversationId))).toBe(true);
    await s.socket.next("response_complete", () => true, { from, timeoutMs: 15_000 });
    await runDurableObjectAlarm(stubOf(s.conversationId));
    expect(scheduledMessages(await history(s))).toHaveLength(1);
    const after = await read(s.session, schedule.id);
    expect(Date.parse(after.next_run_at ?? "")).toBeGreaterThan(Date.now());
    expect(new Date(after.next_run_at ?? "").getUTCMinutes()).toBe(0);
    expect(await alarmAt(s.conversationId)).not.toBeNull();
  });

  it("does not run after a pause or a delete", async () => {
    const s = await scenario([{ text: "should not run" }]);
    const paused = await created(s.session, { conversation_id: s.conversationId, text: "paused one", at: inHours(1) });
    const deleted = await created(s.session, {
      conversation_id: s.conversationId,
      text: "deleted one",
      at: inHours(2),
    });
    const res = await api(`/api/schedules/${paused.id}`, {
      method: "PATCH",
      json: { paused: true },
      headers: s.session.headers,
    });
    expect(await res.json()).toMatchObject({ paused: true, next_run_at: null });
    await makeDue(s.session, deleted.id);
    expect((await api(`/api/schedules/${deleted.id}`, { method: "DELETE", headers: s.session.headers })).status).toBe(
      204,
    );
    await runDurableObjectAlarm(stubOf(s.conversationId));
    expect(scheduledMessages(await history(s))).toHaveLength(0);
    // Resumed, it runs again from now on.
    const resumed = await api(`/api/schedules/${paused.id}`, {
      method: "PATCH",
      json: { paused: false },
      headers: s.session.headers,
    });
    expect(await resumed.json()).toMatchObject({ paused: false, next_run_at: paused.at });
  });

  it("starts a run that came due while a turn ran once that turn ends", async () => {
    const ask = { tool_calls: [{ name: "request_input", arguments: { question: "Which one?" } }] };
    const s: Scenario = await scenario([ask, { text: "First turn done." }, { text: "Scheduled turn done." }]);
    const schedule = await created(s.session, {
      conversation_id: s.conversationId,
      name: "Follow-up",
      text: `follow up ${marker(s.key)}`,
      at: inHours(1),
    });
    const from = s.socket.frames.length;
    s.socket.send({ type: "chat", content: `start ${marker(s.key)}` });
    await s.socket.next("agent_update", (f) => f.update_type === "agent_request_input", { from });
    await makeDue(s.session, schedule.id);
    expect(await runDurableObjectAlarm(stubOf(s.conversationId))).toBe(true);
    // Queued, not started: still one user message, and the schedule says so.
    expect((await history(s)).filter((m) => m.role === "user")).toHaveLength(1);
    expect(await read(s.session, schedule.id)).toMatchObject({ last_status: "queued", next_run_at: null });

    s.socket.send({ type: "agent_user_input", content: "this one" });
    await s.socket.next("response_complete", () => true, { from });
    const posted = await s.socket.next("message", (f) => f.message.role === "user" && !!f.message.origin, { from });
    expect(posted.message).toMatchObject({ origin: { name: "Follow-up" } });
    const second = s.socket.frames.indexOf(posted);
    await s.socket.next("response_complete", () => true, { from: second, timeoutMs: 15_000 });
    await eventually(
      () => read(s.session, schedule.id),
      (x) => x.last_status === "started",
      "schedule status",
    );
    expect(scheduledMessages(await history(s))).toHaveLength(1);
  });

  it("is created by the agent's schedule tool in the user's time zone, once", async () => {
    const s = await scenario([
      // A first turn: its end leaves the object's kept next run (none) in place of a D1 read.
      { text: "Hello." },
      {
        tool_calls: [
          {
            name: "schedule",
            arguments: { action: "create", name: "Friday follow-up", text: "follow up", at: "2027-01-08T09:00" },
          },
        ],
      },
      { text: "Scheduled." },
    ]);
    await api("/api/settings/time-zone", {
      method: "PUT",
      json: { time_zone: "America/New_York" },
      headers: s.session.headers,
    });
    for (const content of ["hello", "remind me"]) {
      const from = s.socket.frames.length;
      s.socket.send({ type: "chat", content: `${content} ${marker(s.key)}` });
      await s.socket.next("response_complete", () => true, { from });
    }
    const tool = (await history(s)).find((m) => m.role === "tool");
    expect(tool).toMatchObject({ tool: "schedule", status: "success" });
    const list = (await (await api("/api/schedules", { headers: s.session.headers })).json()) as {
      schedules: Schedule[];
    };
    expect(list.schedules).toHaveLength(1);
    expect(list.schedules[0]).toMatchObject({
      name: "Friday follow-up",
      conversation_id: s.conversationId,
      time_zone: "America/New_York",
      at: "2027-01-08T14:00:00.000Z",
    });
    // Armed once the turn ended.
    await eventually(
      () => alarmAt(s.conversationId),
      (at) => at === Date.parse("2027-01-08T14:00:00.000Z"),
      "alarm",
    );
  });
});

describe("schedule routes", () => {
  it("refuses another user's conversation and hides another user's schedule", async () => {
    const owner = await signup();
    const other = await signup();
    const mine = await createConversation(owner);
    const res = await create(other, { conversation_id: mine.id, text: "hi", at: inHours(1) });
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ error: { code: "not_found" } });
    const schedule = await created(owner, { conversation_id: mine.id, text: "hi", at: inHours(1) });
    for (const method of ["GET", "DELETE"])
      expect((await api(`/api/schedules/${schedule.id}`, { method, headers: other.headers })).status).toBe(404);
    const patch = await api(`/api/schedules/${schedule.id}`, {
      method: "PATCH",
      json: { paused: true },
      headers: other.headers,
    });
    expect(patch.status).toBe(404);
    const list = (await (await api("/api/schedules", { headers: other.headers })).json()) as { schedules: unknown[] };
    expect(list.schedules).toHaveLength(0);
    expect(await read(owner, schedule.id)).toMatchObject({ paused: false, conversation_title: mine.title });
  });

  it("refuses rules past the limits with the field named", async () => {
    const session = await signup();
    const { id } = await createConversation(session);
    const cases: [Record<string, unknown>, string, RegExp][] = [
      [{ repeat: "*/5 * * * *" }, "repeat", /every 15 minutes/],
      [{ repeat: "every blursday at 8" }, "repeat", /cron/],
      [{ at: new Date(Date.now() - 60_000).toISOString() }, "at", /past/],
      [{ at: inHours(24 * 400) }, "at", /days ahead/],
      [{ at: inHours(1), repeat: "every day at 08:00" }, "at", /exactly one/],
      [{ at: inHours(1), time_zone: "Mars/Olympus" }, "time_zone", /IANA/],
    ];
    for (const [rule, field, message] of cases) {
      const res = await create(session, { conversation_id: id, text: "x", ...rule });
      expect(res.status).toBe(400);
      const body = (await res.json()) as { error: { code: string; fields: Record<string, string> } };
      expect(body.error.code).toBe("invalid_input");
      expect(body.error.fields[field]).toMatch(message);
    }
  });

  it(`holds the cap of ${MAX_SCHEDULES} per user under concurrent creates`, async () => {
    const session = await signup();
    const { id } = await createConversation(session);
    const results = await Promise.all(
      Array.from({ length: MAX_SCHEDULES + 5 }, (_, i) =>
        create(session, { conversation_id: id, text: `n${i}`, at: inHours(1 + i) }),
      ),
    );
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(MAX_SCHEDULES);
    const refused = results.find((r) => r.status === 409);
    expect(await refused?.json()).toMatchObject({ error: { code: "conflict", message: /At most 20 schedules/ } });
  });

  it("posts into a conversation of its own, named after it, when none is given; a refused one makes none", async () => {
    const session = await signup();
    const conversations = async () =>
      (await (await api("/api/conversations", { headers: session.headers })).json()) as {
        id: string;
        title: string;
        title_source: string;
      }[];
    const plants = await created(session, {
      name: "Plant care",
      text: "water the plants",
      repeat: "every day at 08:00",
      time_zone: "Europe/Paris",
    });
    expect(plants.conversation_title).toBe("Plant care");
    // The user's own title: the first run's message does not rename it.
    expect(await conversations()).toEqual([
      expect.objectContaining({ id: plants.conversation_id, title: "Plant care", title_source: "user" }),
    ]);
    // Its object armed the alarm for the first run.
    expect(await alarmAt(plants.conversation_id)).toBe(Date.parse(plants.next_run_at ?? ""));
    // Unnamed, it is named after the text's first line; a day and time in words is the next such day.
    const bank = await created(session, {
      text: "Call the bank\nabout the loan",
      at: "friday at 9",
      time_zone: "Europe/Paris",
    });
    expect(bank.conversation_title).toBe("Call the bank");
    expect(bank.conversation_id).not.toBe(plants.conversation_id);
    const wall = wallTime(bank.at ?? "", "Europe/Paris");
    expect(wall).toMatch(/ 09:00$/);
    expect(new Date(`${wall.slice(0, 10)}T00:00:00Z`).getUTCDay()).toBe(5);
    const at = new Date(bank.at ?? "");
    expect(at.getTime() - Date.now()).toBeLessThanOrEqual(7 * 86_400_000);

    // Refused, by its rule or by the cap: no conversation is left behind.
    expect((await create(session, { text: "x", repeat: "*/5 * * * *" })).status).toBe(400);
    for (let i = 2; i < MAX_SCHEDULES; i++)
      await created(session, { conversation_id: plants.conversation_id, text: `n${i}`, at: inHours(1 + i) });
    const full = await create(session, { text: "one too many", at: inHours(1) });
    expect(full.status).toBe(409);
    expect((await conversations()).map((c) => c.title).sort()).toEqual(["Call the bank", "Plant care"]);
  });

  it("keeps the user's time zone as the default of a schedule", async () => {
    const session = await signup();
    const { id } = await createConversation(session);
    expect(await (await api("/api/settings/time-zone", { headers: session.headers })).json()).toEqual({
      time_zone: null,
    });
    const bad = await api("/api/settings/time-zone", {
      method: "PUT",
      json: { time_zone: "Nowhere/Special" },
      headers: session.headers,
    });
    expect(bad.status).toBe(400);
    await api("/api/settings/time-zone", {
      method: "PUT",
      json: { time_zone: "Asia/Tokyo" },
      headers: session.headers,
    });
    const schedule = await created(session, { conversation_id: id, text: "x", repeat: "every weekday at 8:00" });
    expect(schedule).toMatchObject({ time_zone: "Asia/Tokyo", cron: "0 8 * * 1-5" });
    // 08:00 in Tokyo is 23:00 UTC.
    expect(new Date(schedule.next_run_at ?? "").getUTCHours()).toBe(23);
    const listed = (await (await api(`/api/schedules?conversation_id=${id}`, { headers: session.headers })).json()) as {
      schedules: Schedule[];
    };
    expect(listed.schedules.map((s) => s.id)).toEqual([schedule.id]);
  });
});

describe("schedules across daylight-saving changes", () => {
  const springForward = nextSpringForward();
  const fallBack = nextFallBack();

  it("runs a one-off in a gap when the clocks jump, one in a repeated hour at its first, and says so as it is saved", async () => {
    const session = await signup();
    const { id } = await createConversation(session);
    const zone = "America/New_York";
    const gap = await created(session, {
      conversation_id: id,
      text: "x",
      at: `${springForward}T02:30`,
      time_zone: zone,
    });
    // 03:00 EDT, the first instant after the gap.
    expect(gap).toMatchObject({ at: `${springForward}T07:00:00.000Z`, next_run_at: `${springForward}T07:00:00.000Z` });
    expect(gap.note).toBe(
      `${springForward} 02:30 does not exist in America/New_York: the clocks go forward from 02:00 to 03:00, so it runs at 03:00.`,
    );
    const twice = await created(session, { conversation_id: id, text: "x", at: `${fallBack}T01:30`, time_zone: zone });
    // 01:30 EDT, the first of the two.
    expect(twice.at).toBe(`${fallBack}T05:30:00.000Z`);
    expect(twice.note).toMatch(/happens twice in America\/New_York.*runs once, at the first 01:30/);
    // The same time moved by a PATCH says so too; a time no change touches has no note.
    const moved = await api(`/api/schedules/${twice.id}`, {
      method: "PATCH",
      json: { at: `${springForward}T02:15` },
      headers: session.headers,
    });
    expect(await moved.json()).toMatchObject({ at: `${springForward}T07:00:00.000Z`, note: /02:15 does not exist/ });
    const plain = await created(session, { conversation_id: id, text: "x", at: inHours(2), time_zone: zone });
    expect(plain.note).toBeUndefined();
  });

  it("says on a recurring rule, in every answer, when a change moves its time", async () => {
    const session = await signup();
    const { id } = await createConversation(session);
    const nightly = await created(session, {
      conversation_id: id,
      text: "x",
      repeat: "every day at 02:30",
      time_zone: "America/New_York",
    });
    expect(nightly.note).toBe(
      `On ${springForward}, 02:30 does not exist in America/New_York: the clocks go forward from 02:00 to 03:00, so that day it runs at 03:00.`,
    );
    expect((await read(session, nightly.id)).note).toBe(nightly.note);
    const listed = (await (await api("/api/schedules", { headers: session.headers })).json()) as {
      schedules: Schedule[];
    };
    expect(listed.schedules[0]?.note).toBe(nightly.note);
    const morning = await created(session, { conversation_id: id, text: "x", repeat: "every day at 08:00" });
    expect(morning.note).toBeUndefined();
  });

  it("refuses an offset as a time zone: it is no IANA zone and has no daylight-saving rules", async () => {
    const session = await signup();
    const { id } = await createConversation(session);
    for (const zone of ["+14:00", "-05:00"]) {
      const res = await create(session, { conversation_id: id, text: "x", at: inHours(1), time_zone: zone });
      expect(res.status, zone).toBe(400);
      expect(await res.json()).toMatchObject({ error: { code: "invalid_input", fields: { time_zone: /IANA/ } } });
      const setting = await api("/api/settings/time-zone", {
        method: "PUT",
        json: { time_zone: zone },
        headers: session.headers,
      });
      expect(setting.status, zone).toBe(400);
    }
  });
});
