// Notification subscribers (seed 000 FR-006…FR-012): the shape of a file under subscribers/, checked
// at build time, and what GET /api/subscribers returns.
import { z } from "zod";
import { EventTypeSchema } from "./events";
import { SeveritySchema } from "./message";
import { NotificationPrioritySchema } from "./system-item";

export const INJECTION_POINTS = ["turn_start", "after_tool", "turn_end"] as const;
export const InjectionPointSchema = z.enum(INJECTION_POINTS);

export const SubscriberIdSchema = z
  .string()
  .regex(/^[a-z][a-z0-9_]{1,47}$/, "lower-case letters, digits and _, 2–48 long");

export const SubscriberConfigSchema = z
  .object({
    id: SubscriberIdSchema,
    name: z.string().min(1).max(80),
    description: z.string().min(1).max(400),
    /** Shown as the System message's source in the chat ("Tool Executor", "Budget Monitor", …). */
    source: z.string().min(1).max(60),
    events: z.array(EventTypeSchema).min(1),
    min_severity: SeveritySchema.default("info"),
    priority: NotificationPrioritySchema.default("normal"),
    /** When the notification reaches the model; critical ones are delivered at once whatever this says. */
    injection: InjectionPointSchema.default("after_tool"),
    core: z.boolean().default(false),
    /** Whether a user who never toggled it gets it (a core one is always on, so this must stay true). */
    enabled_by_default: z.boolean().default(true),
    /** Events of one batch go out as one notification, tabular when there are several. */
    batch: z
      .object({ window_ms: z.number().int().min(0).max(600_000), max_size: z.number().int().min(1).max(500) })
      .strict()
      .optional(),
    /** Events with equal values of these payload fields within the window collapse into one with a count. */
    dedupe: z
      .object({ key: z.array(z.string().min(1)).min(1), window_ms: z.number().int().min(0).max(600_000) })
      .strict()
      .optional(),
    /**
     * Payload fields the notification's data keeps, in this order (all of them when omitted), plus
     * `count` (the dedupe count) and `at` (the event's time of day, UTC, "HH:MM:SS").
     */
    fields: z.array(z.string().min(1)).optional(),
    /**
     * eta template of the headline. It gets `it.events` (each `{type, ts, severity, source, payload,
     * count}`), `it.count` (events after dedupe), `it.total` (events before dedupe) and
     * `it.subscriber`. Inline here, or in `<id>.eta` beside the file.
     */
    template: z.string().min(1).max(4000).optional(),
  })
  .strict()
  .refine((c) => !c.core || c.enabled_by_default, {
    message: "a core subscriber cannot be off by default",
    path: ["enabled_by_default"],
  });
export type SubscriberConfig = z.infer<typeof SubscriberConfigSchema>;
export type SubscriberConfigInput = z.input<typeof SubscriberConfigSchema>;

export const SubscriberInfoSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  source: z.string(),
  events: z.array(z.string()),
  core: z.boolean(),
  enabled: z.boolean(),
  priority: NotificationPrioritySchema,
  injection: InjectionPointSchema,
  batch: z.object({ window_ms: z.number(), max_size: z.number() }).optional(),
  dedupe: z.object({ key: z.array(z.string()), window_ms: z.number() }).optional(),
});
export type SubscriberInfo = z.infer<typeof SubscriberInfoSchema>;

export const SubscriberToggleSchema = z.object({ enabled: z.boolean() }).strict();

/** One event as a template and the notification data see it, after dedupe. */
export interface TemplateEvent {
  type: string;
  ts: string;
  severity: string;
  source: string;
  payload: Record<string, unknown>;
  count: number;
}
export interface TemplateData {
  events: TemplateEvent[];
  count: number;
  total: number;
  subscriber: { id: string; name: string };
}
