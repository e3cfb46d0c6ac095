// D1 on the hot path of a turn, measured inside workerd against the real Worker and conversation
// Durable Object (vitest + @cloudflare/vitest-plugin, config bench/vitest.d1.config.ts; run by
// bench/run.ts, never by `npm test`). The model is the fake OpenAI server of test/support.
//
// Counting and driving turns: d1-probe.ts.
// Prints one line, `BENCH_RESULT <json>`, that bench/run.ts parses. It lives in test/workers (not bench/)
// because tsconfig.json type-checks this folder with the Workers types; `*.bench-test.ts` is outside
// the `*.test.ts` glob of `npm test`.
import { env } from "cloudflare:workers";
import { afterAll, expect, it } from "vitest";
import { median } from "../../bench/stats";
import { calls, type D1Call, openConversation, setD1Delay, TOOL_LABEL, type Turn, turn } from "./d1-probe";

// ---- figures -----------------------------------------------------------------------------------

const range = (xs: number[]) => ({ median: median(xs), min: Math.min(...xs), max: Math.max(...xs) });

function histogram(list: D1Call[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const call of list) out[call.label] = (out[call.label] ?? 0) + 1;
  return Object.fromEntries(Object.entries(out).sort((a, b) => b[1] - a[1]));
}

/** D1 counts of measured turns of one length (all turns are expected to agree; min/max show whether they did). */
function countsOf(turns: Turn[]) {
  const during = turns.map((t) => t.during.length);
  const after = turns.map((t) => t.after.length);
  const tool = turns.map((t) => t.during.filter((c) => c.label === TOOL_LABEL).length);
  return {
    turns: turns.length,
    steps: turns[0]?.steps,
    messages: range(turns.map((t) => t.messages)),
    during: range(during),
    after: range(after),
    tool: range(tool),
    objectDuring: range(during.map((n, i) => n - (tool[i] ?? 0))),
    // The last measured turn's calls, by label (during the turn; after response_complete).
    labels: histogram(turns.at(-1)?.during ?? []),
    labelsAfter: histogram(turns.at(-1)?.after ?? []),
  };
}

const result: Record<string, unknown> = {};

it("counts every D1 primitive once", async () => {
  const before = calls.length;
  await env.DB.prepare("SELECT ?1 AS x").bind(1).first();
  await env.DB.prepare("SELECT 1 AS x").all();
  await env.DB.prepare("SELECT 1 AS x").raw();
  await env.DB.prepare("SELECT 1 AS x").run();
  await env.DB.batch([env.DB.prepare("SELECT 1 AS x"), env.DB.prepare("SELECT 2 AS y")]);
  await env.DB.exec("SELECT 1");
  // Another shard and the directory are counted as shard 0 is (a turn's calls go to its user's shard).
  await env.SHARD_2.prepare("SELECT 1 AS x").first();
  await env.DIRECTORY.prepare("SELECT 1 AS x").first();
  expect(calls.slice(before).map((c) => c.label)).toEqual([
    "SELECT",
    "SELECT",
    "SELECT",
    "SELECT",
    "batch(SELECT + SELECT)",
    "exec SELECT",
    "SELECT",
    "SELECT",
  ]);
});

it("D1 round trips of a 14-step and of a 1-step turn", async () => {
  const c = await openConversation();
  await turn(c, 14); // warm-up: log loaded, title set, task-reminder counter past its threshold
  await turn(c, 1);
  const long: Turn[] = [];
  for (let i = 0; i < 3; i++) long.push(await turn(c, 14));
  const short: Turn[] = [];
  for (let i = 0; i < 3; i++) short.push(await turn(c, 1));
  const l = countsOf(long);
  const s = countsOf(short);
  expect(l.during.median).toBeGreaterThan(s.during.median); // the patches see the object's calls
  expect(l.tool.median).toBe(13);
  result.turn14 = l;
  result.turn1 = s;
  // Per-step cost of a tool step beyond the fixed cost of a turn, the tool's own read excluded.
  result.perExtraToolStep = (l.objectDuring.median - s.objectDuring.median) / 13;
  // Time each message-persisting D1 call took (no delay), over the 14-step turns.
  result.persistCallMs = range(
    long.flatMap((t) => t.during.filter((d) => /INSERT messages/.test(d.label)).map((d) => d.ms)),
  );
}, 300_000);

it("chat frame → user message frame, 1-step turns", async () => {
  const c = await openConversation();
  await turn(c, 1);
  const turns: Turn[] = [];
  for (let i = 0; i < 20; i++) turns.push(await turn(c, 1));
  result.userMessage = { turns: turns.length, ms: range(turns.map((t) => t.userMessageMs)) };
  result.userMessageD1 = range(turns.map((t) => t.beforeUserMessage));
}, 300_000);

it("a 10-step turn with and without 50 ms on every D1 call", async () => {
  const runs = 5;
  const measure = async (delay: number) => {
    const c = await openConversation();
    setD1Delay(delay);
    try {
      await turn(c, 10); // warm-up
      const turns: Turn[] = [];
      for (let i = 0; i < runs; i++) turns.push(await turn(c, 10));
      return {
        delayMs: delay,
        turns: runs,
        completeMs: range(turns.map((t) => t.completeMs)),
        userMessageMs: range(turns.map((t) => t.userMessageMs)),
        during: range(turns.map((t) => t.during.length)),
      };
    } finally {
      setD1Delay(0);
    }
  };
  const plain = await measure(0);
  const delayed = await measure(50);
  result.turn10 = { plain, delayed };
}, 600_000);

afterAll(() => {
  console.log(`BENCH_RESULT ${JSON.stringify(result)}`);
});
