// Revocation reaches open sockets (docs/protocol.md "Identity"): after logout or DELETE /api/tokens/:id, a
// socket opened with that session or token gets `unauthorized` on its next frame and is closed (4401),
// and no turn runs on its behalf.
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
  it("closes a socket after its session logs out, before any turn runs", async () => {
    const session = await signup();
    const { id } = await createConversation(session);
    const key = uniqueName("revoked");
    await scriptModel(llmUrl, key, [{ text: "must never be asked" }]);
    const socket = await connect(session, id);

    expect((await api("/api/auth/logout", { method: "POST", headers: session.headers })).status).toBe(204);
    const from = socket.frames.length;
    socket.send({ type: "chat", content: `hello ${marker(key)}` });
    await expectRevoked(socket, from);

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

  it("closes a socket opened with an API token once the token is deleted", async () => {
    const session = await signup();
    const { id } = await createConversation(session);
    const { id: tokenId, token } = await newToken(session.headers);
    const key = uniqueName("token");
    await scriptModel(llmUrl, key, [{ text: "must never be asked" }]);
    const socket = await connect({ headers: { Authorization: `Bearer ${token}` } }, id);
    // The token works until it is deleted.
    socket.send({ type: "resume", after_seq: 0 });
    expect((await api(`/api/tokens/${tokenId}`, { method: "DELETE", headers: session.headers })).status).toBe(204);

    const from = socket.frames.length;
    socket.send({ type: "chat", content: `hello ${marker(key)}` });
    await expectRevoked(socket, from);
    expect(await modelRequests(llmUrl, key)).toHaveLength(0);
    expect(await messageCount(session.headers, id)).toBe(0);
  });

  it("closes a revoked socket when another tab acts, and stops a turn the revoked token started", async () => {
    const session = await signup();
    const { id } = await createConversation(session);
    const { id: tokenId, token } = await newToken(session.headers);
    const key = uniqueName("stop-on-revoke");
    await scriptModel(llmUrl, key, [{ text: "thinking very slowly", hang: true }]);
    const script = await connect({ headers: { Authorization: `Bearer ${token}` } }, id);
    const tab = await connect(session, id);
    script.send({ type: "chat", content: `long task ${marker(key)}` });
    await tab.next("text_delta");

    expect((await api(`/api/tokens/${tokenId}`, { method: "DELETE", headers: session.headers })).status).toBe(204);
    // The signed-in tab sends any frame: every socket's credential is checked again.
    const from = script.frames.length;
    tab.send({ type: "resume", after_seq: 0 });
    await expectRevoked(script, from);
    const done = await tab.next("response_complete");
    expect(done.termination_reason).toBe("user_cancelled");
    expect(tab.closed).toBe(false);
    tab.close();
  });
});
