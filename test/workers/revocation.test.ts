// Revocation reaches open sockets (docs/protocol.md "Identity"): logout or DELETE /api/tokens/:id closes
// every socket opened with that session or token before it answers (`unauthorized`, then 4401), idle or
// not, and no turn runs on its behalf; a turn it started is stopped.
import { describe, expect, it } from "vitest";
import { marker, modelRequests, scriptModel } from "../support/fake-openai-client";
import { api, connect, createConversation, ORIGIN, signup, type TestSocket, uniqueName } from "./helpers";
import { llmUrl } from "./turn-helpers";

async function messageCount(headers: Record<string, string>, id: string): Promise<number> {
  const res = await api(`/api/conversations/${id}/messages`, { headers });
  return ((await res.json()) as { messages: unknown[] }).messages.length;
}

async function expectRevoked(socket: TestSocket, from: number) {
  const error = await socket.next("error", () => true, { from });
  expect(error).toMatchObject({ code: "unauthorized" });
  await waitFor(() => socket.closed);
  expect(socket.closeCode).toBe(4401);
}

async function waitFor(condition: () => boolean, ms = 5000) {
  const until = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > until) throw new Error("condition not met in time");
    await new Promise((r) => setTimeout(r, 20));
  }
}

async function newToken(headers: Record<string, string>) {
  const res = await api("/api/tokens", { method: "POST", json: { name: "script" }, headers });
  return (await res.json()) as { id: string; token: string };
}

describe("revocation reaches open sockets", () => {
  it("closes a socket at once when its session logs out, and nothing it sends after runs", async () => {
    const session = await signup();
    const { id } = await createConversation(session);
    const key = uniqueName("revoked");
    await scriptModel(llmUrl, key, [{ text: "must never be asked" }]);
    const socket = await connect(session, id);
    const from = socket.frames.length;

    // The socket is idle: the logout itself closes it, before its answer.
    expect((await api("/api/auth/logout", { method: "POST", headers: session.headers })).status).toBe(204);
    await expectRevoked(socket, from);
    expect(() => socket.send({ type: "chat", content: `hello ${marker(key)}` })).toThrow();

    expect(await modelRequests(llmUrl, key)).toHaveLength(0);
    // Nothing was written on the revoked socket's behalf (read back with a fresh session).
    const again = await api("/api/auth/login", {
      method: "POST",
      json: { username: session.user.username, password: "correct horse battery" },
      headers: { Origin: ORIGIN },
    });
    const cookie = (again.headers.get("Set-Cookie") ?? "").split(";")[0] ?? "";
    expect(await messageCount({ Cookie: cookie, Origin: ORIGIN }, id)).toBe(0);
  });

  it("closes a socket opened with an API token once the token is deleted, and keeps the others open", async () => {
    const session = await signup();
    const { id } = await createConversation(session);
    const { id: tokenId, token } = await newToken(session.headers);
    const script = await connect({ headers: { Authorization: `Bearer ${token}` } }, id);
    const tab = await connect(session, id);
    // The token works until it is deleted.
    script.send({ type: "resume", after_seq: 0 });
    const from = script.frames.length;
    expect((await api(`/api/tokens/${tokenId}`, { method: "DELETE", headers: session.headers })).status).toBe(204);
    await expectRevoked(script, from);
    expect(tab.closed).toBe(false);
    expect(await messageCount(session.headers, id)).toBe(0);
    tab.close();
  });

  it("stops a turn the revoked token started, and the signed-in tab sees it end", async () => {
    const session = await signup();
    const { id } = await createConversation(session);
    const { id: tokenId, token } = await newToken(session.headers);
    const key = uniqueName("stop-on-revoke");
    await scriptModel(llmUrl, key, [{ text: "thinking very slowly", hang: true }]);
    const script = await connect({ headers: { Authorization: `Bearer ${token}` } }, id);
    const tab = await connect(session, id);
    script.send({ type: "chat", content: `long task ${marker(key)}` });
    await tab.next("text_delta");

    const from = script.frames.length;
    expect((await api(`/api/tokens/${tokenId}`, { method: "DELETE", headers: session.headers })).status).toBe(204);
    await expectRevoked(script, from);
    const done = await tab.next("response_complete");
    expect(done.termination_reason).toBe("user_cancelled");
    expect(tab.closed).toBe(false);
    tab.close();
  });

  it("reaches a socket of another conversation of the same session", async () => {
    const session = await signup();
    const first = await createConversation(session);
    const second = await createConversation(session);
    const a = await connect(session, first.id);
    const b = await connect(session, second.id);
    const [fromA, fromB] = [a.frames.length, b.frames.length];
    expect((await api("/api/auth/logout", { method: "POST", headers: session.headers })).status).toBe(204);
    await expectRevoked(a, fromA);
    await expectRevoked(b, fromB);
  });
});
