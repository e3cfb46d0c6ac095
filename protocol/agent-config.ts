// AgentConfig (seed 001 FR-001/FR-003, docs/protocol.md "Settings"): the one schema that gives defaults,
// bounds and error messages to the server and to the Settings form alike.
import { z } from "zod";

function bounded(label: string, min: number, max: number) {
  const message = `${label} must be a whole number from ${min} to ${max}`;
  return z.number({ error: message }).int(message).min(min, message).max(max, message);
}

/** Bounds and defaults, in the order the Settings tab shows them. */
export const AGENT_CONFIG_FIELDS = {
  maxIterations: { label: "Max iterations", min: 1, max: 50, default: 15, unit: "" },
  softWarningPercent: { label: "Iteration warning", min: 10, max: 99, default: 70, unit: "%" },
  tokenBudget: { label: "Token budget", min: 1000, max: 200000, default: 50000, unit: "tokens" },
  tokenWarningPercent: { label: "Token warning", min: 10, max: 99, default: 80, unit: "%" },
  timeoutSeconds: { label: "Timeout", min: 10, max: 600, default: 120, unit: "s" },
  maxToolCallsPerTurn: { label: "Tool calls per step", min: 1, max: 20, default: 20, unit: "" },
  maxParallelTools: { label: "Parallel tools", min: 1, max: 10, default: 3, unit: "" },
  requestInputTimeoutSeconds: { label: "Question timeout", min: 10, max: 3600, default: 300, unit: "s" },
  /** Model requests without a task tool, while tasks are open, before a task reminder; 0 turns it off. */
  taskReminderRequests: { label: "Task reminder after", min: 0, max: 50, default: 8, unit: "requests" },
  /** Searches one turn may make with web_search (subagents' count apart, each under its own limits). */
  webSearchesPerTurn: { label: "Web searches per turn", min: 1, max: 50, default: 10, unit: "" },
} as const;
export type NumericConfigField = keyof typeof AGENT_CONFIG_FIELDS;

const numericShape = Object.fromEntries(
  Object.entries(AGENT_CONFIG_FIELDS).map(([key, f]) => [key, bounded(f.label, f.min, f.max)]),
) as { [K in NumericConfigField]: z.ZodNumber };

export const DecisionTreeNameSchema = z
  .string()
  .regex(/^[a-z0-9_-]{1,32}$/, "a decision tree name of a–z, 0–9, _ and -");

const shape = { ...numericShape, decisionTree: DecisionTreeNameSchema };

export const AgentConfigSchema = z.object(shape).strict();
export type AgentConfig = z.infer<typeof AgentConfigSchema>;

/** A PUT body: any subset of the fields, nothing unknown. */
export const AgentConfigPatchSchema = z.object(shape).partial().strict();
export type AgentConfigPatch = z.infer<typeof AgentConfigPatchSchema>;

export const DEFAULT_AGENT_CONFIG: AgentConfig = {
  ...(Object.fromEntries(Object.entries(AGENT_CONFIG_FIELDS).map(([k, f]) => [k, f.default])) as {
    [K in NumericConfigField]: number;
  }),
  decisionTree: "default",
};
