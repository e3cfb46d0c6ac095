// Task reminders (seed 002): after `taskReminderRequests` model requests without a task tool while
// tasks are open, a reminder wrapped once in <system-reminder> is persisted before the next request.
import { describe, expect, it } from "vitest";
import type { Message } from "../../protocol";
import { modelRequests } from "../support/fake-openai-client";
import { api } from "./helpers";
import { chat, history, llmUrl, requestText, scenario } from "./turn-helpers";

const list = (prefix: string) => ({ tool_calls: [{ name: "vault_list", arguments: { prefix } }] });
const reminders = (messages: Message[]) =>
  messages.filter((m) => m.role === "system" && m.item.kind === "task_reminder");

describe("task reminders", () => {
  it("reminds before the request after the threshold, once wrapped, naming the open tasks", async () => {
    const s = await scenario([list("a"), list("b"), list("c"), { text: "done" }], { taskReminderRequests: 2 });
    const created = await api("/api/tasks", {
      method: "POST",
      json: { title: "Write the report" },
      headers: s.session.headers,
    });
    expect(created.status, await created.clone().text()).toBe(201);
    await chat(s, "work");
    const messages = await history(s);
    const [reminder] = reminders(messages);
    expect(reminder).toMatchObject({ source: "Task Reminder" });
    const body = reminder?.role === "system" ? reminder.item.body : "";
    expect(body.startsWith("<system-reminder>\n")).toBe(true);
    expect(body.endsWith("\n</system-reminder>")).toBe(true);
    expect(body.match(/<system-reminder>/g)).toHaveLength(1);
    expect(body).toContain("Write the report");
    expect(reminder?.role === "system" && reminder.item.kind === "task_reminder" && reminder.item.source).toBe(
      "task_inactivity",
    );
    const requests = await modelRequests(llmUrl, s.key);
    expect(requests.map((r) => requestText(r.body).includes("Write the report"))).toEqual([false, false, true, true]);
  });

  it("stays quiet without open tasks, and counts again after a task tool is used", async () => {
    const quiet = await scenario([list("a"), list("b"), list("c"), { text: "done" }], { taskReminderRequests: 1 });
    await chat(quiet, "work");
    expect(reminders(await history(quiet))).toHaveLength(0);

    const busy = await scenario([{ tool_calls: [{ name: "task_list", arguments: {} }] }, list("a"), { text: "done" }], {
      taskReminderRequests: 2,
    });
    await api("/api/tasks", { method: "POST", json: { title: "Open one" }, headers: busy.session.headers });
    await chat(busy, "work");
    // Request 1 used task_list, so by request 3 only one request went without a task tool.
    expect(reminders(await history(busy))).toHaveLength(0);
  });
});
