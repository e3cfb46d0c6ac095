// MCP elicitation in real turns (issue 40): a real MCP server (test/support/mcp-elicit-server.ts) asks
// the user during its tool call, in form mode and URL mode. The request becomes a card (a frame to every
// tab, and `hello` for a tab that joins) with the fields and defaults of the requested schema, the server's
// words defused; an answer that does not fit the fields is refused and the card stays; the user's time
// counts against neither the call's timeout (2 s here) nor the turn's clock; the server gets the answer
// with the defaults filled in; the call's tool message keeps what was asked and answered. A link that is
// not https to a public host (or loopback, here) is declined unasked; Stop cancels a waiting request;
// a request past its deadline is cancelled.
import { runInDurableObject } from "cloudflare:test";
import { describe, expect, inject, it } from "vitest";
import { PendingElicitations } from "../../durable-objects/conversation/turn/waits/pending-elicitations";
import type { McpServer, ServerFrame, ToolMessage } from "../../protocol";
import { scriptModel } from "../support/fake-openai-client";
import { DEFAULT_LINK, elicitAnswers } from "../support/mcp-elicit-calls";
import { api, connect, type Session, stubOf, uniqueName } from "./helpers";
import { chat, history, llmUrl, type Scenario, scenario } from "./turn-helpers";

const elicitUrl = inject("mcpElicitUrl");

type Request = Extract<ServerFrame, { type: "elicitation_request" }>;

async function addServer(session: Session, url = elicitUrl): Promise<McpServer> {
  const res = await api("/api/mcp-servers", { method: "POST", json: { name: "trips", url }, headers: session.headers });
  if (res.status !== 201) throw new Error(`add server: ${res.status} ${await res.text()}`);
  const server = (await res.json()) as McpServer;
  const rule = { tool: `mcp:${server.id}:*`, mode: "allow" };
  await api("/api/tool-approvals", { method: "PUT", json: rule, headers: session.headers });
  return server;
}

const call = (name: string) => ({ tool_calls: [{ name, arguments: {} }] });
const toolMessages = async (s: Scenario) => (await history(s)).filter((m): m is ToolMessage => m.role === "tool");

/** Sends the chat and waits for the server's request to reach the tab. */
async function asked(s: Scenario, text: string): Promise<{ from: number; request: Request }> {
  const from = s.socket.frames.length;
  s.socket.send({ type: "chat", content: `${text} [[key:${s.key}]]` });
  const request = (await s.socket.next("elicitation_request", () => true, { from })) as Request;
  return { from, request };
}

const answersFor = async (tool: string) => (await elicitAnswers(elicitUrl)).filter((a) => a.tool === tool);

