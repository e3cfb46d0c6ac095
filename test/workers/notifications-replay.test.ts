// Seed 000 edge case and SC-008: loading history (reconnect, resume, a restarted object) shows the
// System messages as they occurred and never re-triggers a notification.

import { evictDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { connect } from "./helpers";
import { chat, history, scenario } from "./turn-helpers";

describe("history replay", () => {
  it("shows every System message once after a reconnect and a restart, adding none", async () => {
    const s = await scenario([
      { tool_calls: [{ name: "vault_read", arguments: { path: "gone.md" } }] },
      { text: "missing" },
    ]);
    await chat(s, "read gone");
    const before = await history(s);
    expect(before.filter((m) => m.role === "system").length).toBeGreaterThan(0);
    s.socket.close();
    console.log("evict start");
    await evictDurableObject(env.CONVERSATION.get(env.CONVERSATION.idFromName(s.conversationId)));

    console.log("evicted");
    const again = await connect(s.session, s.conversationId);
    console.log("connected");
    again.send({ type: "resume", after_seq: 0 });
    await again.next("message", (f) => f.message.seq === before.at(-1)?.seq);
    await new Promise((r) => setTimeout(r, 100));
    expect(again.messages()).toEqual(before);
    expect(await history(s)).toEqual(before);
    again.close();
  });
});
