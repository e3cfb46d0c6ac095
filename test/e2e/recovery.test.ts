// Turns that survive a restart (issue 29, docs/architecture.md "Deploys"): the Workers runtime that runs
// the app is SIGKILLed at each point a turn can be at, and comes back on the same storage, as after a
// deploy or a crash (App.crash).
// Each time the turn goes on and completes: the log's seqs have no gap, a write happened once, the
// client's frames (before the kill, then after a reconnect that resumes from its last seq) hold every
// message once, and the model's request after the restart begins with what it was sent before.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import {
  marker,
  modelRequests,
  type RecordedRequest,
  type Step,
  scriptModel,
  waitForModelRequests,
} from "../support/fake-openai-client";
import { type Client, type Frame, openSocket, type Socket, waitIdle } from "./api-client";
import { type KillableChat, startKillableChat } from "./killable-chat";

type LoggedMessage = {
  seq: number;
  role: string;
  content?: string;
  tool?: string;
  status?: string;
  result?: unknown;
  error?: string;
  termination_reason?: string;
  item?: { kind: string; body: string };
};

let chat: KillableChat;
beforeAll(async () => {
  // The write and the read hold their result once their effect is done, so the kill lands there.
  chat = await startKillableChat({ FAULT_PAUSE_AFTER_TOOLS: "task_create,vault_list" });
}, 120_000);
afterAll(() => chat?.close());

/** A conversation, its script, a socket that sent `content`, and the frame to kill at. */
async function turnUntil(key: string, steps: Step[], killAt: (f: Frame) => boolean, content = "go") {
  const id = await chat.newConversation();
  await scriptModel(chat.llm.url, key, steps);
  const socket = await openSocket(chat.client, id);
  socket.send({ type: "chat", content: `${content} ${marker(key)}` });
  await socket.until(killAt, { timeoutMs: 30_000 });
  const before = await modelRequests(chat.llm.url, key);
  return { id, socket, before };
}

/** The client after the restart: a new socket that asks for what came after the last message it saw. */
/**
 * The resumed turn's end, or a hello that says it is over: on a loaded machine the restart can take longer
 * than the watchdog's 10 s, and the alarm then carries the turn to its end before the client is back.
 */
const turnOver = (f: Frame) => f.type === "response_complete" || (f.type === "hello" && f.running === false);

async function reconnect(client: Client, id: string, old: Socket): Promise<Socket> {
  const socket = await openSocket(client, id);
  socket.send({ type: "resume", after_seq: lastSeq(old.frames) });
  return socket;
}

const seqsOf = (frames: Frame[]) =>
  frames.flatMap((f) => (f.type === "message" ? [(f.message as LoggedMessage).seq] : []));
const lastSeq = (frames: Frame[]) => Math.max(0, ...seqsOf(frames));

async function plumberTasks(client: Client): Promise<{ title: string }[]> {
  const res = await fetch(`${client.origin}/api/tasks`, { headers: client.headers });
  const { tasks } = (await res.json()) as { tasks: { title: string }[] };
  return tasks.filter((t) => t.title === "Call the plumber");
}

async function log(client: Client, id: string): Promise<LoggedMessage[]> {
  const res = await fetch(`${client.origin}/api/conversations/${id}/messages?limit=1000&view=tree`, {
    headers: { cookie: client.cookie },
  });
  return ((await res.json()) as { messages: LoggedMessage[] }).messages;
}

/** What every recovered turn must show once it completed. */
async function expectWhole(client: Client, id: string, sockets: Socket[]): Promise<LoggedMessage[]> {
  const messages = await log(client, id);
  const last = messages.at(-1)?.seq;
  // The resumed range and the live messages may still be on their way.
  await sockets.at(-1)?.until((f) => f.type === "message" && (f.message as LoggedMessage).seq === last);
  // Gapless: every seq from 1 to the last, once.
  expect(messages.map((m) => m.seq)).toEqual(messages.map((_, i) => i + 1));
  // The client's frames, across the kill: every message exactly once. A live message may arrive before
  // the resumed range it follows (the client keys messages by seq), so arrival order is not compared.
  const seen = sockets.flatMap((s) => seqsOf(s.frames));
  expect(seen.toSorted((a, b) => a - b)).toEqual(messages.map((m) => m.seq));
  expect(messages.filter((m) => m.item?.kind === "interrupt")).toHaveLength(1);
  expect(messages.at(-1)).toMatchObject({ role: "agent", termination_reason: "completed" });
  return messages;
}

