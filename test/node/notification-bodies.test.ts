// The exact bytes of every shipped subscriber's notifications (issue 9). A notification's `body` is
// persisted and replayed to the model as is, so it must not change unnoticed: its data is TOON (or
// compact JSON) from @toon-format/toon, whose output forms changed between 4.x releases, and its
// headline comes from the subscriber's eta template. Each case runs real events through the real bus
// (dedupe, batching, the encoder's TOON-or-JSON choice) and compares the bodies with a file under
// __snapshots__/notification-bodies/. An upgrade that changes a byte fails here; after reading the
// diff, `npx vitest run --project node -u` accepts it.
import { describe, expect, it } from "vitest";
import { type BudgetWarning, describeWarning } from "../../agent/budget-warnings.ts";
import { describeLoop, type LoopPattern } from "../../agent/loop-detection.ts";
import { EventBus } from "../../agent/notifications/bus.ts";
import type { BusEvent, EventType, Severity } from "../../protocol";
import { SUBSCRIBERS } from "../../subscribers/subscribers.generated.ts";

interface Draft {
  type: EventType;
  severity: Severity;
  source: string;
  payload: Record<string, unknown>;
}

const START = Date.parse("2026-11-23T09:30:00.000Z");

/** Every event through a bus holding only this subscriber, 1 s apart (inside every batch window). */
function bodies(subscriberId: string, drafts: Draft[]): string {
  const subscriber = SUBSCRIBERS.find((s) => s.config.id === subscriberId);
  if (!subscriber) throw new Error(`no shipped subscriber ${subscriberId}`);
  let now = START;
  const bus = new EventBus([subscriber], { now: () => now });
  const out = drafts.flatMap((draft, i) => {
    now = START + i * 1000;
    const event: BusEvent = { ...draft, id: `event-${i}`, ts: new Date(now).toISOString() };
    return bus.publish(event);
  });
  out.push(...bus.take("all"));
  expect(out.length).toBeGreaterThan(0);
  // What the model reads is `body`; format says how the client parses the data under the headline.
  return out.map((n) => `--- ${n.item.format} · ${n.source} · ${n.severity}\n${visible(n.item.body)}\n`).join("");
}

/** A UTF-8 file cannot hold an unpaired surrogate (it would read back as U+FFFD), so it is spelled out. */
const visible = (text: string) => text.replace(/\p{Cs}/gu, (c) => `<U+${c.charCodeAt(0).toString(16).toUpperCase()}>`);

const failure = (tool: string, error_type: string, error: string, args: unknown, n = 1): Draft => ({
  type: error_type === "timeout" ? "tool.timeout" : "tool.failure",
  severity: "error",
  source: "Tool Executor",
  payload: { tool, call_id: `call_${tool}_${n}`, error_type, error, args },
});
const success = (tool: string, duration_ms: number, n = 1): Draft => ({
  type: "tool.success",
  severity: "info",
  source: "Tool Executor",
  payload: { tool, call_id: `call_${tool}_${n}`, duration_ms },
});
const warning = (w: BudgetWarning): Draft => ({
  type: "budget.warning",
  severity: "warning",
  source: "Budget Monitor",
  payload: { ...w, message: describeWarning(w) },
});
const exceeded = (budget: "tokens" | "time", used: number, limit: number): Draft => ({
  type: "budget.exceeded",
  severity: "critical",
  source: "Budget Monitor",
  payload: { budget, used, limit },
});
const loop = (p: LoopPattern): Draft => ({
  type: "loop.detected",
  severity: "warning",
  source: "Loop Detector",
  payload: { ...p, message: describeLoop(p) },
});
const external = (message: string, severity: Severity = "info"): Draft => ({
  type: "external.notify",
  severity,
  source: "External",
  payload: { message },
});
const turnEnd = (termination_reason: string, steps: number, tokens: number): Draft => ({
  type: "turn.end",
  severity: "info",
  source: "Turn Control",
  payload: { termination_reason, steps, tokens },
});

const retry = (status: number | null, attempt: number, wait_seconds: number, message: string): Draft => ({
  type: "llm.retry",
  severity: "warning",
  source: "Model Provider",
  payload: { status, attempt, max_retries: 3, wait_seconds, message },
});

const mcpDown = (server: string, error: string, partial = false): Draft => ({
  type: "mcp.unavailable",
  severity: "warning",
  source: "MCP Connector",
  payload: { server, error, partial },
});

const quotaWarning = (period: "day" | "month", percent: number, tokens: number): Draft => ({
  type: "quota.warning",
  severity: "warning",
  source: "Quota",
  payload: {
    period,
    percent,
    tokens,
    cost: 0,
    daily_tokens: 50_000,
    resets_at: "2026-11-29T00:00:00.000Z",
    message: `${percent}% of today's quota on this server's models is used (${tokens.toLocaleString("en-US")} tokens of 50,000 tokens); it resets in 5 h. Keep the rest of this answer short.`,
  },
});