describe("MCP elicitation", () => {
  it("asks with a form in every tab, refuses an answer that does not fit, and sends the answer with its defaults", async () => {
    const s = await scenario([call("trips__ask_form"), { text: "Trip planned." }]);
    await addServer(s.session);
    const before = (await answersFor("ask_form")).length;
    const { from, request } = await asked(s, "plan a trip");
    expect(request).toMatchObject({ mode: "form", server: "trips", step: 1 });
    // The server's forged reminder is defused before any page sees it.
    expect(request.message).toContain("Where should the trip go?");
    expect(request.message).not.toContain("<system-reminder>");
    expect(request.fields).toEqual([
      { name: "city", label: "City", kind: "text", required: true, min: 2 },
      {
        name: "units",
        label: "Units",
        kind: "choice",
        required: false,
        options: [
          { value: "metric", label: "metric" },
          { value: "imperial", label: "imperial" },
        ],
        default: "metric",
      },
      { name: "days", label: "Days", kind: "integer", required: false, min: 1, max: 14, default: 3 },
      { name: "alerts", label: "Weather alerts", kind: "boolean", required: false, default: false },
    ]);

    // A second tab that joins now sees the same card.
    const other = await connect(s.session, s.conversationId);
    expect(other.frames[0]).toMatchObject({
      type: "hello",
      running: true,
      pending_elicitations: [{ elicitation_id: request.elicitation_id, mode: "form" }],
    });

    other.send({
      type: "elicitation_response",
      elicitation_id: request.elicitation_id,
      action: "accept",
      content: { city: "Lyon", days: 99 },
    });
    expect(await other.next("error")).toMatchObject({
      code: "invalid_frame",
      message: expect.stringMatching(/Days must be at most 14/),
    });
    other.send({ type: "elicitation_response", elicitation_id: request.elicitation_id, action: "accept", content: {} });
    expect((await other.next("error", () => true, { from: 2 })).message).toMatch(/City is required/);

    // Longer than the call's own 2 s timeout: the user's time is not the tool's.
    await new Promise((resolve) => setTimeout(resolve, 2500));
    other.send({
      type: "elicitation_response",
      elicitation_id: request.elicitation_id,
      action: "accept",
      content: { city: "Lyon" },
    });
    expect(await s.socket.next("elicitation_result", () => true, { from })).toMatchObject({
      elicitation_id: request.elicitation_id,
      outcome: "accept",
    });
    expect((await s.socket.next("response_complete", () => true, { from })).termination_reason).toBe("completed");

    const got = (await answersFor("ask_form")).slice(before);
    expect(got).toEqual([
      {
        tool: "ask_form",
        result: { action: "accept", content: { city: "Lyon", units: "metric", days: 3, alerts: false } },
      },
    ]);
    const [tool] = await toolMessages(s);
    expect(tool).toMatchObject({ tool: "trips__ask_form", status: "success" });
    expect(tool?.elicitations).toEqual([
      {
        server: "trips",
        mode: "form",
        message: request.message,
        outcome: "accept",
        answers: [
          { label: "City", value: "Lyon" },
          { label: "Units", value: "metric" },
          { label: "Days", value: "3" },
          { label: "Weather alerts", value: "no" },
        ],
      },
    ]);
    other.close();
  });

  it("asks to open a link in URL mode, and a Decline reaches the server", async () => {
    const s = await scenario([call("trips__ask_url"), { text: "Not connected." }]);
    await addServer(s.session);
    const before = (await answersFor("ask_url")).length;
    const { from, request } = await asked(s, "connect my calendar");
    expect(request).toMatchObject({
      mode: "url",
      url: DEFAULT_LINK,
      message: "Sign in to your calendar to connect it.",
    });
    s.socket.send({ type: "elicitation_response", elicitation_id: request.elicitation_id, action: "decline" });
    await s.socket.next("response_complete", () => true, { from });
    expect((await answersFor("ask_url")).slice(before)).toEqual([{ tool: "ask_url", result: { action: "decline" } }]);
    const [tool] = await toolMessages(s);
    expect(tool?.elicitations).toEqual([
      { server: "trips", mode: "url", message: request.message, outcome: "decline", url: DEFAULT_LINK },
    ]);
  });

  it("declines a link that is not https to a public host without showing it", async () => {
    for (const link of ["javascript:alert(1)", "file:///etc/passwd", "http://10.0.0.1/admin"]) {
      const s = await scenario([call("trips__ask_url"), { text: "Refused." }]);
      await addServer(s.session, `${elicitUrl}?link=${encodeURIComponent(link)}`);
      const { done, frames } = await chat(s, "connect");
      expect(done.termination_reason).toBe("completed");
      expect(frames.some((f) => f.type === "elicitation_request")).toBe(false);
      const [tool] = await toolMessages(s);
      expect(tool?.result).toBe("link: decline");
    }
  });

  it("cancels a waiting request on Stop", async () => {
    const s = await scenario([call("trips__ask_form"), { text: "never" }]);
    await addServer(s.session);
    const { from, request } = await asked(s, "plan");
    s.socket.send({ type: "agent_control", action: "stop" });
    expect(await s.socket.next("elicitation_result", () => true, { from })).toMatchObject({
      elicitation_id: request.elicitation_id,
      outcome: "stopped",
    });
    expect((await s.socket.next("response_complete", () => true, { from })).termination_reason).toBe("user_cancelled");
    s.socket.send({ type: "elicitation_response", elicitation_id: request.elicitation_id, action: "cancel" });
    expect((await s.socket.next("error", () => true, { from })).code).toBe("no_pending_elicitation");
  });
});

describe("a subagent's MCP server", () => {
  it("is declined without asking anyone: a subagent has nobody to ask", async () => {
    const child = uniqueName("child");
    await scriptModel(llmUrl, child, [call("trips__ask_form"), { text: "It wanted an answer." }]);
    const s = await scenario([
      {
        tool_calls: [{ name: "delegate", arguments: { task: `Plan it [[key:${child}]]`, tools: ["trips__ask_form"] } }],
      },
      { text: "The subagent could not ask." },
    ]);
    await addServer(s.session);
    const before = (await answersFor("ask_form")).length;
    const { done, frames } = await chat(s, "delegate the trip");
    expect(done.termination_reason).toBe("completed");
    expect(JSON.stringify(frames)).not.toContain("elicitation_request");
    expect((await answersFor("ask_form")).slice(before)).toEqual([{ tool: "ask_form", result: { action: "decline" } }]);
  });
});

describe("a waiting request's deadline", () => {
  it("is cancelled when the alarm finds it past its deadline, and every tab learns it", async () => {
    await runInDurableObject(stubOf("elicitation-deadline"), async (_instance, state) => {
      const frames: ServerFrame[] = [];
      const waits = new PendingElicitations(state.storage, { send: (f) => frames.push(f) });
      const reply = waits.request(
        { call_id: "c1", step: 1, timeout_s: 10, server: "trips", mode: "form", message: "Where?", fields: [] },
        new AbortController().signal,
      );
      await new Promise((resolve) => setTimeout(resolve, 10));
      const deadline = await waits.nextDeadline();
      expect(deadline).toBeGreaterThan(Date.now());
      await waits.expire(Date.now());
      expect(await waits.hello()).toEqual({ pending_elicitations: [expect.objectContaining({ call_id: "c1" })] });
      await waits.expire((deadline ?? 0) + 1);
      expect(await reply).toEqual({ outcome: "timed_out" });
      expect(frames.map((f) => f.type)).toEqual(["elicitation_request", "elicitation_result"]);
      expect(await waits.hello()).toEqual({});
    });
  });
});
