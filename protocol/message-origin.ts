// Where a user message came from when no one typed it (docs/protocol.md "Message"): a schedule's run.
// Apart from protocol/schedules.ts, which the chat's first load does not need (it is not re-exported
// by protocol/index.ts: its schemas and rule parsing stay in the Schedules page's chunk).
import { z } from "zod";

/** A user message's origin when no one typed it (docs/protocol.md "Message"): a schedule's run. */
export const MessageOriginSchema = z.object({
  kind: z.literal("schedule"),
  schedule_id: z.string(),
  /** The schedule's name when it ran ("Scheduled · <name>"). */
  name: z.string(),
  /** The occurrence it stands for (ISO): with the id, what makes a run happen once. */
  due_at: z.string(),
});
export type MessageOrigin = z.infer<typeof MessageOriginSchema>;