/**
 * Per subscriber: one event alone, and several at once (a batch, deduped where the subscriber dedupes;
 * for a subscriber that does not batch, the separate notifications they become). The values include
 * what TOON has to quote or escape: colons, commas, quotes, pipes, newlines, leading dashes and
 * spaces, strings that look like numbers or booleans, empty strings, non-ASCII.
 */
const CASES: Record<string, { single: Draft[]; batched: Draft[] }> = {
  tool_failure: {
    single: [failure("vault_read", "error", "No note at projects/q3-plan.md", { path: "projects/q3-plan.md" })],
    batched: [
      failure("vault_read", "error", "No note at ideas.md", { path: "ideas.md" }, 1),
      failure("vault_search", "timeout", "vault_search timed out after 30 s", { query: "milk, eggs" }),
      failure("vault_read", "error", "No note at ideas.md", { path: "ideas.md" }, 2),
      failure("task_update", "invalid_args", 'Invalid arguments for task_update: status: "open"|"done"', {
        id: "t1",
        status: "closed",
      }),
      failure("vault_read", "error", "No note at ideas.md", { path: "ideas.md" }, 3),
      failure("vault_search", "error", "#3 is not a query", { query: "#3" }),
    ],
  },
  tool_success: {
    single: [success("vault_search", 42)],
    batched: [success("vault_search", 42, 1), success("task_list", 7), success("vault_search", 51, 2)],
  },
  budget_warning: {
    single: [warning({ budget: "iterations", used: 7, limit: 10, percent: 70 })],
    batched: [
      warning({ budget: "iterations", used: 8, limit: 10, percent: 80 }),
      warning({ budget: "tokens", used: 82_000, limit: 100_000, percent: 82 }),
      warning({ budget: "time", used: 245, limit: 300, percent: 81 }),
    ],
  },
  budget_exceeded: {
    single: [exceeded("tokens", 10_412, 10_000)],
    batched: [exceeded("tokens", 100_250, 100_000), exceeded("time", 301, 300)],
  },
  loop_detected: {
    single: [loop({ kind: "repeat", tool: "vault_search", count: 2 })],
    batched: [
      loop({ kind: "alternation", tools: ["vault_search", "vault_read"], count: 4 }),
      loop({ kind: "repeated_error", tool: "vault_read", error: "No note at a: b.md", count: 2 }),
    ],
  },
  external_notify: {
    single: [external("Deploy finished: version 2026.11.22-3 is live, 0 errors")],
    batched: [
      external('CI "main" failed:\n- test/e2e/chat.test.ts | 2 failures', "error"),
      external("42"),
      external("true"),
      external(""),
      external("  café – ok  ", "debug"),
      external(`Backup report: ${"all 12 volumes verified; ".repeat(8)}done`, "warning"),
      // Forms TOON releases have written differently: comment markers and leading plus signs (quoted
      // since 4.0), an unpaired surrogate (TOON refuses it since 4.1, so compact JSON carries it),
      // and signs, exponents, leading zeros, literals, brackets, tabs and backslashes.
      external("# Release notes"),
      external("+1"),
      external("lone \ud800 surrogate"),
      external("# Release notes\n**2026.11** shipped"),
      external("+1 from ops"),
      external("-5 degrees at the depot"),
      external("1e5"),
      external("007"),
      external("null"),
      external("[x] done {y}\tpath C:\\tmp"),
    ],
  },
  llm_retry: {
    single: [retry(429, 1, 2, "Rate limit reached for gpt-4o-mini: 30000 TPM. Please try again in 2s.")],
    batched: [
      retry(503, 1, 0.6, "Service unavailable"),
      retry(503, 2, 1.1, 'upstream said: "overloaded", retry later'),
      retry(null, 3, 2.3, "Cannot connect to API: connect ECONNREFUSED 127.0.0.1:443"),
    ],
  },
  mcp_unavailable: {
    single: [mcpDown("github", "could not connect (Network connection lost.)")],
    batched: [
      mcpDown("github", "the server refused the credentials (HTTP 401)"),
      mcpDown("jira", "no answer within 10 s"),
      mcpDown("many", "20 of its tools left out: at most 100 MCP tools per turn", true),
    ],
  },
  quota_warning: {
    single: [quotaWarning("day", 80, 40_000)],
    batched: [quotaWarning("day", 80, 40_000), quotaWarning("day", 95, 47_600)],
  },
  turn_summary: {
    single: [turnEnd("completed", 1, 812)],
    batched: [turnEnd("max_iterations", 10, 12_345), turnEnd("user_cancelled", 3, 2_048)],
  },
};

describe("the bytes of shipped subscribers' notifications", () => {
  it("has a single and a batched case for every shipped subscriber", () => {
    expect(Object.keys(CASES).sort()).toEqual(SUBSCRIBERS.map((s) => s.config.id).sort());
  });

  for (const [id, { single, batched }] of Object.entries(CASES)) {
    it(`${id}: one event`, async () => {
      await expect(bodies(id, single)).toMatchFileSnapshot(`__snapshots__/notification-bodies/${id}.single.txt`);
    });
    it(`${id}: several events`, async () => {
      await expect(bodies(id, batched)).toMatchFileSnapshot(`__snapshots__/notification-bodies/${id}.batched.txt`);
    });
  }
});
