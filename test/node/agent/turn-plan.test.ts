// agent/turn/plan.ts: what a turn runs with, as plain logic.
import { describe, expect, it } from "vitest";
import { BUILTIN_TOOLS } from "../../../agent/tools";
import { delegateTool } from "../../../agent/tools/delegate";
import { subagentConfig, subagentServers, subagentTools, userConfig } from "../../../agent/turn/plan";
import { DEFAULT_AGENT_CONFIG } from "../../../protocol";

describe("turn plan", () => {
  it("lowers the saved step limit to the frame's, never raises it, and takes the frame's tree", () => {
    const saved = { ...DEFAULT_AGENT_CONFIG, maxIterations: 10 };
    expect(userConfig(saved, { agent_max_steps: 3, decision_tree: "roa" })).toMatchObject({
      maxIterations: 3,
      decisionTree: "roa",
    });
    expect(userConfig(saved, { agent_max_steps: 30 }).maxIterations).toBe(10);
    expect(userConfig(saved, {})).toEqual(saved);
  });

  it("gives a subagent its parent's limits, the default tree and no task reminders", () => {
    const limits = { maxIterations: 4, tokenBudget: 5000, timeoutSeconds: 30 };
    expect(subagentConfig({ ...DEFAULT_AGENT_CONFIG, decisionTree: "roa" }, limits)).toMatchObject({
      ...limits,
      decisionTree: "default",
      taskReminderRequests: 0,
    });
  });

  it("connects only the MCP servers whose tools a subagent was given", () => {
    const servers = [{ name: "files" }, { name: "mail" }];
    expect(subagentServers(servers, ["files__read", "vault_read"])).toEqual([{ name: "files" }]);
    expect(subagentServers(servers)).toEqual(servers);
  });

  it("never gives a subagent request_input, and only the tools named", () => {
    const offered = [...BUILTIN_TOOLS, delegateTool];
    expect(subagentTools(offered).map((t) => t.name)).not.toContain("request_input");
    expect(subagentTools(offered, ["vault_read", "request_input"]).map((t) => t.name)).toEqual(["vault_read"]);
  });
});
