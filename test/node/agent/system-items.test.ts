// Seed 002's own test cases, ported: the model sees each item's stored body verbatim; reminders wrap
// exactly once; a task reminder persisted without a source reads as task_inactivity; items survive
// a JSON round trip; pod events render as the seed's one-liners.
import { describe, expect, it } from "vitest";
import { toModelMessages } from "../../../agent/context/model-messages";
import { podEventItem, renderPodEvent } from "../../../agent/system-items/pod-event";
import { normalizeReminderBody, reminderItem, renderReminder } from "../../../agent/system-items/reminder";
import { historyText, type SystemItem, SystemItemSchema } from "../../../protocol";

const systemMessage = (item: SystemItem) => ({
  seq: 1,
  id: "1",
  created_at: "2026-01-01T00:00:00Z",
  role: "system" as const,
  source: "Test",
  severity: "info" as const,
  item,
});

describe("SystemItem", () => {
  it("gives the model the stored body verbatim for every kind", () => {
    const items: SystemItem[] = [
      {
        kind: "notification",
        message: "child done",
        body: "[Notification]\nchild done\n\n(non-blocking hint…)",
        format: "text",
        priority: "normal",
      },
      {
        kind: "pod_event",
        event: { type: "turn_ended", pod_name: "child" },
        body: "[Notification]\npod `child` finished a turn\n\n(non-blocking hint…)",
      },
      { kind: "file_attachment", path: "src/main.rs", body: "[File: src/main.rs]\nfn main() {}" },
      { kind: "knowledge", slug: "style", body: "[Knowledge: style] Style\nShort." },
      { kind: "workflow", slug: "plan", body: "[Workflow: /plan] Plan\nMake a plan." },
      {
        kind: "task_reminder",
        source: "task_inactivity",
        body: "<system-reminder>\nremember tasks\n</system-reminder>",
      },
      { kind: "interrupt", body: "[Interrupted] cut short" },
    ];
    for (const item of items) {
      expect(historyText(item)).toBe(item.body);
      expect(toModelMessages([systemMessage(item)])).toEqual([{ role: "system", content: item.body }]);
    }
    expect(historyText(items[1] as SystemItem).startsWith("[Notification]\n")).toBe(true);
    expect(historyText(items[1] as SystemItem)).toContain("`child`");
  });

  it("renders a reminder body wrapped exactly once, also when it arrives wrapped", () => {
    expect(renderReminder("remember tasks")).toBe("<system-reminder>\nremember tasks\n</system-reminder>");
    const wrapped = "<system-reminder>\nremember tasks\n</system-reminder>";
    expect(normalizeReminderBody(wrapped)).toBe("remember tasks");
    expect(reminderItem(wrapped).body).toBe(wrapped);
    expect(reminderItem("remember tasks")).toEqual({ kind: "task_reminder", source: "task_inactivity", body: wrapped });
  });

  it("reads a persisted task reminder without a source as task_inactivity (legacy default)", () => {
    const parsed = SystemItemSchema.parse({
      kind: "task_reminder",
      body: "<system-reminder>\nbody\n</system-reminder>",
    });
    expect(parsed).toEqual({
      kind: "task_reminder",
      source: "task_inactivity",
      body: "<system-reminder>\nbody\n</system-reminder>",
    });
  });

  it("round-trips through JSON", () => {
    const file: SystemItem = {
      kind: "file_attachment",
      path: "src/main.rs",
      body: "[File: src/main.rs]\nfn main() {}",
    };
    expect(SystemItemSchema.parse(JSON.parse(JSON.stringify(file)))).toEqual(file);
    const pod: SystemItem = {
      kind: "pod_event",
      event: { type: "turn_ended", pod_name: "child" },
      body: "[Notification] pod `child` finished a turn",
    };
    const back = SystemItemSchema.parse(JSON.parse(JSON.stringify(pod)));
    expect(back).toEqual(pod);
    expect(back.kind === "pod_event" && back.event.pod_name).toBe("child");
  });

  it("renders pod events as one line, shared by persistence and broadcast", () => {
    expect(renderPodEvent({ type: "turn_ended", pod_name: "child" })).toBe("pod `child` finished a turn");
    expect(renderPodEvent({ type: "errored", pod_name: "child", message: "boom" })).toBe("pod `child` errored: boom");
    expect(renderPodEvent({ type: "shut_down", pod_name: "child" })).toBe("pod `child` shut down");
    expect(renderPodEvent({ type: "scope_sub_delegated", pod_name: "p", parent_pod: "p", sub_pod: "c" })).toBe(
      "pod `p` sub-delegated scope to `c`",
    );
    expect(podEventItem({ type: "shut_down", pod_name: "x" }).body).toBe("[Notification]\npod `x` shut down");
  });

  it("refuses an unknown kind", () => {
    expect(SystemItemSchema.safeParse({ kind: "forged", body: "obey" }).success).toBe(false);
  });
});
