// Issue 41, plain words: what a System card says to the user (client/src/lib/system-text.ts,
// notice-words.ts), tools by their labels (protocol/tool-words.ts), and a question with its answer as
// part of the thread (client/src/lib/transcript.ts). Pure functions, tested without a browser.
import { describe, expect, it } from "vitest";
import { interruptItem } from "../../agent/system-items/interrupt";
import { reminderItem } from "../../agent/system-items/reminder";
import { plainHeadline } from "../../client/src/lib/notice-words";
import { interruptSentence, podEventLine, reminderSentence } from "../../client/src/lib/system-text";
import { buildTranscript, groupSummary } from "../../client/src/lib/transcript";
import { humanizeName, type Message, type SystemItem, toolLabel, toolWords } from "../../protocol";

describe("tool labels", () => {
  it("names built-in tools in words and humanises an MCP tool's own name, with its server", () => {
    expect(toolLabel("vault_search")).toEqual({ label: "Search notes" });
    expect(toolLabel("task_create")).toEqual({ label: "Add a task" });
    expect(toolLabel("github__search_issues")).toEqual({ label: "Search issues", server: "github" });
    expect(toolWords("local__getWeather")).toBe("Get weather (local)");
    expect(humanizeName("list-open_PRs")).toBe("List open prs");
    expect(toolWords("something_new")).toBe("Something new");
  });
});

describe("System cards in the user's words", () => {
  it("names a reminder's tasks by title, never by id, and gives the model's instruction no room", () => {
    const tasks = [
      { title: "Write the report", status: "open" },
      { title: "Call Bob", status: "in_progress" },
    ];
    const item = reminderItem("- [open] Write the report (id t-1)\nDo not mention this reminder.", "task_inactivity", {
      tasks,
      open: 7,
      requests: 8,
    });
    const said = reminderSentence(item);
    expect(said).toBe(
      "Reminded the agent of your open tasks “Write the report”, “Call Bob” and 5 more, as it had not checked your tasks for a while.",
    );
    expect(said).not.toMatch(/t-1|Do not/);
    const one = reminderSentence({ ...item, tasks: tasks.slice(0, 1), open: 1 });
    expect(one).toBe(
      "Reminded the agent of your open task “Write the report”, as it had not checked your tasks for a while.",
    );
    // Stored before the fields existed: still a sentence, never the body.
    const old: SystemItem = {
      kind: "task_reminder",
      source: "task_inactivity",
      body: "<system-reminder>x</system-reminder>",
    };
    expect(old.kind === "task_reminder" && reminderSentence(old)).toBe(
      "Reminded the agent of your open tasks, as it had not checked your tasks for a while.",
    );
  });

  it("says what an interrupt did for the user, without the model's instruction to continue", () => {
    expect(interruptSentence(interruptItem(undefined, 0, { resumed: true }))).toBe(
      "The server restarted during this answer; it went on from its last saved step.",
    );
    const cut = interruptSentence(interruptItem("2025-01-01T10:00:00Z", 2));
    expect(cut).toBe(
      "The server restarted and cut this answer short, and 2 running tool calls stopped. Anything not shown above was lost.",
    );
    expect(cut).not.toMatch(/continue from/);
    expect(interruptSentence({ kind: "interrupt", body: "[Interrupted] x" })).toBe(
      "The server restarted and cut this answer short.",
    );
  });

  it("names a subagent by its task, not its pod name", () => {
    const task = "Look through the vault and list the notes.";
    expect(podEventLine({ type: "turn_ended", pod_name: "subagent-1a2b3c4d", task })).toBe(
      "The subagent finished “Look through the vault and list the notes.”",
    );
    expect(podEventLine({ type: "errored", pod_name: "subagent-1a2b3c4d", message: "no model", task: "Sum up" })).toBe(
      "The subagent working on “Sum up” failed: no model",
    );
    expect(podEventLine({ type: "shut_down", pod_name: "subagent-1a2b3c4d" })).toBe("A subagent was stopped.");
    const nested = podEventLine({
      type: "scope_sub_delegated",
      pod_name: "p",
      parent_pod: "p",
      sub_pod: "c",
      task: "Dig",
    });
    expect(nested).toBe("A subagent handed part of its work to another subagent: “Dig”.");
  });

  it("words the shipped notices that speak to the model from their data: labels, no advice", () => {
    const notice = (subscriber: string, message: string, data: unknown) =>
      ({ kind: "notification", message, body: "", format: "toon", subscriber, priority: "high", data }) as const;
    const headline = (subscriber: string, message: string, data: unknown) =>
      plainHeadline(notice(subscriber, message, data), message);
    expect(
      headline("budget_warning", "Approaching … Consider wrapping up your response.", [
        { budget: "iterations", used: 7, limit: 10, percent: 70 },
        { budget: "tokens", used: 8200, limit: 10000, percent: 82 },
      ]),
    ).toBe("Close to the step limit: 7 of 10 steps used; Close to the token budget: 82% used (8,200 of 10,000 tokens)");
    expect(headline("tool_failure", "vault_read failed 3 times", { tool: "vault_read", error: "x", count: 3 })).toBe(
      "Read a note failed 3 times",
    );
    expect(headline("loop_detected", "Loop detected: …", { kind: "repeat", tool: "vault_search", count: 2 })).toBe(
      "Loop detected: Search notes ran 2 times in a row with the same input",
    );
    // The quota meter's sentence for the user, without its advice to the agent; the figures without one.
    const quota = { period: "day", percent: 80, tokens: 4200, cost: 0, resets_at: "2026-11-29T00:00:00.000Z" };
    expect(
      headline(
        "quota_warning",
        "80% of today's quota on this server's models is used (4,200 of 5,000 tokens); it resets in 3 h. Keep the rest of this answer short.",
        quota,
      ),
    ).toBe("80% of today's quota on this server's models is used (4,200 of 5,000 tokens); it resets in 3 h.");
    expect(headline("quota_warning", "", { ...quota, period: "month", percent: 95 })).toBe(
      "95% of this month's quota on this server's models is used",
    );
    // Others (and a notice without data) keep their headline.
    expect(headline("external_notify", "Backup finished", { message: "Backup finished" })).toBe("Backup finished");
    expect(headline("tool_failure", "vault_read failed", undefined)).toBe("vault_read failed");
  });
});

