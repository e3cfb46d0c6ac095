// Issue 10 (hardening): every API response, errors included, says nosniff (hono's secureHeaders), and
// a WebSocket upgrade, whose 101 the middleware must leave alone, still opens.
import { describe, expect, it } from "vitest";
import { api, connect, createConversation, signup } from "./helpers";

describe("API security headers", () => {
  it("marks success, not-found, refused and unauthenticated responses nosniff", async () => {
    const session = await signup();
    const responses = [
      await api("/api/health"),
      await api("/api/no-such-route"),
      await api("/api/me"),
      await api("/api/conversations", { method: "POST", json: { bogus: 1 }, headers: session.headers }),
    ];
    expect(responses.map((r) => r.status)).toEqual([200, 404, 401, 400]);
    for (const res of responses) {
      expect(res.headers.get("Content-Type")).toContain("application/json");
      expect(res.headers.get("X-Content-Type-Options")).toBe("nosniff");
    }
  });

  it("still upgrades a conversation's socket", async () => {
    const session = await signup();
    const { id } = await createConversation(session);
    const socket = await connect(session, id);
    expect(socket.frames[0]).toMatchObject({ type: "hello", conversation_id: id });
    socket.close();
  });
});
