// Seed 000 user stories 1, 3 and 4 end to end: the real loop, the bus and the shipped subscribers,
// against the fake OpenAI server. What matters is what the model reads in its next request.
import { describe, expect, it } from "vitest";
import type { Message, SystemMessage } from "../../protocol";
import { modelRequests } from "../support/fake-openai-client";
import { api } from "./helpers";
import { chat, history, llmUrl, requestText, scenario } from "./turn-helpers";

const read = (path: string) => ({ name: "vault_read", arguments: { path } });
const notifications = (messages: Message[]) =>
  messages.filter((m): m is SystemMessage => m.role === "system" && m.item.kind === "notification");
const bySubscriber = (messages: Message[], id: string) =>
  notifications(messages).filter((m) => m.item.kind === "notification" && m.item.subscriber === id);

describe("tool failure notifications (US1)", () => {
  it("names a failing tool in the model's very next request", async () => {
    const s = await scenario([{ tool_calls: [read("nope.md")] }, { text: "That note is missing." }]);
    await chat(s, "read nope");
    const [failure] = bySubscriber(await history(s), "tool_failure");
    expect(failure).toMatchObject({ role: "system", source: "Tool Executor", severity: "error" });
    expect(failure?.item.body).toContain("vault_read");
    expect(failure?.item.body).toContain("No note at nope.md");
    const [, next] = await modelRequests(llmUrl, s.key);
    expect(requestText(next?.body ?? {})).toContain("No note at nope.md");
    // Placed after the tool results, before the next request: seq order is tool, then notification.
    const messages = await history(s);
    const tool = messages.find((m) => m.role === "tool");
    expect((failure?.seq ?? 0) > (tool?.seq ?? 0)).toBe(true);
  });

  it("batches several failures of one step into one notification with every detail", async () => {
    const s = await scenario([
      { tool_calls: [read("a.md"), read("b.md"), { name: "teleport", arguments: {} }] },
      { text: "ok" },
    ]);
    await chat(s, "read three");
    const failures = bySubscriber(await history(s), "tool_failure");
    expect(failures).toHaveLength(1);
    const item = failures[0]?.item;
    expect(item?.kind === "notification" && Array.isArray(item.data) && item.data).toHaveLength(3);
    for (const detail of ["No note at a.md", "No note at b.md", "teleport"]) expect(item?.body).toContain(detail);
    expect(item?.kind === "notification" && item.format).toBe("toon");
  });

  it("collapses three identical failures into one count: 'vault_read failed 3 times'", async () => {
    const s = await scenario([
      { tool_calls: [read("x.md"), read("x.md"), read("x.md")] },
      { text: "It keeps failing." },
    ]);
    await chat(s, "read x thrice");
    const failures = bySubscriber(await history(s), "tool_failure");
    expect(failures).toHaveLength(1);
    expect(failures[0]?.item.kind === "notification" && failures[0].item.message).toBe("vault_read failed 3 times");
    expect(failures[0]?.item.kind === "notification" && failures[0].item.data).toMatchObject({
      tool: "vault_read",
      count: 3,
    });
    const requests = await modelRequests(llmUrl, s.key);
    expect(requestText(requests[1]?.body ?? {})).toContain("vault_read failed 3 times");
  });
});

describe("repeated failures across steps (US1 AS3)", () => {
  it("counts identical failures within 5 s across steps, each delivered before the next request", async () => {
    const s = await scenario([
      { tool_calls: [read("x.md")] },
      { tool_calls: [read("x.md")] },
      { tool_calls: [read("x.md")] },
      { text: "stop" },
    ]);
    await chat(s, "keep reading x");
    const messages = await history(s);
    const headlines = bySubscriber(messages, "tool_failure").map(
      (m) => m.item.kind === "notification" && m.item.message,
    );
    expect(headlines).toEqual(["vault_read failed", "vault_read failed 2 times", "vault_read failed 3 times"]);
    const requests = await modelRequests(llmUrl, s.key);
    expect(requestText(requests[1]?.body ?? {})).toContain("vault_read failed");
    expect(requestText(requests[3]?.body ?? {})).toContain("vault_read failed 3 times");
  });
});

describe("budget notifications (US3)", () => {
  it("batches simultaneous budget warnings into one status notification", async () => {
    const usage = { prompt_tokens: 900, completion_tokens: 100 };
    const list = (prefix: string) => ({ tool_calls: [{ name: "vault_list", arguments: { prefix } }], usage });
    // maxIterations 4 warns at step 2, and 1,000 tokens after step 1 are 83% of a 1,200 budget: both at once.
    const s = await scenario([list("a"), list("b"), list("c"), { text: "done", usage }], {
      maxIterations: 4,
      tokenBudget: 1200,
    });
    await chat(s, "spend");
    const warnings = bySubscriber(await history(s), "budget_warning");
    expect(warnings).toHaveLength(1);
    const data = warnings[0]?.item.kind === "notification" ? warnings[0].item.data : undefined;
    expect(Array.isArray(data) && data.map((row: { budget: string }) => row.budget).sort()).toEqual([
      "iterations",
      "tokens",
    ]);
    expect(warnings[0]).toMatchObject({ source: "Budget Monitor", severity: "warning" });
  });

  it("delivers budget exceeded at once as a critical notification", async () => {
    const s = await scenario(
      [{ tool_calls: [{ name: "vault_list", arguments: {} }], usage: { prompt_tokens: 1500, completion_tokens: 10 } }],
      {
        tokenBudget: 1000,
      },
    );
    await chat(s, "spend it all");
    const messages = await history(s);
    const [exceeded] = bySubscriber(messages, "budget_exceeded");
    expect(exceeded?.item.kind === "notification" && exceeded.item.priority).toBe("critical");
    const final = messages.findLast((m) => m.role === "agent");
    expect((exceeded?.seq ?? 0) < (final?.seq ?? 0)).toBe(true);
  });
});

describe("loop detection notifications (US4)", () => {
  it("tells the agent and the user which pattern it saw", async () => {
    const same = { tool_calls: [{ name: "vault_list", arguments: { prefix: "loop" } }] };
    const s = await scenario([same, same, { text: "I'll stop repeating." }]);
    await chat(s, "loop");
    const [loop] = bySubscriber(await history(s), "loop_detected");
    expect(loop).toMatchObject({ source: "Loop Detector" });
    expect(loop?.item.body).toMatch(/vault_list 2 times in a row with the same arguments/);
    const requests = await modelRequests(llmUrl, s.key);
    expect(requestText(requests[2]?.body ?? {})).toContain("same arguments");
  });
});

describe("injection points", () => {
  it("delivers turn_end notifications before response_complete, and turn_start ones before the step's request", async () => {
    const s = await scenario([{ text: "hi" }]);
    const on = await api("/api/subscribers/turn_summary", {
      method: "PUT",
      json: { enabled: true },
      headers: s.session.headers,
    });
    expect(on.status).toBe(200);
    const { frames } = await chat(s, "hello");
    const summaryIndex = frames.findIndex(
      (f) =>
        f.type === "message" &&
        f.message.role === "system" &&
        f.message.item.kind === "notification" &&
        f.message.item.subscriber === "turn_summary",
    );
    expect(summaryIndex).toBeGreaterThan(-1);
    expect(summaryIndex).toBeLessThan(frames.findIndex((f) => f.type === "response_complete"));
  });
});
