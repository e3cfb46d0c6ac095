// External triggers (docs/protocol.md notify): with a session or a bearer token, they enter the bus as
// external.notify and reach the agent as a notification; another user's conversation answers 404.
import { describe, expect, it } from "vitest";
import { modelRequests } from "../support/fake-openai-client";
import { api } from "./helpers";
import { chat, history, llmUrl, requestText, scenario } from "./turn-helpers";

describe("notify", () => {
  it("accepts a bearer token, persists and broadcasts at once when idle, and the agent sees it next turn", async () => {
    const s = await scenario([{ text: "Noted the deploy." }]);
    const { token } = (await (
      await api("/api/tokens", { method: "POST", json: { name: "ci" }, headers: s.session.headers })
    ).json()) as { token: string };
    const res = await api(`/api/conversations/${s.conversationId}/notify`, {
      method: "POST",
      json: { message: "Deploy 42 finished", severity: "warning" },
      headers: { Authorization: `Bearer ${token}` },
    });
    expect(res.status).toBe(202);
    const frame = await s.socket.next("message", (f) => f.message.role === "system");
    expect(frame.message).toMatchObject({
      role: "system",
      source: "External",
      severity: "warning",
      item: { kind: "notification", subscriber: "external_notify" },
    });
    expect(frame.message.role === "system" && frame.message.item.body).toContain("Deploy 42 finished");

    await chat(s, "anything new?");
    const [request] = await modelRequests(llmUrl, s.key);
    expect(requestText(request?.body ?? {})).toContain("Deploy 42 finished");
    expect((await history(s)).filter((m) => m.role === "system" && m.source === "External")).toHaveLength(1);
  });

  it("answers 404 for another user's conversation, token or cookie, and refuses bad bodies", async () => {
    const owner = await scenario([]);
    const other = await scenario([]);
    const { token } = (await (
      await api("/api/tokens", { method: "POST", json: { name: "x" }, headers: other.session.headers })
    ).json()) as { token: string };
    const path = `/api/conversations/${owner.conversationId}/notify`;
    expect(
      (await api(path, { method: "POST", json: { message: "hi" }, headers: { Authorization: `Bearer ${token}` } }))
        .status,
    ).toBe(404);
    expect((await api(path, { method: "POST", json: { message: "hi" }, headers: other.session.headers })).status).toBe(
      404,
    );
    expect((await api(path, { method: "POST", json: { message: "" }, headers: owner.session.headers })).status).toBe(
      400,
    );
    expect(
      (await api(path, { method: "POST", json: { message: "x", severity: "loud" }, headers: owner.session.headers }))
        .status,
    ).toBe(400);
    expect(await history(owner)).toEqual([]);
  });
});
