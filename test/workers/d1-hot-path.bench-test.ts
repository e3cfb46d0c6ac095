// D1 on the hot path of a turn, measured inside workerd against the real Worker and conversation
// Durable Object (vitest + @cloudflare/vitest-plugin, config bench/vitest.d1.config.ts; run by
// bench/run.ts, never by `npm test`). The model is the fake OpenAI server of test/support.
//
// Counting: the Durable Object runs in the test's isolate, so patching the prototypes of the D1 binding
// classes here (D1Database: batch, exec; D1PreparedStatement: first, run, all, raw; the same for a
// withSession() session) also catches the object's calls. Each of those calls is one round trip;
// prepare and bind only tag the statement with its SQL, so every call is labelled "VERB table".
// With a delay set, every round trip waits that long before it is sent (a remote D1 primary).
// Prints one line, `BENCH_RESULT <json>`, that bench/run.ts parses. It lives in test/workers (not bench/)
// because tsconfig.json type-checks this folder with the Workers types; `*.bench-test.ts` is outside
// the `*.test.ts` glob of `npm test`.
import { env } from "cloudflare:workers";
import { afterAll, expect, inject, it } from "vitest";
import { marker, type Step, scriptModel } from "../support/fake-openai-client";
import { connect, createConversation, signup, type TestSocket, uniqueName } from "./helpers";

// ---- D1 instrumentation -------------------------------------------------------------------------

interface D1Call {
  label: string;
  /** performance.now() when the call was made, and how long until its promise settled (delay included). */
  at: number;
  ms: number;
}

const calls: D1Call[] = [];
const sqlOf = new WeakMap<object, string>();
let delayMs = 0;
let inflight = 0;
/** Set while a patched method runs its original synchronously, so a nested patched call is not counted twice. */
let inside = false;

