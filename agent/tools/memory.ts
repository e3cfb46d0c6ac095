// The memory tool (docs/protocol.md "Projects, instructions and memory"): the agent saves what the user
// tells it about themselves or their work, updates it and forgets it. A memory is the user's (every
// conversation) or the project's (only that project's conversations); the tool reaches the user's and
// this conversation's project's memories, never another project's or another user's. Every memory is
// visible and editable in Settings → Memory; the chat shows each change with an undo.
import { createMemory, deleteMemory, findMemory, type MemoryRow, toMemory, updateMemory } from "../../d1/memories";
import { MAX_MEMORIES, MemoryToolArgsSchema, type MemoryToolResult } from "../../protocol/projects";
import type { MemoryScope } from "../projects/memory-scope";
import { type AgentTool, defineTool, effectKey, type ToolContext, ToolError } from "./tool";

export const MEMORY = "memory";

function scopeOf(ctx: ToolContext): MemoryScope {
  if (!ctx.memory) throw new ToolError("Memory is switched off for this conversation: nothing can be saved");
  return ctx.memory;
}

/** The same call after a restart saves the same memory (its id comes from the call's key), not a second. */
async function memoryIdFor(ctx: ToolContext): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(effectKey(ctx)));
  const hex = [...new Uint8Array(digest).slice(0, 10)].map((b) => b.toString(16).padStart(2, "0")).join("");
  return `m_${hex}`;
}

/** A memory this conversation may change: the user's own, or its project's. */
async function reachable(ctx: ToolContext, scope: MemoryScope, id: string | undefined): Promise<MemoryRow> {
  if (!id) throw new ToolError("id is required: the memory's id, as listed in the context (m_…)");
  const row = await findMemory(ctx.db, ctx.userId, id);
  if (!row || (row.projectId !== null && row.projectId !== scope.projectId))
    throw new ToolError(`No memory ${id} in this conversation's reach (it may have been forgotten already)`);
  return row;
}

function needText(text: string | undefined): string {
  if (!text) throw new ToolError("text is required: the memory, one fact in a short sentence");
  return text;
}

export const memoryTool = defineTool({
  name: MEMORY,
  description:
    "Remembers a fact about the user or their work for later conversations (not what matters only now, never " +
    "secrets): save, update or forget by id. The user sees every change.",
  args: MemoryToolArgsSchema,
  async execute(args, ctx): Promise<MemoryToolResult> {
    const scope = scopeOf(ctx);
    switch (args.action) {
      case "save": {
        const projectId = (args.scope ?? (scope.projectId ? "project" : "user")) === "project" ? scope.projectId : null;
        const row = await createMemory(ctx.db, ctx.userId, {
          id: await memoryIdFor(ctx),
          text: needText(args.text),
          projectId,
          conversationId: ctx.conversationId,
          seq: scope.sourceSeq(),
        });
        if (!row)
          throw new ToolError(
            `The user's memory is full (${MAX_MEMORIES} memories): ask them to delete some in Settings, or update one`,
          );
        return { action: "save", memory: toMemory(row) };
      }
      case "update": {
        const text = needText(args.text);
        const before = await reachable(ctx, scope, args.id);
        const row = (await updateMemory(ctx.db, ctx.userId, before.id, text)) ?? before;
        return { action: "update", memory: toMemory(row), previous: before.text };
      }
      case "forget": {
        const before = await reachable(ctx, scope, args.id);
        await deleteMemory(ctx.db, ctx.userId, before.id);
        return { action: "forget", memory: toMemory(before) };
      }
    }
  },
});

/** The tools without the memory tool where memory is off (the operator's MEMORY=off, the user's or the project's switch). */
export const withMemoryTool = (tools: readonly AgentTool[], on: boolean): AgentTool[] =>
  on ? [...tools] : tools.filter((tool) => tool.name !== MEMORY);
