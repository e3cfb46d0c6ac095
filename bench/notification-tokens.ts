import { readFileSync } from "node:fs";
// Notification token cost (issue 4, seed 000 SC-002, FR-013, FR-015): each shipped notification kind's
// data as TOON, pretty JSON and compact JSON, counted with the o200k_base tokenizer (as TOON's own
// benchmarks do), plus how often the Worker's cheap estimate picks the encoding the tokenizer would.
// Goals: at least 40% fewer tokens than pretty JSON on every batch; never more than compact JSON.
import { encode as toToon } from "@toon-format/toon";
import { countTokens } from "gpt-tokenizer/encoding/o200k_base";
import { encodeData } from "../agent/notifications/encode.ts";

type Row = Record<string, string | number | string[] | Record<string, unknown> | null>;
type Rng = () => number;

/** mulberry32: a small seeded generator so every run builds the same samples. */
function seeded(seed: number): Rng {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const pick = <T>(rng: Rng, items: readonly T[]): T => items[Math.floor(rng() * items.length)] as T;
const int = (rng: Rng, lo: number, hi: number) => lo + Math.floor(rng() * (hi - lo + 1));

const TOOLS = ["vault_search", "vault_read", "vault_write", "vault_list", "task_create", "task_update", "task_list"];
const NOTES = ["projects/q3-plan.md", "inbox/2026-11-21.md", "people/ada.md", "reading/toon-spec.md", "ideas.md"];
const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
const ADVICE = "Consider wrapping up your response.";
const en = (n: number) => n.toLocaleString("en-US");

function callId(rng: Rng): string {
  let id = "call_";
  for (let i = 0; i < 24; i++) id += ALPHABET[Math.floor(rng() * ALPHABET.length)];
  return id;
}

/** A tool failure as the executor reports it (messages follow agent/tools/executor.ts). */
function toolFailure(rng: Rng): Row {
  const tool = pick(rng, TOOLS);
  const [error_type, error] = pick(rng, [
    ["error", `No note at ${pick(rng, NOTES)}`],
    ["error", `No task ${int(rng, 1, 400)}`],
    ["error", `${tool} failed: D1_ERROR: database is locked`],
    ["invalid_args", `Invalid arguments for ${tool}: path: Too small: expected string to have >=1 characters`],
    ["invalid_args", `Invalid arguments for ${tool}: status: Invalid option: expected one of "open"|"done"`],
    ["timeout", `${tool} timed out after ${int(rng, 10, 60)} s`],
    ["unknown_tool", `Unknown tool "web_search". Available: ${TOOLS.join(", ")}`],
    ["error", `Skipped: at most ${int(rng, 4, 16)} tool calls per step`],
  ] as const);
  return { tool, error_type, error, count: rng() < 0.7 ? 1 : int(rng, 2, 5) };
}

function toolSuccess(rng: Rng): Row {
  return { tool: pick(rng, TOOLS), call_id: callId(rng), duration_ms: int(rng, 2, rng() < 0.8 ? 300 : 9000) };
}

/** A budget warning with the line agent/budget-warnings.ts writes for it. */
function budgetWarning(rng: Rng, budget = pick(rng, ["iterations", "tokens", "time"] as const)): Row {
  const limit = budget === "iterations" ? int(rng, 10, 50) : budget === "tokens" ? int(rng, 5, 40) * 10_000 : 300;
  const used = Math.ceil(limit * (0.7 + rng() * 0.2));
  const percent = Math.round((used / limit) * 100);
  const message =
    budget === "iterations"
      ? `Approaching iteration limit (${used}/${limit}): ${limit - used + 1} iterations left including this one. ${ADVICE}`
      : budget === "tokens"
        ? `Token budget at ${percent}% (${en(used)}/${en(limit)} tokens, ${en(limit - used)} left). ${ADVICE}`
        : `Time limit at ${percent}% (${used}/${limit} s, ${limit - used} s left). ${ADVICE}`;
  return { budget, used, limit, percent, message };
}

function budgetExceeded(rng: Rng): Row {
  return rng() < 0.5
    ? { budget: "tokens", used: int(rng, 100_001, 104_000), limit: 100_000 }
    : { budget: "time", used: int(rng, 300, 312), limit: 300 };
}

/** A loop warning (agent/loop-detection.ts); alternation carries a nested `tools` pair. */
function loopDetected(rng: Rng, kind = pick(rng, ["repeat", "alternation", "repeated_error"] as const)): Row {
  const tool = pick(rng, TOOLS);
  if (kind === "alternation") {
    const other = pick(rng, TOOLS);
    const count = int(rng, 4, 5);
    const message = `You are alternating between ${tool} and ${other} with the same arguments (${count} calls). If this goes on the turn will end; change approach or answer with what you have.`;
    return { kind, tools: [tool, other], count, message };
  }
  if (kind === "repeat") {
    const message = `You called ${tool} 2 times in a row with the same arguments. A third identical call will end the turn; try something different or answer with what you have.`;
    return { kind, tool, count: 2, message };
  }
  const error = `No note at ${pick(rng, NOTES)}`;
  const count = int(rng, 2, 3);
  const message = `${tool} failed ${count} times in a row with the same error ("${error}") even with different arguments. Changing the arguments alone will not help; try another approach or ask the user.`;
  return { kind, tool, count, message };
}

function externalNotify(rng: Rng): Row {
  return {
    message: pick(rng, [
      "Deploy of oracle-web finished: version 2026.11.22-3 is live.",
      "New email from Ada Lovelace: Re: Q3 plan review",
      "Calendar: stand-up starts in 10 minutes.",
      "Nightly backup failed: R2 bucket quota exceeded (10 GB).",
    ]),
  };
}

function turnSummary(rng: Rng): Row {
  return {
    termination_reason: pick(rng, ["completed", "max_iterations", "token_budget", "timeout", "user_cancelled"]),
    steps: int(rng, 1, 50),
    tokens: int(rng, 800, 120_000),
  };
}

const batch = (rng: Rng, n: number, make: (rng: Rng) => Row) => Array.from({ length: n }, () => make(rng));

/** The shipped notification kinds with representative data: one event is an object, a batch an array. */
/** Rows as the shipped subscriber keeps them: only its `fields`, in order (what the model is sent). */
function shipped(id: string, data: Row | Row[]): Row | Row[] {
  const fields = (JSON.parse(readFileSync(`subscribers/${id}.json`, "utf8")) as { fields?: string[] }).fields;
  const project = (row: Row): Row =>
    fields ? Object.fromEntries(fields.map((f) => [f, row[f] ?? (f === "count" ? 1 : null)])) : row;
  return Array.isArray(data) ? data.map(project) : project(data);
}

export function samples(): { kind: string; data: Row | Row[] }[] {
  const rng = seeded(4);
  return rawSamples(rng).map(({ kind, data }) => ({ kind, data: shipped(kind.split(" ")[0] ?? kind, data) }));
}

function rawSamples(rng: Rng): { kind: string; data: Row | Row[] }[] {
  return [
    { kind: "tool_failure", data: toolFailure(rng) },
    { kind: "tool_failure ×3", data: batch(rng, 3, toolFailure) },
    { kind: "tool_failure ×10", data: batch(rng, 10, toolFailure) },
    { kind: "tool_failure ×20", data: batch(rng, 20, toolFailure) },
    { kind: "tool_success ×3", data: batch(rng, 3, toolSuccess) },
    { kind: "tool_success ×10", data: batch(rng, 10, toolSuccess) },
    { kind: "tool_success ×20", data: batch(rng, 20, toolSuccess) },
    { kind: "budget_warning", data: budgetWarning(rng, "iterations") },
    {
      kind: "budget_warning ×3",
      data: (["iterations", "tokens", "time"] as const).map((b) => budgetWarning(rng, b)),
    },
    { kind: "budget_exceeded", data: budgetExceeded(rng) },
    { kind: "loop_detected", data: loopDetected(rng, "repeated_error") },
    { kind: "external_notify", data: externalNotify(rng) },
    { kind: "turn_summary", data: turnSummary(rng) },
  ];
}

/**
 * A larger mixed corpus for the estimate-versus-tokenizer check: random kinds, batch sizes 1–20 for
 * the batchable kinds, and irregular variants (tool failures carrying their nested `args`, loop
 * warnings with a `tools` pair) where compact JSON can beat TOON.
 */
export function corpus(size: number, seed = 2026): unknown[] {
  const rng = seeded(seed);
  const withArgs = (r: Rng): Row => ({
    ...toolFailure(r),
    args: r() < 0.5 ? { path: pick(r, NOTES) } : { query: "q3 plan", limit: int(r, 5, 20), tags: ["work", "plan"] },
  });
  const kinds: ((r: Rng) => Row)[] = [toolFailure, toolSuccess, budgetWarning, withArgs, loopDetected];
  const singles: ((r: Rng) => Row)[] = [budgetExceeded, externalNotify, turnSummary, loopDetected, withArgs];
  return Array.from({ length: size }, () => {
    if (rng() < 0.35) return pick(rng, singles)(rng);
    const make = pick(rng, kinds);
    const n = rng() < 0.3 ? 1 : int(rng, 2, 20);
    return n === 1 ? make(rng) : batch(rng, n, make);
  });
}

const compact = (data: unknown) => JSON.stringify(data);
const pretty = (data: unknown) => JSON.stringify(data, null, 2);
const percentLess = (tokens: number, baseline: number) => `${(((baseline - tokens) / baseline) * 100).toFixed(1)}%`;

/** Markdown lines: the per-kind table, the agreement of the cheap choice with the tokenizer, and the goals. */
export async function measureNotificationTokens(): Promise<string[]> {
  const lines = [
    "| kind | TOON | pretty JSON | compact JSON | chosen (format) | saving vs pretty | saving vs compact |",
    "| --- | --- | --- | --- | --- | --- | --- |",
  ];
  const shortBatches: string[] = [];
  let compactOk = true;
  let worstBatch = Number.POSITIVE_INFINITY;
  for (const { kind, data } of samples()) {
    const toon = countTokens(toToon(data));
    const prettyJson = countTokens(pretty(data));
    const compactJson = countTokens(compact(data));
    const chosen = encodeData(data);
    const tokens = countTokens(chosen.text);
    if (Array.isArray(data)) {
      const saving = (prettyJson - tokens) / prettyJson;
      worstBatch = Math.min(worstBatch, saving);
      if (saving < 0.4) shortBatches.push(`${kind} ${(saving * 100).toFixed(1)}%`);
    }
    if (tokens > compactJson) compactOk = false;
    lines.push(
      `| ${kind} | ${toon} | ${prettyJson} | ${compactJson} | ${tokens} (${chosen.format}) | ${percentLess(tokens, prettyJson)} | ${percentLess(tokens, compactJson)} |`,
    );
  }

  const notifications = corpus(500);
  let agree = 0;
  let extra = 0;
  let best = 0;
  let chosenTotal = 0;
  let compactTotal = 0;
  let overCompact = 0;
  let toonChosen = 0;
  for (const data of notifications) {
    const { format, text } = encodeData(data);
    const toon = countTokens(toToon(JSON.parse(JSON.stringify(data))));
    const json = countTokens(compact(data));
    const tokenizerPick = toon <= json ? "toon" : "json";
    const tokens = format === "toon" ? toon : json;
    if (countTokens(text) !== tokens) throw new Error("encodeData text differs from the reference encoding");
    if (format === tokenizerPick) agree++;
    if (format === "toon") toonChosen++;
    extra += tokens - Math.min(toon, json);
    best += Math.min(toon, json);
    chosenTotal += tokens;
    compactTotal += json;
    if (tokens > json) overCompact++;
  }
  const n = notifications.length;
  const verdict = (ok: boolean) => (ok ? "PASS" : "FAIL");
  lines.push(
    "",
    `Corpus of ${n} generated notifications (seeded; mixed kinds, batches of 1–20, some nested): the cheap estimate picks the tokenizer's cheaper encoding in ${agree}/${n} cases (TOON chosen ${toonChosen} times); where it disagrees the extra cost is ${extra} tokens total (${((extra / best) * 100).toFixed(2)}% of the tokenizer-optimal ${best}). Chosen encodings total ${chosenTotal} tokens against ${compactTotal} as compact JSON (${percentLess(chosenTotal, compactTotal)} fewer).`,
    "",
    `- ${verdict(shortBatches.length === 0)}: at least 40% fewer tokens than pretty JSON on every batch (worst ${(worstBatch * 100).toFixed(1)}%${shortBatches.length ? `; short: ${shortBatches.join(", ")}` : ""}).`,
    `- ${verdict(compactOk && overCompact === 0)}: never more tokens than compact JSON (table: ${compactOk ? "none" : "some"} over; corpus: ${overCompact}/${n} over).`,
  );
  return lines;
}

if (import.meta.url === `file://${process.argv[1]}`) console.log((await measureNotificationTokens()).join("\n"));
