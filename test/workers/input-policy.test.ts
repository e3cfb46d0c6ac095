// Issue 10 (hardening): one input policy for every JSON body and every socket frame. Text that is not
// valid Unicode (a lone surrogate) is refused naming the field, never stored as U+FFFD; an unknown
// field is refused naming it, never silently dropped; and a refused request changes nothing.
import { describe, expect, it } from "vitest";
import type { Message } from "../../protocol";
import { api, connect, createConversation, ORIGIN, type Session, signup, uniqueName } from "./helpers";

const LONE = "half \ud800 of a pair";
const EMOJI = "intact 🦉 and é";
const NOT_UNICODE = "not valid Unicode (lone surrogate)";

async function expectRefused(res: Response, fields: Record<string, string>) {
  expect(res.status).toBe(400);
  const { error } = (await res.json()) as { error: { code: string; message: string; fields: object } };
  expect(error.code).toBe("invalid_input");
  // Compared as JSON text, which escapes lone surrogates: a raw one in a failure message would break
  // vitest's channel out of workerd instead of failing this test.
  expect(JSON.stringify(error.fields)).toBe(JSON.stringify(fields));
  const [field] = Object.keys(fields);
  expect(error.message.startsWith(`${field === "_" ? "body" : field}: `)).toBe(true);
}

const getJson = async <T>(s: Session, path: string): Promise<T> =>
  (await api(path, { headers: s.headers })).json() as Promise<T>;

interface Owned {
  s: Session;
  conversationId: string;
  taskId: string;
}

async function owned(): Promise<Owned> {
  const s = await signup();
  const { id } = await createConversation(s, "Before");
  const res = await api("/api/tasks", { method: "POST", json: { title: "Before" }, headers: s.headers });
  return { s, conversationId: id, taskId: ((await res.json()) as { id: string }).id };
}

interface Route {
  name: string;
  method: "POST" | "PUT" | "PATCH";
  path: (o: Owned) => string;
  /** The other fields a valid body needs. */
  base: Record<string, unknown>;
  /** The free-text field under test. */
  field: string;
  /** Every stored value of that field, read back through the API. */
  readBack: (o: Owned) => Promise<unknown[]>;
}

const routes: Route[] = [
  {
    name: "conversation create",
    method: "POST",
    path: () => "/api/conversations",
    base: {},
    field: "title",
    readBack: async (o) => (await getJson<{ title: string }[]>(o.s, "/api/conversations")).map((c) => c.title),
  },
  {
    name: "conversation rename",
    method: "PATCH",
    path: (o) => `/api/conversations/${o.conversationId}`,
    base: {},
    field: "title",
    readBack: async (o) => [(await getJson<{ title: string }>(o.s, `/api/conversations/${o.conversationId}`)).title],
  },
  {
    name: "note",
    method: "PUT",
    path: () => "/api/notes/policy.md",
    base: {},
    field: "content",
    readBack: async (o) => {
      const res = await api("/api/notes/policy.md", { headers: o.s.headers });
      return res.status === 404 ? [] : [((await res.json()) as { content: string }).content];
    },
  },
  {
    name: "task create",
    method: "POST",
    path: () => "/api/tasks",
    base: { details: "d" },
    field: "title",
    readBack: async (o) => (await getJson<{ tasks: { title: string }[] }>(o.s, "/api/tasks")).tasks.map((t) => t.title),
  },
  {
    name: "task update",
    method: "PATCH",
    path: (o) => `/api/tasks/${o.taskId}`,
    base: { status: "in_progress" },
    field: "details",
    readBack: async (o) =>
      (await getJson<{ tasks: { status: string; details: string }[] }>(o.s, "/api/tasks")).tasks.flatMap((t) => [
        t.status,
        t.details,
      ]),
  },
  ...(["knowledge", "workflows"] as const).flatMap((kind): Route[] =>
    (["title", "body"] as const).map((field) => ({
      name: `${kind} ${field}`,
      method: "PUT",
      path: () => `/api/${kind}/policy`,
      base: { title: "t", body: "b" },
      field,
      readBack: async (o) => {
        const res = await api(`/api/${kind}/policy`, { headers: o.s.headers });
        return res.status === 404 ? [] : [((await res.json()) as Record<string, string>)[field]];
      },
    })),
  ),
  {
    name: "token",
    method: "POST",
    path: () => "/api/tokens",
    base: {},
    field: "name",
    readBack: async (o) => (await getJson<{ name: string }[]>(o.s, "/api/tokens")).map((t) => t.name),
  },
  {
    name: "notify",
    method: "POST",
    path: (o) => `/api/conversations/${o.conversationId}/notify`,
    base: { severity: "info" },
    field: "message",
    readBack: async (o) => {
      const { messages } = await getJson<{ messages: Message[] }>(
        o.s,
        `/api/conversations/${o.conversationId}/messages`,
      );
      return messages.flatMap((m) => (m.role === "system" && m.item.kind === "notification" ? [m.item.message] : []));
    },
  },
];

const send = (o: Owned, route: Route, json: unknown) =>
  api(route.path(o), { method: route.method, json, headers: o.s.headers });

