// Per-user AgentConfig (docs/protocol.md "Settings").
import { describe, expect, it } from "vitest";
import { DEFAULT_AGENT_CONFIG } from "../../protocol";
import { api, signup } from "./helpers";
import { chat, scenario } from "./turn-helpers";

describe("agent settings", () => {
  it("returns the defaults until saved, then the whole saved config", async () => {
    const session = await signup();
    const initial = await api("/api/settings/agent", { headers: session.headers });
    expect(await initial.json()).toEqual(DEFAULT_AGENT_CONFIG);
    expect(DEFAULT_AGENT_CONFIG).toMatchObject({
      maxIterations: 15,
      tokenBudget: 50000,
      maxToolCallsPerTurn: 20,
      decisionTree: "default",
    });

    const saved = await api("/api/settings/agent", {
      method: "PUT",
      json: { maxIterations: 10, decisionTree: "roa" },
      headers: session.headers,
    });
    expect(await saved.json()).toEqual({ ...DEFAULT_AGENT_CONFIG, maxIterations: 10, decisionTree: "roa" });
    const again = await api("/api/settings/agent", { headers: session.headers });
    expect(await again.json()).toMatchObject({ maxIterations: 10, decisionTree: "roa" });
    // Another user is unaffected.
    const other = await signup();
    expect(await (await api("/api/settings/agent", { headers: other.headers })).json()).toEqual(DEFAULT_AGENT_CONFIG);
  });

  it("refuses a request with any bad field, names each with its range, and saves nothing", async () => {
    const session = await signup();
    const res = await api("/api/settings/agent", {
      method: "PUT",
      json: { maxIterations: 0, tokenBudget: 999999, timeoutSeconds: 60 },
      headers: session.headers,
    });
    expect(res.status).toBe(400);
    const body = (await res.json()) as { error: { fields: Record<string, string> } };
    expect(body.error.fields.maxIterations).toMatch(/1 to 50/);
    expect(body.error.fields.tokenBudget).toMatch(/1000 to 200000/);
    expect(body.error.fields.timeoutSeconds).toBeUndefined();
    const after = await api("/api/settings/agent", { headers: session.headers });
    expect(await after.json()).toEqual(DEFAULT_AGENT_CONFIG);
  });

  it("refuses unknown fields, non-integers and unregistered decision trees", async () => {
    const session = await signup();
    for (const json of [{ maxIterations: 2.5 }, { bogus: 1 }, { decisionTree: "nope" }, { maxIterations: "10" }]) {
      const res = await api("/api/settings/agent", { method: "PUT", json, headers: session.headers });
      expect(res.status, JSON.stringify(json)).toBe(400);
    }
  });

  it("applies saved limits to the next turn", async () => {
    const s = await scenario([{ tool_calls: [{ name: "vault_list", arguments: {} }] }, { text: "wrap" }], {
      maxIterations: 1,
    });
    const { done } = await chat(s, "go");
    expect(done).toMatchObject({ termination_reason: "max_iterations", steps: 1 });
  });
});
