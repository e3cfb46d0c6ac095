// A fake ToolRunContext that records what the executor persists, sends and emits, in one ordered
// trace, plus small tools built with defineTool the way real tools are.
import { z } from "zod";
import type { EventDraft } from "../../../agent/events";
import type { ToolRunContext } from "../../../agent/tools/executor";
import type { InputOutcome } from "../../../agent/tools/request-input";
import { requestInputTool } from "../../../agent/tools/request-input";
import { type AgentTool, defineTool, ToolError } from "../../../agent/tools/tool";
import type { MessageDraft, ServerFrame } from "../../../protocol";

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** None of these tools (nor the executor) touches the database: any use of it fails the test loudly. */
const noDatabase = new Proxy({} as D1Database, {
  get(_target, key) {
    throw new Error(`fakeRun has no database (db.${String(key)} was used)`);
  },
});

export const echoTool = defineTool({
  name: "echo",
  description: "returns its text",
  args: z.object({ text: z.string() }),
  execute: async ({ text }) => ({ echoed: text }),
});

export const hangTool = defineTool({
  name: "hang",
  description: "never resolves and ignores its signal",
  args: z.object({}),
  timeoutMs: 50,
  execute: () => new Promise<never>(() => {}),
});

export const toolErrorTool = defineTool({
  name: "missing_note",
  description: "fails the expected way",
  args: z.object({}),
  execute: async () => {
    throw new ToolError("no note at that path");
  },
});

export const crashTool = defineTool({
  name: "crash",
  description: "fails the unexpected way",
  args: z.object({}),
  execute: async () => {
    throw new Error("disk on fire");
  },
});

/** Counts how many of its calls run at the same time. */
export function concurrencyTool(delayMs = 20) {
  const counter = { active: 0, max: 0, started: 0 };
  const tool = defineTool({
    name: "slow",
    description: "takes a while",
    args: z.object({ n: z.number() }),
    execute: async ({ n }) => {
      counter.started++;
      counter.active++;
      counter.max = Math.max(counter.max, counter.active);
      await sleep(delayMs);
      counter.active--;
      return n;
    },
  });
  return { tool, counter };
}

export interface Recorded {
  ctx: ToolRunContext;
  frames: ServerFrame[];
  appended: MessageDraft[];
  events: EventDraft[];
  questions: { question: string; step: number }[];
  /** "send:tool_start:c1", "append:c1", "emit:tool.success:c1" in the order they happened. */
  trace: string[];
}

export function fakeRun(
  tools: AgentTool[],
  options: Partial<Pick<ToolRunContext, "signal" | "maxParallel" | "maxCalls" | "step">> & {
    answer?: () => Promise<InputOutcome>;
  } = {},
): Recorded {
  const rec: Omit<Recorded, "ctx"> = { frames: [], appended: [], events: [], questions: [], trace: [] };
  const all = [...tools, requestInputTool];
  const ctx: ToolRunContext = {
    tools: new Map(all.map((t) => [t.name, t])),
    base: { db: noDatabase, userId: "user-1", conversationId: "conversation-1" },
    signal: options.signal ?? new AbortController().signal,
    step: options.step ?? 1,
    maxParallel: options.maxParallel ?? 3,
    maxCalls: options.maxCalls ?? 20,
    send(frame) {
      rec.frames.push(frame);
      rec.trace.push(`send:${frame.type}:${"call_id" in frame ? frame.call_id : ""}`);
    },
    async append(draft) {
      rec.appended.push(draft);
      rec.trace.push(`append:${draft.role === "tool" ? draft.call_id : ""}`);
    },
    emit(event) {
      rec.events.push(event);
      rec.trace.push(`emit:${event.type}:${String(event.payload.call_id)}`);
    },
    async askUser(question, step) {
      rec.questions.push({ question, step });
      return options.answer ? options.answer() : { type: "answer", content: "yes" };
    },
  };
  return { ctx, ...rec };
}