describe("HTTP bodies", () => {
  for (const route of routes) {
    it(`${route.name}: refuses a lone surrogate and an unknown field, changing nothing; stores an emoji intact`, async () => {
      const o = await owned();
      const before = await route.readBack(o);

      await expectRefused(await send(o, route, { ...route.base, [route.field]: LONE }), {
        [route.field]: NOT_UNICODE,
      });
      await expectRefused(await send(o, route, { ...route.base, [route.field]: "fine", sneaky: true }), {
        sneaky: "unknown field",
      });
      expect(await route.readBack(o)).toEqual(before);

      const res = await send(o, route, { ...route.base, [route.field]: EMOJI });
      expect(res.status).toBeLessThan(300);
      expect(await route.readBack(o)).toContain(EMOJI);
    });
  }

  it("names a bad object key or a bad whole body, survives deep nesting, and refuses bytes that are not UTF-8", async () => {
    const o = await owned();
    const create = (body: BodyInit) =>
      api("/api/conversations", {
        method: "POST",
        body,
        headers: { ...o.s.headers, "Content-Type": "application/json" },
      });
    await expectRefused(await create('{"ti\\udc00tle": "x"}'), { "ti\uFFFDtle": NOT_UNICODE });
    await expectRefused(await create('"\\ud800"'), { _: NOT_UNICODE });
    // The walk is iterative: a deeply nested body is a 400, not a stack overflow.
    const deep = `{"nested": ${"[".repeat(100_000)}${"]".repeat(100_000)}}`;
    await expectRefused(await create(deep), { nested: "unknown field" });
    const notUtf8 = new Uint8Array([
      ...new TextEncoder().encode('{"title": "a'),
      0xff,
      ...new TextEncoder().encode('"}'),
    ]);
    const res = await create(notUtf8);
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { message: string } }).error.message).toContain("UTF-8");
    const titles = (await getJson<{ title: string }[]>(o.s, "/api/conversations")).map((c) => c.title);
    expect(titles).toEqual(["Before"]);
  });

  it("signup: refuses a lone surrogate and an unknown field without creating the user", async () => {
    const username = uniqueName();
    const signupWith = (json: unknown) =>
      api("/api/auth/signup", { method: "POST", json, headers: { Origin: ORIGIN } });
    await expectRefused(await signupWith({ username, password: `password ${LONE}` }), { password: NOT_UNICODE });
    await expectRefused(await signupWith({ username, password: "long enough", admin: true }), {
      admin: "unknown field",
    });
    // Had either refused request created the user, this would be 409.
    expect((await signupWith({ username, password: `password ${EMOJI}` })).status).toBe(201);
  });

  it("login: refuses a lone surrogate and an unknown field; the right password still signs in", async () => {
    const password = `password ${EMOJI}`;
    const { user } = await signup(uniqueName(), password);
    const login = (json: unknown) => api("/api/auth/login", { method: "POST", json, headers: { Origin: ORIGIN } });
    await expectRefused(await login({ username: user.username, password: LONE }), { password: NOT_UNICODE });
    await expectRefused(await login({ username: user.username, password, remember: true }), {
      remember: "unknown field",
    });
    expect((await login({ username: user.username, password })).status).toBe(200);
  });

  it("settings: refuses a lone surrogate and an unknown field, saving nothing from that request", async () => {
    const s = await signup();
    const put = (json: unknown) => api("/api/settings/agent", { method: "PUT", json, headers: s.headers });
    await expectRefused(await put({ maxIterations: 5, decisionTree: LONE }), { decisionTree: NOT_UNICODE });
    await expectRefused(await put({ maxIterations: 5, maxIteration: 6 }), { maxIteration: "unknown field" });
    expect(await getJson<{ maxIterations: number }>(s, "/api/settings/agent")).toMatchObject({ maxIterations: 15 });
  });

  it("subscriber toggle: refuses an unknown field, leaving the toggle as it was", async () => {
    const s = await signup();
    const put = (json: unknown) => api("/api/subscribers/tool_success", { method: "PUT", json, headers: s.headers });
    expect((await put({ enabled: true })).status).toBe(200);
    await expectRefused(await put({ enabled: false, reason: "noisy" }), { reason: "unknown field" });
    const list = await getJson<{ id: string; enabled: boolean }[]>(s, "/api/subscribers");
    expect(list.find((sub) => sub.id === "tool_success")?.enabled).toBe(true);
  });
});

describe("socket frames", () => {
  it("answers a lone surrogate or an unknown field with an error naming the field, and starts no turn", async () => {
    const s = await signup();
    const { id } = await createConversation(s);
    const socket = await connect(s, id);
    const refusals: [unknown, string][] = [
      [{ type: "chat", content: LONE }, "content"],
      [{ type: "chat", content: "hello", temperature: 2 }, "temperature"],
      [{ type: "agent_user_input", content: LONE }, "content"],
      [{ type: "resume", after_seq: 0, replay: true }, "replay"],
      [{ type: "ping", "\udfff": 1 }, "\uFFFD"],
    ];
    for (const [frame, field] of refusals) {
      const from = socket.frames.length;
      socket.send(frame);
      const error = await socket.next("error", () => true, { from });
      expect(error.code).toBe("invalid_frame");
      expect(error.message.startsWith(`${field}: `)).toBe(true);
    }
    const from = socket.frames.length;
    socket.send({ type: "ping" });
    await socket.next("pong", () => true, { from });
    expect(socket.frames.some((f) => f.type === "agent_update" || f.type === "message")).toBe(false);
    expect((await getJson<{ messages: Message[] }>(s, `/api/conversations/${id}/messages`)).messages).toEqual([]);
    socket.close();
  });
});
