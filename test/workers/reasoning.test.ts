// A reasoning model's thinking, through the real Worker and the fake OpenAI server speaking Chat
// Completions with `reasoning_content` deltas (as llama.cpp, vLLM, DeepSeek and Qwen servers do): it
// streams to every tab, is kept on the step's message (a step that only called tools included), is
// counted in usage, and replays with the same bytes after a restart. The product's own words (a stop's
// note, a failed call's explanation) are kept apart from the model's and never replayed as its words.
import { evictDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { AgentMessage, Message } from "../../protocol";
import { modelRequests, scriptModel } from "../support/fake-openai-client";
import { api } from "./helpers";
import { chat, finalMessage, history, llmUrl, scenario } from "./turn-helpers";

const agentMessages = (messages: Message[]) => messages.filter((m): m is AgentMessage => m.role === "agent");
type ChatMessage = { role: string; content?: unknown; reasoning_content?: unknown };
const requestMessages = async (key: string) =>
  (await modelRequests(llmUrl, key)).filter((r) => !r.compaction).map((r) => r.body.messages as ChatMessage[]);

describe("reasoning", () => {
  it("streams, keeps and counts a tools-only step's and the answer's reasoning", async () => {
    const s = await scenario([
      { reasoning: ["The user wants ", "their tasks."], tool_calls: [{ name: "task_list", arguments: {} }] },
      { reasoning: ["None are open."], text: "You have no open tasks." },
    ]);
    const { done, frames } = await chat(s, "my tasks?");
    expect(done.termination_reason).toBe("completed");

    const deltas = frames.flatMap((f) => (f.type === "reasoning_delta" ? [f.delta] : []));
    expect(deltas.join("")).toBe("The user wants their tasks.None are open.");
    // The step's reasoning streams before its text.
    const firstText = frames.findIndex((f) => f.type === "text_delta");
    const lastReasoning = frames.findLastIndex((f) => f.type === "reasoning_delta");
    expect(lastReasoning).toBeLessThan(firstText);

    const messages = await history(s);
    const [step, answer] = agentMessages(messages);
    expect(step).toMatchObject({ content: "", step: 1, reasoning: { text: "The user wants their tasks." } });
    expect(answer).toMatchObject({ content: "You have no open tasks.", reasoning: { text: "None are open." } });
    expect(answer?.reasoning?.duration_ms).toBeGreaterThanOrEqual(0);
    expect(answer?.usage?.reasoning_tokens).toBeGreaterThan(0);
    expect(answer?.model).toMatchObject({ provider: "openai", model: "fake-model", provider_id: "default" });
    // The tool message sits between them, so the log reads as the model worked.
    expect(messages.filter((m) => m.role !== "system").map((m) => m.role)).toEqual(["user", "agent", "tool", "agent"]);
  });

  it("is not sent back by default, and every request replays with the same bytes after a restart", async () => {
    const s = await scenario([
      { reasoning: ["Thinking it over."], tool_calls: [{ name: "task_list", arguments: {} }] },
      { reasoning: ["Done thinking."], text: "First answer." },
    ]);
    await chat(s, "first");
    const before = await requestMessages(s.key);
    // The second request (after the tool) holds the step's call without its reasoning.
    expect(JSON.stringify(before[1])).not.toContain("Thinking it over.");

    const stub = env.CONVERSATION.get(env.CONVERSATION.idFromName(s.conversationId));
    await evictDurableObject(stub);
    await scriptModel(llmUrl, s.key, [{ text: "Second answer." }]);
    await chat(s, "second");
    const after = await requestMessages(s.key);
    const last = after.at(-1) ?? [];
    const previous = before.at(-1) ?? [];
    // The new request begins with everything the previous one sent (its prefix), byte for byte.
    expect(JSON.stringify(last.slice(0, previous.length))).toBe(JSON.stringify(previous));
    expect(JSON.stringify(last)).not.toContain("Done thinking.");
    expect(last.find((m) => m.role === "assistant" && m.content === "First answer.")).toBeDefined();
  });

  it("runs on the user's own model, capped by its settings, and sends its reasoning back where it asks", async () => {
    const s = await scenario([
      { reasoning: ["Plan: list them."], tool_calls: [{ name: "task_list", arguments: {} }] },
      { reasoning: ["Listed."], text: "Nothing is open." },
    ]);
    const headers = s.session.headers;
    const created = await api("/api/providers", {
      method: "POST",
      headers,
      json: {
        name: "Mine",
        base_url: `${llmUrl}/v1`,
        api_key: "user-key",
        style: "chat",
        models: [{ id: "my-model", context_window: 16_000, max_output_tokens: 500, send_reasoning: true }],
      },
    });
    expect(created.status).toBe(201);
    const provider = (await created.json()) as { id: string };
    const model = { provider_id: provider.id, model: "my-model" };
    const patched = await api(`/api/conversations/${s.conversationId}`, { method: "PATCH", headers, json: { model } });
    expect(patched.status).toBe(200);

    await chat(s, "tasks?");
    const requests = (await modelRequests(llmUrl, s.key)).filter((r) => !r.compaction);
    expect(requests.map((r) => [r.body.model, r.body.max_tokens])).toEqual([
      ["my-model", 500],
      ["my-model", 500],
    ]);
    // The step's reasoning goes back with its tool call, as reasoning_content.
    const replayed = ((requests[1]?.body.messages ?? []) as ChatMessage[]).find((m) => m.role === "assistant");
    expect(replayed?.reasoning_content).toBe("Plan: list them.");
    const answer = finalMessage(await history(s));
    expect(answer.model).toMatchObject({ provider_id: provider.id, provider_name: "Mine", model: "my-model" });
    expect(answer.model?.context_window).toBe(16_000);

    // After a restart the next request begins with the bytes of the last one, reasoning included.
    const before = requests.at(-1)?.body.messages as ChatMessage[];
    await evictDurableObject(env.CONVERSATION.get(env.CONVERSATION.idFromName(s.conversationId)));
    await scriptModel(llmUrl, s.key, [{ text: "Again." }]);
    await chat(s, "and now?");
    const after = (await requestMessages(s.key)).at(-1) ?? [];
    expect(JSON.stringify(after.slice(0, before.length))).toBe(JSON.stringify(before));
    expect(JSON.stringify(after)).toContain("Listed.");
  });

  it("keeps the product's words out of what the model reads as its own", async () => {
    const s = await scenario([{ error: { status: 401, message: "Incorrect API key provided: sk-abc." } }]);
    const { done } = await chat(s, "hello");
    expect(done.termination_reason).toBe("llm_error");
    const failed = finalMessage(await history(s));
    expect(failed.note).toBeDefined();
    expect(failed.content).toContain(failed.note);
    expect(failed.content).toContain("HTTP 401");

    await scriptModel(llmUrl, s.key, [{ text: "Hi again." }]);
    await chat(s, "try again");
    const sent = JSON.stringify((await requestMessages(s.key)).at(-1));
    expect(sent).toContain("try again");
    expect(sent).not.toContain("The model call failed");
    expect(sent).not.toContain("HTTP 401");
  });

  it("sends an output cap with every request, within the window", async () => {
    const s = await scenario([{ text: "Short." }]);
    await chat(s, "cap?");
    const [request] = await modelRequests(llmUrl, s.key);
    const cap = request?.body.max_tokens;
    expect(typeof cap).toBe("number");
    // The default: a quarter of the 128,000-token window, at most 8,192.
    expect(cap).toBe(8_192);
  });
});