/** The request sent after the restart begins with the messages, tools and model of the one before. */
function expectSamePrefix(before: RecordedRequest, after: RecordedRequest): void {
  const was = before.body.messages as unknown[];
  const now = after.body.messages as unknown[];
  expect(now.slice(0, was.length)).toEqual(was);
  expect(JSON.stringify(now).startsWith(JSON.stringify(was).slice(0, -1))).toBe(true);
  expect(after.body.tools).toEqual(before.body.tools);
  expect(after.body.model).toBe(before.body.model);
}

describe("a turn cut short by a restart goes on", () => {
  it("while the model streams: its alarm wakes it with no client, and the call is asked again", async () => {
    const { id, socket, before } = await turnUntil(
      "r-stream",
      [{ text: ["Half an"], hang: true }, { text: "A whole answer." }],
      (f) => f.type === "text_delta",
    );
    const restarted = await chat.killAndRestart();
    // Nobody reconnects: the running turn's watchdog alarm wakes the object, which resumes the turn.
    const requests = await waitForModelRequests(chat.llm.url, "r-stream", (r) => r.length >= 2, 40_000);
    const again = await reconnect(restarted, id, socket);
    await again.until(turnOver);
    await waitIdle(restarted, id);
    expectSamePrefix(before[0] as RecordedRequest, requests[1] as RecordedRequest);
    const last = ((requests[1]?.body.messages ?? []) as { role: string; content: unknown }[]).at(-1);
    expect(JSON.stringify(last)).toContain("[Interrupted]");
    const messages = await expectWhole(restarted, id, [socket, again]);
    expect(messages.at(-1)?.content).toBe("A whole answer.");
    again.ws.close();
  }, 120_000);

  it("while a read tool runs: the read runs again, the model's next request follows on", async () => {
    const { id, socket, before } = await turnUntil(
      "r-read",
      [{ tool_calls: [{ name: "vault_list", arguments: {} }] }, { text: "Listed." }],
      (f) => f.type === "tool_start",
    );
    const restarted = await chat.killAndRestart();
    const again = await reconnect(restarted, id, socket);
    expect(again.frames[0]).toMatchObject({ type: "hello", running: true });
    await again.until(turnOver);
    const requests = await modelRequests(chat.llm.url, "r-read");
    expect(requests).toHaveLength(2);
    const messages = await expectWhole(restarted, id, [socket, again]);
    // Its result reached the log only after the restart (the first run's was held back), so this is the
    // read run again; the reconnected client has it, live or in the resumed range (the resumed turn may
    // finish the read before the socket joins).
    const tool = messages.find((m) => m.role === "tool");
    expect(tool).toMatchObject({ tool: "vault_list", status: "success" });
    expect(seqsOf(again.frames)).toContain(tool?.seq);
    expectSamePrefix(before[0] as RecordedRequest, requests[1] as RecordedRequest);
    again.ws.close();
  }, 120_000);

  it("while a write runs: the write is recognised by its key, and the task exists once", async () => {
    const { id, socket } = await turnUntil(
      "r-write",
      [{ tool_calls: [{ name: "task_create", arguments: { title: "Call the plumber" } }] }, { text: "Added." }],
      (f) => f.type === "tool_start",
    );
    // `tool_start` goes out before the call runs: kill only once the task exists, so the restart finds
    // the write done and its result not yet in the log.
    await vi.waitUntil(async () => (await plumberTasks(chat.client)).length === 1, { timeout: 20_000, interval: 50 });
    const restarted = await chat.killAndRestart();
    const again = await reconnect(restarted, id, socket);
    await again.until(turnOver);
    const messages = await expectWhole(restarted, id, [socket, again]);
    const tool = messages.find((m) => m.role === "tool");
    expect(tool).toMatchObject({ tool: "task_create", status: "success" });
    expect(JSON.stringify(tool?.result)).toContain("already");
    expect(await plumberTasks(restarted)).toHaveLength(1);
    again.ws.close();
  }, 120_000);

  it("while a question waits: the card comes back, and the answer after the restart carries the turn on", async () => {
    const { id, socket } = await turnUntil(
      "r-ask",
      [{ tool_calls: [{ name: "request_input", arguments: { question: "Which colour?" } }] }, { text: "Blue it is." }],
      (f) => f.type === "agent_update" && f.update_type === "agent_request_input",
    );
    const restarted = await chat.killAndRestart();
    const again = await reconnect(restarted, id, socket);
    expect(again.frames[0]).toMatchObject({
      type: "hello",
      running: true,
      pending_input: { question: "Which colour?" },
    });
    // Answered at once: the resumed turn may not have reached its question yet, and still gets the answer.
    again.send({ type: "agent_user_input", content: "Blue" });
    await again.until((f) => f.type === "response_complete");
    const messages = await expectWhole(restarted, id, [socket, again]);
    expect(messages.find((m) => m.role === "tool")).toMatchObject({
      tool: "request_input",
      result: { answer: "Blue" },
    });
    again.ws.close();
  }, 120_000);

  it("while a subagent runs: the child goes on in its own object and the parent re-attaches to it", async () => {
    // The child's answer after the restart waits 3 s, so the parent has re-attached and the client is back
    // on its socket by then: otherwise the child may finish before anyone is there to see its frames.
    await scriptModel(chat.llm.url, "r-child", [
      { text: ["Digging"], hang: true },
      { text: "Child found it.", delay_ms: 3_000 },
    ]);
    const { id, socket } = await turnUntil(
      "r-parent",
      [
        { tool_calls: [{ name: "delegate", arguments: { task: `Find it ${marker("r-child")}` } }] },
        { text: "The helper found it." },
      ],
      (f) => f.type === "subagent_frame" && (f.frame as Frame).type === "text_delta",
    );
    const child = (socket.frames.find((f) => f.type === "subagent_frame") as Frame).conversation_id as string;
    const restarted = await chat.killAndRestart();
    const again = await reconnect(restarted, id, socket);
    await again.until((f) => f.type === "response_complete", { timeoutMs: 40_000 });
    const messages = await expectWhole(restarted, id, [socket, again]);
    const delegate = messages.find((m) => m.role === "tool");
    expect(delegate).toMatchObject({ tool: "delegate", status: "success" });
    // The same child, not a second one: its answer came back, and its frames still streamed here.
    expect(delegate?.result).toMatchObject({ conversation_id: child, answer: "Child found it." });
    expect(again.frames.some((f) => f.type === "subagent_frame" && f.conversation_id === child)).toBe(true);
    const childLog = await log(restarted, child);
    expect(childLog.map((m) => m.seq)).toEqual(childLog.map((_, i) => i + 1));
    expect(childLog.filter((m) => m.role === "user")).toHaveLength(1);
    again.ws.close();
  }, 120_000);

  it("during a retry's wait: the wait is kept, then the call is asked again", async () => {
    const { id, socket } = await turnUntil(
      "r-retry",
      [{ error: { status: 503, message: "overloaded", retry_after: "4" } }, { text: "Back on track." }],
      (f) => f.type === "message" && (f.message as { source?: string }).source === "Model Provider",
    );
    const refusedAt = (await modelRequests(chat.llm.url, "r-retry"))[0]?.received_ms ?? 0;
    const restarted = await chat.killAndRestart();
    const again = await reconnect(restarted, id, socket);
    await again.until(turnOver, { timeoutMs: 40_000 });
    const requests = await modelRequests(chat.llm.url, "r-retry");
    expect(requests).toHaveLength(2);
    // Not sooner than the provider asked, restart or not.
    expect((requests[1]?.received_ms ?? 0) - refusedAt).toBeGreaterThanOrEqual(3900);
    const messages = await expectWhole(restarted, id, [socket, again]);
    expect(messages.at(-1)?.content).toBe("Back on track.");
    again.ws.close();
  }, 120_000);

  it("ends with a plain explanation when the same turn is cut short a third time", async () => {
    const { id, socket } = await turnUntil(
      "r-thrice",
      [{ text: ["Trying"], hang: true }],
      (f) => f.type === "text_delta",
    );
    for (let n = 2; n <= 3; n++) {
      await chat.killAndRestart();
      // Woken by a client: the turn resumes and asks the model again (which hangs again).
      const woken = await openSocket(chat.client, id);
      await waitForModelRequests(chat.llm.url, "r-thrice", (r) => r.length >= n, 30_000);
      woken.ws.close();
    }
    const restarted = await chat.killAndRestart();
    const again = await reconnect(restarted, id, socket);
    expect(again.frames[0]).toMatchObject({ type: "hello", running: false });
    const messages = await log(restarted, id);
    expect(messages.map((m) => m.seq)).toEqual(messages.map((_, i) => i + 1));
    expect(messages.filter((m) => m.item?.kind === "interrupt")).toHaveLength(3);
    const final = messages.at(-1);
    expect(final).toMatchObject({ role: "agent", termination_reason: "interrupted" });
    expect(final?.content).toMatch(/server restarted 3 times/);
    expect(await modelRequests(chat.llm.url, "r-thrice")).toHaveLength(3);
    again.ws.close();
  }, 180_000);
});
