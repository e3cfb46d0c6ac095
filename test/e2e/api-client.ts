// A Node-side client of the running app, as an outside script would use it: sign up over HTTP, then
// talk to a conversation over a real WebSocket. Used by e2e tests and by the stop-latency benchmark.
export type Frame = { type: string; [key: string]: unknown };

export interface Client {
  origin: string;
  cookie: string;
  headers: Record<string, string>;
  createConversation(): Promise<string>;
  messages(conversationId: string): Promise<{ role: string; [key: string]: unknown }[]>;
}

export async function signUp(
  origin: string,
  username = `client_${Date.now()}_${Math.random().toString(36).slice(2, 6)}`,
): Promise<Client> {
  const res = await fetch(`${origin}/api/auth/signup`, {
    method: "POST",
    headers: { "content-type": "application/json", origin },
    body: JSON.stringify({ username, password: "long enough password" }),
  });
  if (res.status !== 201) throw new Error(`signup: ${res.status} ${await res.text()}`);
  return clientFor(origin, (res.headers.get("set-cookie") ?? "").split(";")[0] ?? "");
}

/** The client of an existing session (its cookie) on the app at `origin`, e.g. after a restart. */
export function clientFor(origin: string, cookie: string): Client {
  const headers = { cookie, origin, "content-type": "application/json" };
  return {
    origin,
    cookie,
    headers,
    async createConversation() {
      const created = await fetch(`${origin}/api/conversations`, { method: "POST", headers, body: "{}" });
      return ((await created.json()) as { id: string }).id;
    },
    async messages(conversationId) {
      const got = await fetch(`${origin}/api/conversations/${conversationId}/messages?limit=1000`, {
        headers: { cookie },
      });
      return ((await got.json()) as { messages: { role: string }[] }).messages;
    },
  };
}

/** Polls `GET /api/conversations/:id` until no turn runs there (e.g. a turn resumed after a restart ended). */
export async function waitIdle(
  client: Pick<Client, "origin" | "headers">,
  id: string,
  timeoutMs = 30_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await fetch(`${client.origin}/api/conversations/${id}`, { headers: client.headers });
    if (((await res.json()) as { running?: boolean }).running === false) return;
    if (Date.now() > deadline) throw new Error(`a turn still runs in ${id} after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

export interface Socket {
  ws: WebSocket;
  frames: (Frame & { at: number })[];
  send(frame: unknown): void;
  /** The first frame (received or still to come) after index `from` that matches. */
  until(
    predicate: (f: Frame) => boolean,
    opts?: { from?: number; timeoutMs?: number },
  ): Promise<Frame & { at: number }>;
}

export async function openSocket(client: Pick<Client, "origin" | "headers">, conversationId: string): Promise<Socket> {
  const frames: (Frame & { at: number })[] = [];
  const waiters: (() => void)[] = [];
  // Node's WebSocket (undici) takes headers in its init; the DOM typing does not know that.
  const init = { headers: client.headers } as unknown as string[];
  const ws = new WebSocket(`${client.origin.replace("http", "ws")}/api/conversations/${conversationId}/ws`, init);
  ws.addEventListener("message", (e) => {
    frames.push({ ...(JSON.parse(String(e.data)) as Frame), at: performance.now() });
    for (const wake of waiters.splice(0)) wake();
  });
  const until: Socket["until"] = async (predicate, { from = 0, timeoutMs = 20_000 } = {}) => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = frames.slice(from).find(predicate);
      if (found) return found;
      if (Date.now() > deadline) throw new Error(`no matching frame; got ${frames.map((f) => f.type).join(",")}`);
      await new Promise<void>((resolve) => {
        waiters.push(resolve);
        setTimeout(resolve, 100);
      });
    }
  };
  await until((f) => f.type === "hello");
  return { ws, frames, send: (frame) => ws.send(JSON.stringify(frame)), until };
}

/** The username every test app lists in ADMINS (test/e2e/app.ts TEST_VARS). */
export const E2E_ADMIN = "e2e_admin";

/**
 * A session of the app's admin (ADMINS lists E2E_ADMIN in every test app): signed up by the first file
 * that asks, signed in by the others.
 */
export async function asAdmin(origin: string): Promise<Client> {
  const body = JSON.stringify({ username: E2E_ADMIN, password: "long enough password" });
  const headers = { "content-type": "application/json", origin };
  let res = await fetch(`${origin}/api/auth/signup`, { method: "POST", headers, body });
  if (res.status === 409) res = await fetch(`${origin}/api/auth/login`, { method: "POST", headers, body });
  if (res.status !== 201 && res.status !== 200) throw new Error(`admin: ${res.status} ${await res.text()}`);
  return clientFor(origin, (res.headers.get("set-cookie") ?? "").split(";")[0] ?? "");
}
