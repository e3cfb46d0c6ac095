// Seed 002's core promise: every system item the model saw is replayed with the same bytes, after
// the object restarts and even after a template changed. One conversation holds every kind: an
// interrupt, a pod event, a file attachment, a knowledge entry, a workflow, notifications (a tool
// failure) and a task reminder.

import { evictDurableObject, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it } from "vitest";
import { findSubscriber } from "../../agent/notifications/subscribers";
import { podEventItem } from "../../agent/system-items/pod-event";
import { RUNNING_TURN_KEY } from "../../durable-objects/conversation/turn/turn-marker";
import type { SystemItem } from "../../protocol";
import { modelRequests, scriptModel } from "../support/fake-openai-client";
import { api, connect } from "./helpers";
import { chat, history, llmUrl, scenario } from "./turn-helpers";

const failures = findSubscriber("tool_failure");
const originalRender = failures?.render;
afterEach(() => {
  if (failures && originalRender) failures.render = originalRender;
});

describe("byte-identical replay", () => {
  it("replays a history with every kind of system item with the same bytes after a restart", async () => {
    const s = await scenario([], { taskReminderRequests: 1 });
    const stub = env.CONVERSATION.get(env.CONVERSATION.idFromName(s.conversationId));
    await api("/api/notes/plan.md", { method: "PUT", json: { content: "Ship in May." }, headers: s.session.headers });
    await api("/api/tasks", { method: "POST", json: { title: "Open task" }, headers: s.session.headers });

    // An interrupt (a dead turn found by a fresh instance) and a pod event from a child.
    s.socket.close();
    await runInDurableObject(stub, async (instance, state) => {
      await state.storage.put(RUNNING_TURN_KEY, { started_at: "2026-11-22T09:00:00.000Z", calls: {} });
      Object.assign(instance, { conversation: undefined }); // a fresh instance: the opened conversation forgotten
    });
    s.socket = await connect(s.session, s.conversationId);
    await runInDurableObject(stub, async (instance) => {
      const log = (instance as unknown as { opened: { log: { append(d: unknown): Promise<unknown> } } }).opened.log;
      const item: SystemItem = podEventItem({ type: "turn_ended", pod_name: "researcher" });
      await log.append({ role: "system", source: "Subagents", severity: "info", item });
    });

    await scriptModel(llmUrl, s.key, [
      { tool_calls: [{ name: "vault_read", arguments: { path: "nope.md" } }] },
      { text: "Done." },
    ]);
    await chat(s, "/summarize @plan.md with #oracle");
    const kinds = new Set((await history(s)).flatMap((m) => (m.role === "system" ? [m.item.kind] : [])));
    expect([...kinds].sort()).toEqual([
      "file_attachment",
      "interrupt",
      "knowledge",
      "notification",
      "pod_event",
      "task_reminder",
      "workflow",
    ]);
    const first = await modelRequests(llmUrl, s.key);
    const seen = first.at(-1)?.body.messages as unknown[];

    // Restart the object, and change how tool failures are rendered from now on.
    await evictDurableObject(stub);
    if (failures) failures.render = () => "A DIFFERENT HEADLINE";
    await scriptModel(llmUrl, s.key, [{ text: "Again." }]);
    await chat(s, "and now?");
    const replayed = (await modelRequests(llmUrl, s.key)).at(-1)?.body.messages as unknown[];

    // The earlier request's messages come back byte for byte at the start of the new one.
    expect(JSON.stringify(replayed.slice(0, seen.length))).toBe(JSON.stringify(seen));
    expect(JSON.stringify(replayed)).not.toContain("A DIFFERENT HEADLINE");
  });
});
