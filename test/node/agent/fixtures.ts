// Shared builders for the agent loop tests: a state from defaults with overrides, and action records
// made the way base-tree.ts makes them (canonical argument keys).

import { type ActionRecord, type AgentState, canonicalJson, createState } from "../../../agent/state";
import { type AgentConfig, DEFAULT_AGENT_CONFIG } from "../../../protocol";

export const T0 = 1_700_000_000_000;

export function config(overrides: Partial<AgentConfig> = {}): AgentConfig {
  return { ...DEFAULT_AGENT_CONFIG, ...overrides };
}

export function state(overrides: Partial<AgentState> = {}, cfg: Partial<AgentConfig> = {}): AgentState {
  return { ...createState(config(cfg), T0), ...overrides };
}

export function ok(tool: string, args: unknown = {}): ActionRecord {
  return { tool, argsKey: canonicalJson(args), ok: true };
}

export function failed(tool: string, args: unknown, error: string): ActionRecord {
  return { tool, argsKey: canonicalJson(args), ok: false, error };
}
