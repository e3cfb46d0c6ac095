// Seed 000 US1 AS1: a tool that times out reaches the model in its next request as a notification
// with the tool's name, the error type and the time. The tool here is the real vault_search made
// slow for this test only: the timeout path is the executor's and the bus's, not the tool's.
import { afterEach, describe, expect, it } from "vitest";
import { BUILTIN_TOOLS } from "../../agent/tools";
import type { AgentTool } from "../../agent/tools/tool";
import type { SystemMessage } from "../../protocol";
import { modelRequests } from "../support/fake-openai-client";
import { chat, history, llmUrl, requestText, scenario } from "./turn-helpers";

const search = BUILTIN_TOOLS.find((t) => t.name === "vault_search") as AgentTool;
const original = { execute: search.execute, timeoutMs: search.timeoutMs };
afterEach(() => Object.assign(search, original));

describe("tool timeout notification (US1)", () => {
  it("names the tool, the error type and the time in the next request", async () => {
    Object.assign(search, { timeoutMs: 50, execute: () => new Promise(() => {}) });
    const s = await scenario([
      { tool_calls: [{ name: "vault_search", arguments: { query: "slow" } }] },
      { text: "The search timed out." },
    ]);
    const { frames } = await chat(s, "search slowly");
    expect(frames.find((f) => f.type === "tool_error")).toMatchObject({ tool: "vault_search", error_type: "timeout" });
    const failure = (await history(s)).find(
      (m): m is SystemMessage =>
        m.role === "system" && m.item.kind === "notification" && m.item.subscriber === "tool_failure",
    );
    expect(failure?.item.kind === "notification" && failure.item.message).toBe("vault_search timed out");
    expect(failure?.item.kind === "notification" && failure.item.data).toMatchObject({
      tool: "vault_search",
      error_type: "timeout",
      at: expect.stringMatching(/^\d\d:\d\d:\d\d$/),
    });
    const [, next] = await modelRequests(llmUrl, s.key);
    const sent = requestText(next?.body ?? {});
    expect(sent).toContain("vault_search timed out");
    expect(sent).toContain("timeout");
  });
});
