// Interrupts (seed 002): a turn cut short by a restart of the object is found from the running-turn
// marker; its open tool calls get a cancelled result, an interrupt item explains it, and `hello`
// never reports the dead turn as running. The marker below is what a dying instance leaves behind.

import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import {
  type LegacyMarker,
  RUNNING_TURN_KEY,
  TurnMarkerStore,
  type TurnRecord,
} from "../../durable-objects/conversation/turn/turn-marker";
import { modelRequests } from "../support/fake-openai-client";
import { api, connect, createConversation, signup } from "./helpers";
import { chat, history, llmUrl, scenario } from "./turn-helpers";

describe("interrupted turns", () => {
  it("closes the open calls, inserts an interrupt item, and the next turn's history stays valid", async () => {
    const session = await signup();
    const { id } = await createConversation(session);
    const stub = env.CONVERSATION.get(env.CONVERSATION.idFromName(id));
    const marker: LegacyMarker = {
      started_at: "2026-11-22T10:00:00.000Z",
      calls: { "call-1": { tool: "vault_search", args: { query: "plans" }, step: 1 } },
    };
    await runInDurableObject(stub, async (_instance, state) => {
      await state.storage.put(RUNNING_TURN_KEY, marker);
    });

    const socket = await connect(session, id);
    expect(socket.frames[0]).toMatchObject({ type: "hello", running: false });
    const res = await api(`/api/conversations/${id}`, { headers: session.headers });
    expect(await res.json()).toMatchObject({ running: false });
    const messages = (await (await api(`/api/conversations/${id}/messages`, { headers: session.headers })).json()) as {
      messages: { role: string; status?: string; call_id?: string; item?: { kind: string; body: string } }[];
    };
    expect(messages.messages[0]).toMatchObject({ role: "tool", call_id: "call-1", status: "error" });
    expect(messages.messages[1]?.item?.kind).toBe("interrupt");
    expect(messages.messages[1]?.item?.body).toContain("cut short");
    expect(messages.messages[1]?.item?.body).toContain("1 tool call was cancelled");
    socket.close();
  });

  it("lets the model see the interrupt and the cancelled call in order", async () => {
    const s = await scenario([{ text: "Picking up where we left off." }]);
    const stub = env.CONVERSATION.get(env.CONVERSATION.idFromName(s.conversationId));
    // The user's message of the dead turn is persisted first, like a real turn does.
    await chat(s, "first");
    await runInDurableObject(stub, async (instance, state) => {
      await state.storage.put(RUNNING_TURN_KEY, {
        started_at: new Date().toISOString(),
        calls: { c9: { tool: "vault_list", args: {}, step: 1 } },
      });
      // A fresh instance: forget the loaded log so the next event opens the object again.
      Object.assign(instance, { conversation: undefined }); // a fresh instance: the opened conversation forgotten
    });
    await chat(s, "are you there?");
    const requests = await modelRequests(llmUrl, s.key);
    const roles = ((requests.at(-1)?.body.messages ?? []) as { role: string; content: unknown }[]).map((m) => m.role);
    const toolAt = roles.indexOf("tool");
    expect(roles[toolAt - 1]).toBe("assistant");
    const texts = JSON.stringify(requests.at(-1)?.body.messages);
    expect(texts.indexOf("[Interrupted]")).toBeLessThan(texts.indexOf("are you there?"));
    expect((await history(s)).filter((m) => m.role === "system" && m.item.kind === "interrupt")).toHaveLength(1);
  });
});

describe("the running-turn record", () => {
  it("keeps each step's calls, recorded before they run, and is gone when the turn ends", async () => {
    const stub = env.CONVERSATION.get(env.CONVERSATION.idFromName(`marker-${crypto.randomUUID()}`));
    await runInDurableObject(stub, async (_instance, state) => {
      const marker = new TurnMarkerStore(state.storage);
      const begun = await marker.begin({ kind: "user", options: { agent_max_steps: 3 } });
      const progress = {
        step: 1,
        input_tokens: 10,
        output_tokens: 2,
        elapsed_ms: 1200,
        warned: [],
        loop_warnings: [],
        consecutive_errors: 0,
        discarded_subagents: 0,
      };
      marker.checkpoint({
        progress,
        calls: [
          { call_id: "w1", tool: "vault_write", args: { path: "a.md" }, step: 1 },
          { call_id: "r1", tool: "vault_read", args: { path: "a.md" }, step: 1 },
        ],
      });
      // A restart now finds both calls of the step (recovery looks for their results in the log).
      const stored = (await marker.stored()) as TurnRecord;
      expect(stored.turn_id).toBe(begun.turn_id);
      expect(stored.calls.map((c) => c.call_id)).toEqual(["w1", "r1"]);
      expect(stored.progress).toEqual(progress);
      // The next model request's checkpoint: the step's calls all have results.
      marker.checkpoint({ progress: { ...progress, step: 1 }, calls: [] });
      expect(((await marker.stored()) as TurnRecord).calls).toEqual([]);
      marker.stopRequested();
      expect(((await marker.stored()) as TurnRecord).stop_requested).toBe(true);
      await marker.end();
      expect(await marker.stored()).toBeUndefined();
    });
  });
});
