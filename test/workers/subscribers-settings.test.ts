// Seed 000 US5: users toggle non-core subscribers; core ones refuse; changes apply at once, also to a
// turn that is already running.
import { describe, expect, it } from "vitest";
import type { Message, SubscriberInfo } from "../../protocol";
import { marker } from "../support/fake-openai-client";
import { api, signup } from "./helpers";
import { chat, history, scenario } from "./turn-helpers";

const toolSuccess = (messages: Message[]) =>
  messages.filter((m) => m.role === "system" && m.item.kind === "notification" && m.item.subscriber === "tool_success");

describe("subscriber settings", () => {
  it("lists every shipped subscriber with name, description, events and status", async () => {
    const session = await signup();
    const list = (await (await api("/api/subscribers", { headers: session.headers })).json()) as SubscriberInfo[];
    const ids = list.map((s) => s.id);
    for (const core of ["tool_failure", "budget_warning", "budget_exceeded", "loop_detected"]) {
      expect(list.find((s) => s.id === core)).toMatchObject({ core: true, enabled: true });
    }
    // The two that repeat what the chat already shows ship off (issue 13), still listed to switch on.
    for (const quiet of ["tool_success", "turn_summary"]) {
      expect(list.find((s) => s.id === quiet)).toMatchObject({ core: false, enabled: false });
    }
    expect(ids).toEqual(expect.arrayContaining(["tool_success", "turn_summary", "llm_retry", "external_notify"]));
    for (const s of list) {
      expect(s.name.length).toBeGreaterThan(0);
      expect(s.description.length).toBeGreaterThan(0);
      expect(s.events.length).toBeGreaterThan(0);
    }
  });

  it("refuses to disable a core subscriber with 409 and a reason, and 404s an unknown one", async () => {
    const session = await signup();
    const res = await api("/api/subscribers/budget_exceeded", {
      method: "PUT",
      json: { enabled: false },
      headers: session.headers,
    });
    expect(res.status).toBe(409);
    expect(((await res.json()) as { error: { message: string } }).error.message).toMatch(/core subscriber/);
    const unknown = await api("/api/subscribers/nope", {
      method: "PUT",
      json: { enabled: false },
      headers: session.headers,
    });
    expect(unknown.status).toBe(404);
    const bad = await api("/api/subscribers/tool_success", {
      method: "PUT",
      json: { enabled: "no" },
      headers: session.headers,
    });
    expect(bad.status).toBe(400);
  });

  it("generates no tool success notification by default, one once enabled, and none once disabled again", async () => {
    const list = { tool_calls: [{ name: "vault_list", arguments: {} }] };
    const s = await scenario([list, { text: "listed" }, list, { text: "listed" }, list, { text: "listed" }]);
    const toggle = async (enabled: boolean) =>
      api("/api/subscribers/tool_success", { method: "PUT", json: { enabled }, headers: s.session.headers });
    await chat(s, "list");
    expect(toolSuccess(await history(s))).toHaveLength(0);

    expect(await (await toggle(true)).json()).toMatchObject({ id: "tool_success", enabled: true });
    await chat(s, "list again");
    expect(toolSuccess(await history(s))).toHaveLength(1);

    expect(await (await toggle(false)).json()).toMatchObject({ id: "tool_success", enabled: false });
    await chat(s, "and again");
    expect(toolSuccess(await history(s))).toHaveLength(1);
  });

  it("applies a toggle to a turn that is already running", async () => {
    const s = await scenario([
      { tool_calls: [{ name: "request_input", arguments: { question: "Go on?" } }] },
      { tool_calls: [{ name: "vault_list", arguments: {} }] },
      { text: "done" },
    ]);
    await api("/api/subscribers/tool_success", { method: "PUT", json: { enabled: true }, headers: s.session.headers });
    const from = s.socket.frames.length;
    s.socket.send({ type: "chat", content: `start ${marker(s.key)}` });
    await s.socket.next("agent_update", (f) => f.update_type === "agent_request_input", { from });
    await api("/api/subscribers/tool_success", { method: "PUT", json: { enabled: false }, headers: s.session.headers });
    s.socket.send({ type: "agent_user_input", content: "yes" });
    await s.socket.next("response_complete", () => true, { from });
    expect(toolSuccess(await history(s))).toHaveLength(0);
  });
});
