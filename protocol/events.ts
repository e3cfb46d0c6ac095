// Events on a conversation's bus (docs/protocol.md "Events on the bus", seed 000 FR-001…005).
import { z } from "zod";
import { SeveritySchema } from "./message";

export const EVENT_TYPES = [
  "tool.pending",
  "tool.success",
  "tool.failure",
  "tool.timeout",
  "budget.warning",
  "budget.exceeded",
  "loop.detected",
  "turn.start",
  "turn.end",
  "external.notify",
  "subagent.turn_ended",
  "subagent.errored",
  "bus.overflow",
  "llm.retry",
  "mcp.unavailable",
  "quota.warning",
] as const;
export const EventTypeSchema = z.enum(EVENT_TYPES);
export type EventType = z.infer<typeof EventTypeSchema>;

export const BusEventSchema = z.object({
  id: z.string(),
  type: EventTypeSchema,
  ts: z.string(),
  source: z.string(),
  severity: SeveritySchema,
  payload: z.record(z.string(), z.unknown()),
});
export type BusEvent = z.infer<typeof BusEventSchema>;
