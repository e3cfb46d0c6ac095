// A notify answered 202 is never lost (docs/protocol.md "Conversations"): the trigger is in the object's
// storage before the 202, leaves it only once its notification is in the log, and an object that
// restarts delivers what the dead one accepted, exactly once. (The real crash, a killed `wrangler
// dev`, is test/e2e/notify-crash.test.ts.)
import { runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { BusEvent, Message } from "../../protocol";
import { marker } from "../support/fake-openai-client";
import { api, connect, stubOf } from "./helpers";
import { chat, history, scenario } from "./turn-helpers";

async function inbox(id: string): Promise<string[]> {
  return runInDurableObject(stubOf(id), async (_i, state) => [
    ...(await state.storage.list({ prefix: "notify:" })).keys(),
  ]);
}

const externals = (messages: Message[]) =>
  messages.flatMap((m) =>
    m.role === "system" && m.source === "External" && m.item.kind === "notification" ? [m.item] : [],
  );

describe("durable notify", () => {
  it("keeps a trigger accepted mid-turn in storage until its notification is in the log", async () => {
    const s = await scenario([
      { text: "Looking.", tool_calls: [{ name: "vault_list", arguments: {} }], delay_ms: 400 },
      { text: "Done." },
    ]);
    const from = s.socket.frames.length;
    s.socket.send({ type: "chat", content: `go ${marker(s.key)}` });
    await s.socket.next("agent_update", (f) => f.update_type === "agent_start", { from });
    const res = await api(`/api/conversations/${s.conversationId}/notify`, {
      method: "POST",
      json: { message: "Build 7 failed" },
      headers: s.session.headers,
    });
    expect(res.status).toBe(202);
    // Accepted, not yet delivered (the turn has not reached an injection point): it is in storage.
    const waiting = await inbox(s.conversationId);
    expect(waiting).toHaveLength(1);
    await s.socket.next("response_complete", () => true, { from });

    const delivered = externals(await history(s));
    expect(delivered).toHaveLength(1);
    expect(delivered[0]?.body).toContain("Build 7 failed");
    expect(delivered[0]?.trigger_ids).toEqual([waiting[0]?.slice("notify:".length)]);
    expect(await inbox(s.conversationId)).toEqual([]);
  });

  it("delivers what a dead instance accepted once, and never again what its log already holds", async () => {
    const s = await scenario([{ text: "Seen them." }]);
    const res = await api(`/api/conversations/${s.conversationId}/notify`, {
      method: "POST",
      json: { message: "first trigger" },
      headers: s.session.headers,
    });
    expect(res.status).toBe(202);
    await s.socket.next("message", (f) => f.message.role === "system");
    const [first] = externals(await history(s));
    const firstId = first?.trigger_ids?.[0] ?? "";
    expect(firstId).not.toBe("");

    // What a dying instance can leave behind: the first trigger delivered but not yet removed, and
    // a second one accepted (202) but not yet delivered.
    const second: BusEvent = {
      id: "trigger-2",
      type: "external.notify",
      ts: new Date().toISOString(),
      source: "External",
      severity: "info",
      payload: { message: "second trigger" },
    };
    await runInDurableObject(stubOf(s.conversationId), async (instance, state) => {
      await state.storage.put(`notify:${firstId}`, { ...second, id: firstId, payload: { message: "first trigger" } });
      await state.storage.put("notify:trigger-2", second);
      Object.assign(instance, { conversation: undefined }); // a fresh instance: the opened conversation forgotten
    });
    s.socket.close();

    s.socket = await connect(s.session, s.conversationId);
    const after = externals(await history(s));
    expect(after.map((i) => i.body.split("\n")[0])).toEqual([
      "[Notification: External notifications] first trigger",
      "[Notification: External notifications] second trigger",
    ]);
    expect(await inbox(s.conversationId)).toEqual([]);
    // And the model reads each once.
    await chat(s, "what happened?");
    expect(externals(await history(s))).toHaveLength(2);
  });
});
