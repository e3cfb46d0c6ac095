// Counts (and can delay) every D1 round trip inside workerd, and drives whole turns to count them:
// shared by the hot-path test (d1-hot-path.test.ts) and the benchmark (d1-hot-path.bench-test.ts).
//
// Counting: the Durable Object runs in the test's isolate, so patching the prototypes of the D1 binding
// classes here (D1Database: batch, exec; D1PreparedStatement: first, run, all, raw; the same for a
// withSession() session) also catches the object's calls, on every shard and the directory. Each of those calls is one round trip;
// prepare and bind only tag the statement with its SQL, so every call is labelled "VERB table".
// With a delay set, every round trip waits that long before it is sent (a remote D1 primary).
import { env } from "cloudflare:workers";
import { inject } from "vitest";
import { marker, type Step, scriptModel } from "../support/fake-openai-client";
import { connect, createConversation, signup, type TestSocket, uniqueName } from "./helpers";

// ---- D1 instrumentation -------------------------------------------------------------------------

export interface D1Call {
  label: string;
  /** performance.now() when the call was made, and how long until its promise settled (delay included). */
  at: number;
  ms: number;
}

/** Every D1 round trip made in this isolate (the test and the objects it drives), in order. */
export const calls: D1Call[] = [];
const sqlOf = new WeakMap<object, string>();
let delayMs = 0;

/** Every D1 round trip from now on waits `ms` first, as if the primary were far away. */
export function setD1Delay(ms: number): void {
  delayMs = ms;
}
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

// Every D1 binding (each shard and the directory), found by name rather than through d1/shards, so the
// benchmark can copy this file into a commit from before shards. Not by shape: a service binding is an
// RPC stub that answers every property, `prepare` included. They share these classes today, so the
// first binding's patch already counts them all; patching each (a no-op once patched) keeps the count
// whole if they ever differ.
const bindings = Object.entries(env as unknown as Record<string, D1Database | undefined>)
  .filter(([name]) => /^(DB|DIRECTORY|SHARD_\d+)$/.test(name))
  .map(([, d1]) => d1)
  .filter((d1): d1 is D1Database => d1 !== undefined);
for (const d1 of bindings) {
  const statementProto = Object.getPrototypeOf(d1.prepare("SELECT 1")) as Proto;
  instrumentDatabase(Object.getPrototypeOf(d1) as Proto);
  tagStatements(statementProto, "bind", (self) => sqlOf.get(self));
  for (const name of ["first", "run", "all", "raw"])
    countCalls(statementProto, name, (self) => labelSql(sqlOf.get(self)));
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits until no D1 call is in flight and none started for `quietMs`. */
export async function settle(quietMs = 150): Promise<void> {
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
export const TOOL_LABEL = "SELECT notes";

export interface Conversation {
  socket: TestSocket;
  key: string;
  /** performance.now() at which each frame of socket.frames arrived, and how many D1 calls had been made by then. */
  arrived: number[];
  callsBefore: number[];
}

export async function openConversation(): Promise<Conversation> {
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

export interface Turn {
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
export async function turn(c: Conversation, steps: number): Promise<Turn> {
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