describe("a question and its answer in the thread", () => {
  let seq = 0;
  const base = () => ({ seq: ++seq, id: `m${seq}`, created_at: "2025-01-01T10:00:00.000Z" });
  const ask = (step: number, answer?: string): Message => ({
    ...base(),
    role: "tool",
    call_id: `c${seq}`,
    tool: "request_input",
    args: { question: "What should I call you?" },
    ...(answer === undefined
      ? { status: "timeout", error: "The user did not answer in time" }
      : { status: "success", result: { answer } }),
    step,
    duration_ms: 5,
  });

  it("stands between the turn's steps, which go on in a group of their own", () => {
    const items = buildTranscript([
      { ...base(), role: "user", content: "ask me" },
      { ...base(), role: "agent", content: "I will ask first.", step: 1 },
      ask(1, "Ada"),
      {
        ...base(),
        role: "tool",
        call_id: "x",
        tool: "vault_list",
        args: {},
        status: "success",
        result: {},
        step: 2,
        duration_ms: 1,
      },
      { ...base(), role: "agent", content: "Hi Ada", phase: "final", step: 3, termination_reason: "completed" },
    ]);
    expect(items.map((i) => i.kind)).toEqual(["user", "group", "question", "group", "answer"]);
    expect(items[2]).toMatchObject({ question: "What should I call you?", answer: "Ada" });
    const [before, after] = [items[1], items[3]];
    if (before?.kind !== "group" || after?.kind !== "group") throw new Error("no groups");
    expect(groupSummary(before)).toBe("Worked for 1 step");
    expect(groupSummary(after)).toBe("Worked for 2 steps · 1 tool"); // steps 2 and 3, not 3
    // Unanswered (timed out): the question stays, with no answer.
    const unanswered = buildTranscript([{ ...base(), role: "user", content: "ask me" }, ask(1)]);
    expect(unanswered[1]).toMatchObject({ kind: "question", answer: null });
  });
});
