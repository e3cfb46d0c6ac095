// Test helpers inside workerd: call the real Worker through its default export, as a browser would.
import { env, exports } from "cloudflare:workers";
import { shardOfToken } from "../../core/shard-rules";
import { shardDb } from "../../d1/shards";
import { type ServerFrame, ServerFrameSchema } from "../../protocol";

export const ORIGIN = "http://oracle.test";

/** The stub of a conversation's Durable Object, as the Worker reaches it. */
export const stubOf = (id: string) => env.CONVERSATION.get(env.CONVERSATION.idFromName(id));

export interface Session {
  user: { id: string; username: string };
  cookie: string;
  /** Headers a same-origin browser request carries. */
  headers: Record<string, string>;
  /** The account's shard and its database (d1/shards.ts): where a test reads the account's rows. */
  shard: number;
  db: D1Database;
}

// Test files run at once, each in its own isolate with its own counter, and share the fake model server,
// whose scripts and recorded requests are keyed by these names: a random tag per isolate keeps two files'
// names apart (with Date.now() and the counter alone, two files' first names could be the same).
let tag: string | undefined;
let counter = 0;
export function uniqueName(prefix = "user"): string {
  tag ??= crypto.randomUUID().replaceAll("-", "").slice(0, 8);
  return `${prefix}_${tag}_${(counter++).toString(36)}`;
}

export function api(path: string, init: RequestInit & { json?: unknown } = {}): Promise<Response> {
  const headers = new Headers(init.headers);
  let body = init.body;
  if (init.json !== undefined) {
    headers.set("Content-Type", "application/json");
    body = JSON.stringify(init.json);
  }
  return exports.default.fetch(new Request(`${ORIGIN}${path}`, { ...init, headers, body }));
}

export async function signup(username = uniqueName(), password = "correct horse battery"): Promise<Session> {
  const res = await api("/api/auth/signup", {
    method: "POST",
    json: { username, password },
    headers: { Origin: ORIGIN },
  });
  if (res.status !== 201) throw new Error(`signup failed: ${res.status} ${await res.text()}`);
  const cookie = (res.headers.get("Set-Cookie") ?? "").split(";")[0] ?? "";
  const { user } = (await res.json()) as Session["user"] extends infer U ? { user: U } : never;
  return sessionFrom(user, cookie);
}

/** A session as a same-origin browser sends it back; its cookie names the account's shard (d1/shards.ts). */
export function sessionFrom(user: Session["user"], cookie: string): Session {
  const shard = shardOfToken(cookie.slice(cookie.indexOf("=") + 1));
  return { user, cookie, headers: { Cookie: cookie, Origin: ORIGIN }, shard, db: shardDb(env, shard) };
}

/** Signs up until there is a user on each of two different shards (accounts land on a random open shard). */
export async function usersOnTwoShards(): Promise<[Session, Session]> {
  const first = await signup();
  for (;;) {
    const other = await signup();
    if (other.shard !== first.shard) return [first, other];
  }
}

/** The D1 database (shard) that holds `userId`'s rows, as the directory says. */
export async function userDb(userId: string): Promise<D1Database> {
  const row = await env.DIRECTORY.prepare("SELECT shard FROM directory_users WHERE user_id = ?")
    .bind(userId)
    .first<{ shard: number }>();
  return shardDb(env, row?.shard ?? 0);
}

export async function createConversation(session: Session, title?: string): Promise<{ id: string; title: string }> {
  const res = await api("/api/conversations", {
    method: "POST",
    json: title ? { title } : {},
    headers: session.headers,
  });
  if (res.status !== 201) throw new Error(`create conversation failed: ${res.status}`);
  return res.json();
}

/** A client socket that records every frame and lets a test wait for the one it expects. */
export class TestSocket {
  readonly frames: ServerFrame[] = [];
  private waiters: { predicate: (f: ServerFrame) => boolean; resolve: (f: ServerFrame) => void }[] = [];
  closed = false;
  closeCode: number | undefined;

  constructor(readonly ws: WebSocket) {
    ws.accept();
    ws.addEventListener("message", (event) => {
      const frame = ServerFrameSchema.parse(JSON.parse(String(event.data)));
      this.frames.push(frame);
      const ready = this.waiters.filter((w) => w.predicate(frame));
      this.waiters = this.waiters.filter((w) => !ready.includes(w));
      for (const waiter of ready) waiter.resolve(frame);
    });
    ws.addEventListener("close", (event) => {
      this.closed = true;
      this.closeCode = event.code;
    });
  }

  send(frame: unknown): void {
    this.ws.send(typeof frame === "string" ? frame : JSON.stringify(frame));
  }

  /** The first frame (already received or still to come) after index `from` that matches. */
  next<T extends ServerFrame["type"]>(
    type: T,
    predicate: (f: Extract<ServerFrame, { type: T }>) => boolean = () => true,
    { from = 0, timeoutMs = 10_000 } = {},
  ): Promise<Extract<ServerFrame, { type: T }>> {
    const match = (f: ServerFrame): f is Extract<ServerFrame, { type: T }> =>
      f.type === type && predicate(f as Extract<ServerFrame, { type: T }>);
    const seen = this.frames.slice(from).find(match);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () =>
          reject(new Error(`no ${type} frame within ${timeoutMs} ms; got ${this.frames.map((f) => f.type).join(",")}`)),
        timeoutMs,
      );
      this.waiters.push({
        predicate: (f) => match(f),
        resolve: (f) => {
          clearTimeout(timer);
          resolve(f as Extract<ServerFrame, { type: T }>);
        },
      });
    });
  }

  messages() {
    return this.frames.flatMap((f) => (f.type === "message" ? [f.message] : []));
  }

  close(): void {
    this.ws.close(1000, "test done");
  }
}

export async function connect(session: Pick<Session, "headers">, conversationId: string): Promise<TestSocket> {
  const res = await api(`/api/conversations/${conversationId}/ws`, {
    headers: { ...session.headers, Upgrade: "websocket" },
  });
  if (res.status !== 101 || !res.webSocket) throw new Error(`upgrade failed: ${res.status} ${await res.text()}`);
  const socket = new TestSocket(res.webSocket);
  await socket.next("hello");
  return socket;
}

/** Reads until `ok` holds (what the object does in the background, such as an index flush), or fails after 15 s (5 s ran out on a loaded 2-core run). */
export async function eventually<T>(read: () => Promise<T>, ok: (value: T) => boolean, what: string): Promise<T> {
  const until = Date.now() + 15_000;
  for (;;) {
    const value = await read();
    if (ok(value)) return value;
    if (Date.now() > until) throw new Error(`${what}: still ${JSON.stringify(value)}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}
