// What a turn asks of D1 (docs/architecture.md "Data"): the log is the object's, so no message reaches D1; the
// object reads the agent config, the subscriber toggles, the MCP servers, the model choices (the conversation's
// model, the user's providers), the approval rules and the web settings in one batch as a socket opens and keeps them while
// it is open, so a turn on it reads none of them; the index is
// updated in at most two batches per turn (and, after the first answer, once for the model's title, after the
// turn's end); the use of the operator's model is written with the turn's end, not per step; the task
// reminder reads the open tasks only when one is
// near. Counted over a 14-step turn (13 vault_list steps, then the answer) by d1-probe.ts.
import { describe, expect, it } from "vitest";
import { calls, openConversation, settle, TOOL_LABEL, turn } from "./d1-probe";

const count = (labels: string[], match: (label: string) => boolean) => labels.filter(match).length;

describe("D1 on the hot path of a turn", () => {
  it("keeps a 14-step turn to no settings read, no message writes and at most two index batches", async () => {
    const beforeOpen = calls.length;
    const c = await openConversation();
    await settle();
    // The agent config, in one batch with the toggles, the model choices (turn-model.ts picks from them),
    // the sockets' credential check and the object's registration (user-cache.ts), read as the socket
    // opened: the object keeps that copy while a socket is open.
    expect(calls.slice(beforeOpen).map((call) => call.label)).toContain(
      "batch(INSERT live_conversations + SELECT agent_settings + SELECT subscriber_settings + SELECT mcp_servers + SELECT conversations + SELECT providers + SELECT tool_approvals + SELECT users + SELECT user_quotas + SELECT web_settings + SELECT user_instructions + SELECT conversations + SELECT files + SELECT memories + SELECT sessions + SELECT api_tokens)",
    );
    const t = await turn(c, 14);
    await settle();
    const labels = [...t.during, ...t.after].map((call) => call.label);
    // The chat frame's credential check and the turn's settings come from that copy: no D1 call before
    // the user's message is stored and the model asked.
    expect(t.beforeUserMessage).toBe(0);
    expect(count(labels, (l) => l.includes("agent_settings"))).toBe(0);
    expect(count(labels, (l) => l.includes("SELECT sessions"))).toBe(0);
    expect(count(labels, (l) => l === TOOL_LABEL)).toBe(13);
    // No message row, and no per-message UPDATE of the conversation, goes to D1.
    expect(count(labels, (l) => / messages\b/.test(l))).toBe(0);
    // Only the model's title, once, asked for after response_complete left (conversation-titles.ts; its
    // frame order: conversation-titles.test.ts). Not split by `during`: that ends when the test's socket
    // receives response_complete, which the object's next statement may precede.
    expect(count(labels, (l) => l === "UPDATE conversations")).toBe(1);
    // Toggles re-read in the background at most once per later model request.
    expect(count(labels, (l) => l === "SELECT subscriber_settings")).toBeLessThanOrEqual(13);
    // The index: one batch as the turn starts, one as it ends.
    expect(count(labels, (l) => l.startsWith("batch(INSERT message_search"))).toBe(2);
    // The schedules' next run is kept by the object (scheduled-runs.ts): read from D1 once, on its first turn's end.
    expect(count(labels, (l) => l === "SELECT schedules")).toBeLessThanOrEqual(1);
    // The use of the operator's model, for a user without a quota: written once with the turn's end and once
    // with the title, never per step (a user with a quota is admitted per call: quota.test.ts).
    expect(count(labels, (l) => l === "batch(INSERT usage_totals + INSERT usage_daily)")).toBeLessThanOrEqual(2);
    expect(count(labels, (l) => l.includes("usage_totals"))).toBeLessThanOrEqual(2);
    // Task reminders (every 8 requests by default): the open tasks once per reminder window, not per request.
    expect(count(labels, (l) => l === "SELECT tasks")).toBeLessThanOrEqual(2);
    c.socket.close();
  }, 60_000);
});
