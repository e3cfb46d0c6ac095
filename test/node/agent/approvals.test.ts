// Approval in the executor and its policy (issue 30): which calls ask, that only an approved call runs,
// that a denial is the call's result (not a failure event), that a subagent's call that asks is not run,
// and that overlapping waits pause the turn's clock until the last one ends.
import { afterEach, describe, expect, it, vi } from "vitest";
import { ApprovalPolicy, defaultApprovalMode } from "../../../agent/tools/approval";
import { runToolCalls } from "../../../agent/tools/executor";
import type { AgentTool } from "../../../agent/tools/tool";
import { TurnClock } from "../../../agent/turn/clock";
import { argName, readableArgs } from "../../../client/src/lib/readable-args";
import { echoTool, fakeRun } from "./fake-tool-run";

const mcpWrite: AgentTool = { ...echoTool, name: "srv__echo", approval: { key: "mcp:s1:echo", askByDefault: true } };
const mcpRead: AgentTool = { ...echoTool, name: "srv__read", approval: { key: "mcp:s1:read", askByDefault: false } };

describe("ApprovalPolicy", () => {
  it("asks for MCP tools that may write, not for reads, built-ins or a question", () => {
    const policy = new ApprovalPolicy();
    expect(policy.needs(mcpWrite)).toBe(true);
    expect(policy.needs(mcpRead)).toBe(false);
    expect(policy.needs(echoTool)).toBe(false);
    expect(policy.needs({ ...echoTool, name: "request_input" })).toBe(false);
    expect(defaultApprovalMode(mcpWrite)).toBe("ask");
  });

  it("follows the user's rules over the defaults, and Always allow for the rest of the turn", () => {
    const policy = new ApprovalPolicy([
      { tool: "echo", mode: "ask" },
      { tool: "mcp:s1:read", mode: "ask" },
      { tool: "request_input", mode: "ask" },
    ]);
    expect(policy.needs(echoTool)).toBe(true);
    expect(policy.needs(mcpRead)).toBe(true);
    expect(policy.needs({ ...echoTool, name: "request_input" })).toBe(false);
    policy.allow(echoTool);
    expect(policy.needs(echoTool)).toBe(false);
  });

  it("applies a server-wide rule to the server's tools without a rule of their own", () => {
    const policy = new ApprovalPolicy([
      { tool: "mcp:s1:*", mode: "allow" },
      { tool: "mcp:s1:read", mode: "ask" },
    ]);
    expect(policy.needs(mcpWrite)).toBe(false);
    expect(policy.needs(mcpRead)).toBe(true);
    expect(policy.needs({ ...mcpWrite, approval: { key: "mcp:s2:echo", askByDefault: true } })).toBe(true);
  });
});

describe("runToolCalls with approval", () => {
  it("runs an approved call, and gives a denied or timed-out one a result that says so", async () => {
    const ran: string[] = [];
    const tool: AgentTool = { ...echoTool, execute: async (args) => ran.push((args as { text: string }).text) };
    const decisions: Record<string, "approved" | "denied" | "timed_out"> = {
      a: "approved",
      d: "denied",
      t: "timed_out",
    };
    const { ctx, events } = fakeRun([tool]);
    const outcomes = await runToolCalls(
      ["a", "d", "t"].map((id) => ({ callId: id, tool: "echo", args: { text: id } })),
      {
        ...ctx,
        approval: {
          needs: () => true,
          ask: async (call) => ({ decision: decisions[call.callId] ?? "denied" }),
        },
      },
    );
    expect(ran).toEqual(["a"]);
    expect(outcomes.map((o) => [o.status, o.approval])).toEqual([
      ["success", "approved"],
      ["error", "denied"],
      ["error", "timed_out"],
    ]);
    expect(outcomes[1]?.error).toMatch(/user denied this call of echo/);
    expect(outcomes[2]?.error).toMatch(/nobody approved it in time/);
    expect(events.filter((e) => e.type === "tool.failure")).toEqual([]);
  });

  it("does not run a call that asks where nobody can be asked (a subagent)", async () => {
    const { ctx } = fakeRun([mcpWrite]);
    const [o] = await runToolCalls([{ callId: "c", tool: "srv__echo", args: { text: "x" } }], {
      ...ctx,
      approval: { needs: () => true },
    });
    expect(o).toMatchObject({ status: "error" });
    expect(o?.error).toMatch(/subagent cannot ask/);
  });
});

describe("TurnClock with overlapping waits", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("stays paused until the last wait ends", () => {
    vi.useFakeTimers({ now: 1_800_000_000_000 });
    const clock = new TurnClock(100);
    clock.pause();
    clock.pause();
    clock.resume();
    vi.advanceTimersByTime(500);
    expect(clock.expired).toBe(false);
    clock.resume();
    vi.advanceTimersByTime(99);
    expect(clock.expired).toBe(false);
    vi.advanceTimersByTime(1);
    expect(clock.expired).toBe(true);
  });
});

describe("readableArgs", () => {
  it("names arguments in words and shows values as text", () => {
    expect(argName("due_date")).toBe("Due date");
    expect(argName("dueDate")).toBe("Due date");
    expect(readableArgs({ title: "Buy <b>milk</b>", count: 2, tags: ["a"] })).toEqual([
      { name: "Title", value: "Buy <b>milk</b>", multiline: false },
      { name: "Count", value: "2", multiline: false },
      { name: "Tags", value: '[\n  "a"\n]', multiline: true },
    ]);
    expect(readableArgs(undefined)).toEqual([]);
    expect(readableArgs("plain")).toEqual([{ name: "Arguments", value: "plain", multiline: false }]);
    expect(readableArgs({ body: "x".repeat(5000) })[0]?.value).toMatch(/1000 more characters\)$/);
  });
});
