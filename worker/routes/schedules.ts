// Scheduled runs over HTTP (docs/protocol.md "Schedules"): the same store and rules as the agent's
// `schedule` tool (d1/schedules.ts). After any change the conversation's object is told, so it re-arms
// its alarm for the earliest due run (durable-objects/conversation/triggers/scheduled-runs.ts).

import { Hono } from "hono";
import { z } from "zod";
import {
  createSchedule,
  deleteSchedule,
  getSchedule,
  listSchedules,
  loadTimeZone,
  type ScheduleRefusal,
  saveTimeZone,
  updateSchedule,
} from "../../d1/schedules";
import type { Placement } from "../../d1/shards";
import { TimeZoneSettingSchema } from "../../protocol";
import { ScheduleCreateSchema, SchedulePatchSchema } from "../../protocol/schedules";
import { ApiError, notFound } from "../errors";
import { type AppEnv, currentUser, ownerOf } from "../middleware/identity";
import { readJson, readQuery } from "../validate";

export const scheduleRoutes = new Hono<AppEnv>();
/** GET/PUT /api/settings/time-zone: the zone a schedule made without one is read in. */
export const timeZoneRoutes = new Hono<AppEnv>();

const refusal = (r: ScheduleRefusal) =>
  new ApiError(r.status, r.code, r.message, r.field ? { [r.field]: r.message } : undefined);

/** Tells the conversation's object that its schedules changed, so it re-arms its alarm. */
export async function schedulesChanged(env: Env, { userId, shard }: Placement, conversationId: string): Promise<void> {
  const stub = env.CONVERSATION.get(env.CONVERSATION.idFromName(conversationId));
  await stub.schedulesChanged({ conversationId, userId, shard });
}

const ListQuerySchema = z.object({ conversation_id: z.string().min(1).max(100).optional() });

scheduleRoutes.get("/", async (c) => {
  const { conversation_id } = readQuery(c, ListQuerySchema);
  return c.json({ schedules: await listSchedules(c.var.shard, currentUser(c).id, conversation_id) });
});

scheduleRoutes.post("/", async (c) => {
  const input = await readJson(c, ScheduleCreateSchema);
  const userId = currentUser(c).id;
  const saved = await createSchedule(c.var.shard, userId, input);
  if ("refused" in saved) throw refusal(saved.refused);
  await schedulesChanged(c.env, ownerOf(c), saved.schedule.conversation_id);
  return c.json(saved.schedule, 201);
});

scheduleRoutes.get("/:id", async (c) => {
  const schedule = await getSchedule(c.var.shard, currentUser(c).id, c.req.param("id"));
  if (!schedule) throw notFound("No such schedule");
  return c.json(schedule);
});

scheduleRoutes.patch("/:id", async (c) => {
  const patch = await readJson(c, SchedulePatchSchema);
  const userId = currentUser(c).id;
  const saved = await updateSchedule(c.var.shard, userId, c.req.param("id"), patch);
  if (!saved) throw notFound("No such schedule");
  if ("refused" in saved) throw refusal(saved.refused);
  await schedulesChanged(c.env, ownerOf(c), saved.schedule.conversation_id);
  return c.json(saved.schedule);
});

scheduleRoutes.delete("/:id", async (c) => {
  const userId = currentUser(c).id;
  const conversationId = await deleteSchedule(c.var.shard, userId, c.req.param("id"));
  if (!conversationId) throw notFound("No such schedule");
  await schedulesChanged(c.env, ownerOf(c), conversationId);
  return c.body(null, 204);
});

timeZoneRoutes.get("/time-zone", async (c) =>
  c.json({ time_zone: await loadTimeZone(c.var.shard, currentUser(c).id) }),
);

timeZoneRoutes.put("/time-zone", async (c) => {
  const { time_zone } = await readJson(c, TimeZoneSettingSchema);
  await saveTimeZone(c.var.shard, currentUser(c).id, time_zone);
  return c.json({ time_zone });
});