/** "SELECT notes", "INSERT messages": the verb and first table of a statement. */
function labelSql(sql: string | undefined): string {
  if (!sql) return "? (untagged statement)";
  const text = sql.replace(/\s+/g, " ").trim();
  const verb = (text.match(/^\w+/)?.[0] ?? "?").toUpperCase();
  const table = text.match(/\b(?:from|into|update)\s+["`[]?(\w+)/i)?.[1];
  return table ? `${verb} ${table}` : verb;
}

type Method = (this: object, ...args: unknown[]) => unknown;
type Proto = Record<string, unknown>;

function countCalls(proto: Proto, name: string, label: (self: object, args: unknown[]) => string): void {
  const original = proto[name] as Method | undefined;
  if (typeof original !== "function" || (original as { counted?: boolean }).counted) return;
  const patched = async function (this: object, ...args: unknown[]) {
    if (inside) return original.apply(this, args);
    const call = { label: label(this, args), at: performance.now(), ms: 0 };
    calls.push(call);
    inflight++;
    try {
      if (delayMs) await new Promise((resolve) => setTimeout(resolve, delayMs));
      inside = true;
      let result: unknown;
      try {
        result = original.apply(this, args);
      } finally {
        inside = false;
      }
      return await result;
    } finally {
      inflight--;
      call.ms = performance.now() - call.at;
    }
  };
  Object.assign(patched, { counted: true });
  proto[name] = patched;
}

/** Tags what `name` returns (a statement) with the SQL that `sql` finds. */
function tagStatements(proto: Proto, name: string, sql: (self: object, args: unknown[]) => string | undefined): void {
  const original = proto[name] as Method | undefined;
  if (typeof original !== "function" || (original as { tagged?: boolean }).tagged) return;
  const patched = function (this: object, ...args: unknown[]) {
    const statement = original.apply(this, args);
    const text = sql(this, args);
    if (statement && typeof statement === "object" && text !== undefined) sqlOf.set(statement, text);
    return statement;
  };
  Object.assign(patched, { tagged: true });
  proto[name] = patched;
}

function instrumentDatabase(proto: Proto): void {
  tagStatements(proto, "prepare", (_self, args) => String(args[0]));
  countCalls(proto, "batch", (_self, args) => {
    const statements = Array.isArray(args[0]) ? (args[0] as object[]) : [];
    return `batch(${statements.map((s) => labelSql(sqlOf.get(s))).join(" + ")})`;
  });
  countCalls(proto, "exec", (_self, args) => `exec ${labelSql(String(args[0]))}`);
  const withSession = proto.withSession as Method | undefined;
  if (typeof withSession === "function" && !(withSession as { tagged?: boolean }).tagged) {
    const patched = function (this: object, ...args: unknown[]) {
      const session = withSession.apply(this, args);
      if (session && typeof session === "object") instrumentDatabase(Object.getPrototypeOf(session) as Proto);
      return session;
    };
    Object.assign(patched, { tagged: true });
    proto.withSession = patched;
  }
}

const statementProto = Object.getPrototypeOf(env.DB.prepare("SELECT 1")) as Proto;
instrumentDatabase(Object.getPrototypeOf(env.DB) as Proto);
tagStatements(statementProto, "bind", (self) => sqlOf.get(self));
for (const name of ["first", "run", "all", "raw"])
  countCalls(statementProto, name, (self) => labelSql(sqlOf.get(self)));

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits until no D1 call is in flight and none started for `quietMs`. */
async function settle(quietMs = 150): Promise<void> {
  let seen = -1;
  for (;;) {
    if (inflight === 0 && calls.length === seen) return;
    seen = inflight === 0 ? calls.length : -1;
    await sleep(quietMs);
  }
}

// ---- driving turns -----------------------------------------------------------------------------

const llmUrl = inject("llmUrl");
/** The tool each tool step calls: one D1 read of its own (`SELECT notes`), nothing else in a turn reads notes. */
const TOOL = "vault_list";
const TOOL_LABEL = "SELECT notes";

interface Conversation {
  socket: TestSocket;
  key: string;
  /** performance.now() at which each frame of socket.frames arrived, and how many D1 calls had been made by then. */
  arrived: number[];
  callsBefore: number[];
}

async function openConversation(): Promise<Conversation> {
  const session = await signup();
  const { id } = await createConversation(session);
  const socket = await connect(session, id);
  const arrived = socket.frames.map(() => performance.now());
  const callsBefore = socket.frames.map(() => calls.length);
  socket.ws.addEventListener("message", () => {
    arrived[socket.frames.length - 1] = performance.now();
    callsBefore[socket.frames.length - 1] = calls.length;
  });
  return { socket, key: uniqueName("d1"), arrived, callsBefore };
}

/** `steps - 1` tool steps (each one vault_list call, a different prefix so no loop is detected), then the answer. */
const script = (steps: number): Step[] => [
  ...Array.from({ length: steps - 1 }, (_, i) => ({
    tool_calls: [{ name: TOOL, arguments: { prefix: `bench/${i}/` } }],
  })),
  { text: "All done." },
];

interface Turn {
  steps: number;
  /** Chat frame sent → the user's `message` frame, and → response_complete (ms). */
  userMessageMs: number;
  completeMs: number;
  /** D1 calls from the chat frame until response_complete arrived, and after it until the object went quiet. */
  during: D1Call[];
  after: D1Call[];
  /** D1 calls made between the chat frame and the user's message frame. */
  beforeUserMessage: number;
  messages: number;
}

let turnNo = 0;
async function turn(c: Conversation, steps: number): Promise<Turn> {
  await scriptModel(llmUrl, c.key, script(steps));
  await settle();
  const from = c.socket.frames.length;
  const first = calls.length;
  const sent = performance.now();
  c.socket.send({ type: "chat", content: `turn ${++turnNo} ${marker(c.key)}` });
  const timeoutMs = 120_000;
  const user = await c.socket.next("message", (f) => f.message.role === "user", { from, timeoutMs });
  const done = await c.socket.next("response_complete", () => true, { from, timeoutMs });
  const atComplete = calls.length;
  const frames = c.socket.frames;
  const completeAt = c.arrived[frames.indexOf(done)] ?? Number.NaN;
  const userAt = c.arrived[frames.indexOf(user)] ?? Number.NaN;
  await settle();
  if (done.termination_reason !== "completed" || done.steps !== steps)
    throw new Error(`expected a completed ${steps}-step turn, got ${done.termination_reason} after ${done.steps}`);
  return {
    steps,
    userMessageMs: userAt - sent,
    completeMs: completeAt - sent,
    during: calls.slice(first, atComplete),
    after: calls.slice(atComplete),
    beforeUserMessage: (c.callsBefore[frames.indexOf(user)] ?? Number.NaN) - first,
    messages: frames.slice(from).filter((f) => f.type === "message").length,
  };
}

// ---- figures -----------------------------------------------------------------------------------

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? (s[mid] ?? Number.NaN) : ((s[mid - 1] ?? Number.NaN) + (s[mid] ?? Number.NaN)) / 2;
};
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
  expect(calls.slice(before).map((c) => c.label)).toEqual([
    "SELECT",
    "SELECT",
    "SELECT",
    "SELECT",
    "batch(SELECT + SELECT)",
    "exec SELECT",
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
    delayMs = delay;
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
      delayMs = 0;
    }
  };
  const plain = await measure(0);
  const delayed = await measure(50);
  result.turn10 = { plain, delayed };
}, 600_000);

afterAll(() => {
  console.log(`BENCH_RESULT ${JSON.stringify(result)}`);
});
