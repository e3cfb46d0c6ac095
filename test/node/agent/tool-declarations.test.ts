// agent/tools/tool-set.ts: the tools as the model is told of them, kept per tool across turns.
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { BUILTIN_TOOLS } from "../../../agent/tools";
import { delegateTool } from "../../../agent/tools/delegate";
import type { AgentTool } from "../../../agent/tools/tool";
import { toolDeclarations } from "../../../agent/tools/tool-set";

const mcpTool = (description: string, args: z.ZodType): AgentTool =>
  ({ name: "files__read", description, args, inputSchema: undefined, run: async () => ({}) }) as unknown as AgentTool;

describe("tool declarations", () => {
  it("declares each tool by name, description and the JSON Schema of its arguments", () => {
    const [declared] = toolDeclarations([mcpTool("Read a file", z.object({ path: z.string() }))]);
    expect(declared).toMatchObject({ type: "function", name: "files__read", description: "Read a file" });
    expect(declared?.inputSchema).toMatchObject({ type: "object", properties: { path: { type: "string" } } });
  });

  it("reuses a tool's declaration in every new list that holds the same tool (each turn builds one)", () => {
    const first = toolDeclarations([...BUILTIN_TOOLS, delegateTool]);
    const second = toolDeclarations([...BUILTIN_TOOLS, delegateTool]);
    expect(second).not.toBe(first);
    for (const [i, d] of second.entries()) expect(d).toBe(first[i]);
  });

  it("declares a new tool object anew, even under a name seen before (an MCP server changed its schema)", () => {
    const [before] = toolDeclarations([mcpTool("Read a file", z.object({ path: z.string() }))]);
    const [after] = toolDeclarations([mcpTool("Read a file", z.object({ path: z.string(), lines: z.number() }))]);
    expect(after).not.toBe(before);
    expect(after?.inputSchema).toMatchObject({ properties: { path: {}, lines: { type: "number" } } });
  });
});
