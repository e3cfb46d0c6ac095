// Every termination reason of seed 001 FR-004, end to end: socket → loop → fake OpenAI server.
import { describe, expect, it } from "vitest";
import { modelRequests } from "../support/fake-openai-client";
import { chat, finalMessage, history, llmUrl, requestText, scenario, systemTexts } from "./turn-helpers";

const call = (name: string, args: Record<string, unknown>) => ({ tool_calls: [{ name, arguments: args }] });

describe("termination", () => {
  it("completes when the model answers without tool calls, after using a tool", async () => {
    const s = await scenario([call("vault_write", { path: "ideas.md", content: "fly" }), { text: "Saved your idea." }]);
    const { done } = await chat(s, "save an idea");
    expect(done).toMatchObject({ termination_reason: "completed", steps: 2 });
    const messages = await history(s);
    expect(messages.filter((m) => m.role !== "system").map((m) => m.role)).toEqual(["user", "tool", "agent"]);
    expect(messages[1]).toMatchObject({ tool: "vault_write", status: "success", step: 1 });
    expect(finalMessage(messages)).toMatchObject({
      content: "Saved your idea.",
      phase: "final",
      termination_reason: "completed",
    });
    // The second request carried the tool call and its result, in OpenAI's order.
    const [, second] = await modelRequests(llmUrl, s.key);
    const roles = ((second?.body.messages ?? []) as { role: string }[]).map((m) => m.role);
    const assistant = roles.indexOf("assistant");
    expect(roles.slice(assistant, assistant + 2)).toEqual(["assistant", "tool"]);
  });

  it("stops at max iterations, wraps up without tools, and explains", async () => {
    const s = await scenario([
      call("vault_list", { prefix: "a" }),
      call("vault_list", { prefix: "b" }),
      { text: "Here is what I found so far." },
    ]);
    const { done } = await chat(s, "list everything", { agent_max_steps: 2 });
    expect(done).toMatchObject({ termination_reason: "max_iterations", steps: 2 });
    const final = finalMessage(await history(s));
    expect(final.content).toContain("Here is what I found so far.");
    expect(final.content).toContain("iteration limit (2/2)");
    const requests = await modelRequests(llmUrl, s.key);
    expect(requests).toHaveLength(3);
    expect(requests[0]?.body.tools).toBeDefined();
    expect(requests[2]?.body.tools).toBeUndefined();
    expect(requestText(requests[2]?.body ?? {})).toContain("The turn has to end now");
  });

  it("stops on the token budget after the call that used it up, without another call", async () => {
    const s = await scenario([{ ...call("vault_list", {}), usage: { prompt_tokens: 900, completion_tokens: 200 } }], {
      tokenBudget: 1000,
    });
    const { done } = await chat(s, "spend tokens");
    expect(done).toMatchObject({ termination_reason: "token_budget", usage: { total_tokens: 1100 } });
    expect(await modelRequests(llmUrl, s.key)).toHaveLength(1);
    expect(finalMessage(await history(s)).content).toMatch(/token budget was used up \(1,100 of 1,000 tokens\)/);
  });

  it("detects no progress after three identical calls, warning after two", async () => {
    const same = call("vault_list", { prefix: "x" });
    const s = await scenario([same, same, same, { text: "I keep seeing the same list." }]);
    const { done } = await chat(s, "list x");
    expect(done.termination_reason).toBe("no_progress");
    const messages = await history(s);
    expect(messages.filter((m) => m.role === "tool")).toHaveLength(3);
    expect(systemTexts(messages).some((t) => t.includes("2 times in a row with the same arguments"))).toBe(true);
    const final = finalMessage(messages);
    expect(final.content).toContain("I keep seeing the same list.");
    expect(final.content).toContain("repeating myself");
  });

  it("stops after three consecutive tool errors and names the last error", async () => {
    const s = await scenario([
      call("vault_read", { path: "missing-1.md" }),
      call("vault_read", { path: "missing-2.md" }),
      call("vault_read", { path: "missing-3.md" }),
      { text: "Those notes do not exist." },
    ]);
    const { done, frames } = await chat(s, "read notes");
    expect(done.termination_reason).toBe("error_limit");
    expect(frames.filter((f) => f.type === "tool_error")).toHaveLength(3);
    const final = finalMessage(await history(s));
    expect(final.content).toContain("Those notes do not exist.");
    expect(final.content).toMatch(/3 tool errors in a row; the last one: No note at missing-3\.md/);
  });

  it("warns about the same error under different arguments before the error limit", async () => {
    const s = await scenario([call("no_such_tool", { a: 1 }), call("no_such_tool", { a: 2 }), { text: "ok" }]);
    await chat(s, "use a tool");
    const texts = systemTexts(await history(s));
    expect(texts.some((t) => t.includes("no_such_tool failed 2 times in a row with the same error"))).toBe(true);
  });

  it("warns about A-B-A-B alternation, then stops if it goes on", async () => {
    const a = call("vault_list", { prefix: "a" });
    const b = call("vault_list", { prefix: "b" });
    const s = await scenario([a, b, a, b, a, b, a, { text: "done" }]);
    const { done } = await chat(s, "alternate");
    expect(done.termination_reason).toBe("no_progress");
    const messages = await history(s);
    expect(messages.filter((m) => m.role === "tool")).toHaveLength(6);
    const warning = messages.findIndex((m) => m.role === "system" && m.item.body.includes("alternating"));
    const fifthTool = messages.filter((m) => m.role === "tool")[4];
    expect(warning).toBeGreaterThan(0);
    expect(messages[warning]?.seq).toBeLessThan(fifthTool?.seq ?? 0);
  });

  it("ends with llm_error and keeps the user's message when the model server fails", async () => {
    const s = await scenario([{ error: { status: 400, message: "bad model" } }]);
    const { done } = await chat(s, "hello");
    expect(done.termination_reason).toBe("llm_error");
    const messages = await history(s);
    expect(messages[0]).toMatchObject({ role: "user" });
    // In plain words with the status, so the user can tell the cause (here a 400), and the provider's own short reason.
    expect(finalMessage(messages).content).toMatch(/model call failed: .*refused the request \(HTTP 400\): bad model/);
  });
});
