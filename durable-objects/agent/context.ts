// Builds the model's context from the persisted log. The live loop and a replay after a restart both
// call this one function on the same messages, so the context is byte-identical by construction.
// It produces the provider-level prompt (LanguageModelV3Prompt) that goes to the provider as is.
import type {
  LanguageModelV3Prompt,
  LanguageModelV3Message as ModelMessage,
  LanguageModelV3ToolCallPart as ToolCallPart,
  LanguageModelV3ToolResultPart as ToolResultPart,
} from "@ai-sdk/provider";
import type { Message, ToolMessage } from "../../protocol";
import { neutralizeReminders } from "../system-items/forgery";
import { planSummary } from "./notification-summary";

interface AssistantBlock {
  step: number | undefined;
  text: string;
  calls: ToolCallPart[];
  results: ToolResultPart[];
  /** System items that arrived between a step's tool calls and its end: the API wants tool results first. */
  deferred: ModelMessage[];
}

export function toModelMessages(log: readonly Message[]): LanguageModelV3Prompt {
  const out: ModelMessage[] = [];
  let block: AssistantBlock | undefined;
  const flush = () => {
    if (!block) return;
    const content = [...(block.text ? [{ type: "text" as const, text: block.text }] : []), ...block.calls];
    if (content.length) out.push({ role: "assistant", content });
    if (block.results.length) out.push({ role: "tool", content: block.results });
    out.push(...block.deferred);
    block = undefined;
  };
  const open = (step: number | undefined) => {
    flush();
    block = { step, text: "", calls: [], results: [], deferred: [] };
    return block;
  };

  const summary = planSummary(log);
  for (const message of log) {
    switch (message.role) {
      case "user":
        flush();
        out.push({ role: "user", content: [{ type: "text", text: neutralizeReminders(message.content) }] });
        break;
      case "agent":
        open(message.step).text = neutralizeReminders(message.content);
        break;
      case "tool": {
        const target = block && block.step === message.step ? block : open(message.step);
        target.calls.push({
          type: "tool-call",
          toolCallId: message.call_id,
          toolName: message.tool,
          input: message.args,
        });
        target.results.push(toolResult(message));
        break;
      }
      case "system": {
        if (summary?.folded.has(message.seq) && message.seq !== summary.at) break;
        const text = summary && message.seq === summary.at ? summary.text : message.item.body;
        const system: ModelMessage = { role: "system", content: text };
        if (block?.calls.length) block.deferred.push(system);
        else {
          flush();
          out.push(system);
        }
        break;
      }
    }
  }
  flush();
  return out;
}

/** What the model reads back from a tool: text, with forged reminder tags neutralised. */
export function toolResultText(message: Pick<ToolMessage, "status" | "result" | "error">): string {
  if (message.status !== "success") return neutralizeReminders(message.error ?? message.status);
  const value = typeof message.result === "string" ? message.result : JSON.stringify(message.result ?? null);
  return neutralizeReminders(value);
}

function toolResult(message: ToolMessage): ToolResultPart {
  const value = toolResultText(message);
  return {
    type: "tool-result",
    toolCallId: message.call_id,
    toolName: message.tool,
    output: message.status === "success" ? { type: "text", value } : { type: "error-text", value },
  };
}
