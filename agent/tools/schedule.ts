// The `schedule` tool: the model creates, lists, changes and deletes scheduled runs of this conversation
// ("remind me on Friday", "every weekday at 8 run /daily-review"). The rules and the SQL are the routes'
// (d1/schedules.ts); each action's arguments pass the same zod schema as its route's body. A schedule of
// another conversation is managed on the Schedules page. The conversation's object re-arms its alarm
// when the turn ends (durable-objects/conversation/triggers/scheduled-runs.ts).
import { z } from "zod";
import {
  createSchedule,
  deleteSchedule,
  getSchedule,
  listSchedules,
  type ScheduleWrite,
  updateSchedule,
} from "../../d1/schedules";
import { ALREADY_DONE } from "../../d1/tool-effects";
import { fieldErrors, firstFieldError, TimeZoneSchema } from "../../protocol";
import { describeRule, type Schedule, ScheduleCreateSchema, SchedulePatchSchema } from "../../protocol/schedules";
import { defineTool, effectKey, type ToolContext, ToolError } from "./tool";

// Every word here is sent with every model request: the declaration is kept short.
const ArgsSchema = z.object({
  action: z.enum(["create", "list", "update", "delete"]),
  id: z.string().max(100).optional().describe("For update, delete: from create or list"),
  name: z.string().optional().describe("Short label"),
  text: z.string().optional().describe("The message; /slug runs that workflow"),
  at: z.string().optional().describe("Once, local time: 2026-12-04T09:00"),
  repeat: z.string().optional().describe('"every weekday at 08:00", "every monday at 9:00" or cron'),
  time_zone: TimeZoneSchema.optional(),
  paused: z.boolean().optional(),
});
type Args = z.infer<typeof ArgsSchema>;

/** What the model reads of a schedule: the rule in words beside the raw fields. */
const shown = (s: Schedule) => ({
  id: s.id,
  name: s.name,
  text: s.text,
  rule: describeRule(s),
  next_run_at: s.next_run_at,
  paused: s.paused,
  last_run_at: s.last_run_at,
  last_status: s.last_status,
  // A daylight-saving change moves a time: the model can tell the user when it actually runs.
  ...(s.note ? { note: s.note } : {}),
});

/** An action's arguments through its route's schema, or a ToolError naming the bad field. */
function parsed<S extends z.ZodType>(schema: S, raw: unknown): z.infer<S> {
  const result = schema.safeParse(raw);
  if (!result.success) throw new ToolError(firstFieldError(fieldErrors(result.error), "arguments"));
  return result.data;
}

function written(saved: ScheduleWrite | undefined, id?: string) {
  if (!saved) throw new ToolError(`No schedule ${id} in this conversation`);
  if ("refused" in saved) throw new ToolError(saved.refused.message);
  return saved.repeated ? { ...shown(saved.schedule), already_done: ALREADY_DONE } : shown(saved.schedule);
}

/** A schedule of this conversation, or a ToolError. */
async function ownSchedule(ctx: ToolContext, id: string | undefined): Promise<Schedule> {
  const schedule = id ? await getSchedule(ctx.db, ctx.userId, id) : undefined;
  if (!schedule || schedule.conversation_id !== ctx.conversationId)
    throw new ToolError(id ? `No schedule ${id} in this conversation` : "id is required");
  return schedule;
}

const { action: _a, id: _i, ...fields } = ArgsSchema.shape;
const FIELDS = Object.keys(fields) as (keyof typeof fields)[];
const given = (args: Args) => Object.fromEntries(FIELDS.filter((k) => args[k] !== undefined).map((k) => [k, args[k]]));

export const SCHEDULE = "schedule";

export const scheduleTool = defineTool({
  name: SCHEDULE,
  description:
    "Post a message in this conversation later, as if the user sent it (it starts a turn): once (at) or recurring (repeat), in the user's time zone. At most 20 per user; recurring at most every 15 minutes.",
  args: ArgsSchema,
  idempotent: true,
  async execute(args, ctx) {
    switch (args.action) {
      case "list":
        return { schedules: (await listSchedules(ctx.db, ctx.userId, ctx.conversationId)).map(shown) };
      case "create": {
        const input = parsed(ScheduleCreateSchema, { ...given(args), conversation_id: ctx.conversationId });
        return written(await createSchedule(ctx.db, ctx.userId, input, effectKey(ctx)));
      }
      case "update": {
        const schedule = await ownSchedule(ctx, args.id);
        const patch = parsed(SchedulePatchSchema, given(args));
        return written(await updateSchedule(ctx.db, ctx.userId, schedule.id, patch, effectKey(ctx)), args.id);
      }
      case "delete": {
        const schedule = await ownSchedule(ctx, args.id);
        await deleteSchedule(ctx.db, ctx.userId, schedule.id);
        return { deleted: schedule.id };
      }
    }
  },
});
