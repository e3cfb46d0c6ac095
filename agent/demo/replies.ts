// The demo's reply shapes: the phase replies the loop asks for (reason and observe with their JSON
// control block, the wrap-up), the scripted thinking, and the tour of what the demo can do.
import type { LanguageModelV3Prompt } from "@ai-sdk/provider";
import { toolWords } from "../../protocol";
import type { Decision } from "./decide";
import { type Intent, LOOP_NOTE } from "./intent";
import { describe, summarize } from "./outcomes";
import { lastUserText, type ToolOutcome } from "./prompt-reading";
import { clean, clip, count } from "./text";

export interface DemoToolCall {
  id: string;
  name: string;
  args: Record<string, unknown>;
}

export interface DemoReply {
  text: string;
  toolCalls: DemoToolCall[];
  /** Streamed first, as a reasoning model's thinking is (asked for with "think" in the message). */
  reasoning?: string;
}

export const say = (text: string): DemoReply => ({ text, toolCalls: [] });

/** A short scripted reasoning block for a message that asks the model to think, before its first answer. */
export function thinking(prompt: LanguageModelV3Prompt, results: number): { reasoning: string } | undefined {
  const text = lastUserText(prompt);
  if (results > 0 || !/\bthink\b|\bstep by step\b|\breason(?:ing)?\b/i.test(text)) return undefined;
  return {
    reasoning:
      `The user asks: "${clip(clean(text), 80)}". I am the offline demo model, so I have no real thoughts; ` +
      "this block is scripted. It streams before the answer, the way a reasoning model's thinking does, " +
      "and folds into one line above the answer once it is written.",
  };
}
const withControl = (prose: string, control: Record<string, unknown>) =>
  `${prose}\n\n\`\`\`json\n${JSON.stringify(control)}\n\`\`\``;

export function reasonReply(decision: Decision, results: ToolOutcome[]): string {
  if (decision.call) {
    const plan = `${decision.why} Tool: ${toolWords(decision.call.name)}.`;
    return withControl(`Plan: ${plan}`, { plan, tools_to_consider: [decision.call.name], finish: false });
  }
  const plan = results.length
    ? "I have what I need from the tools, so I can answer now."
    : "No tool is needed for this; I can answer directly.";
  return withControl(plan, { plan, tools_to_consider: [], finish: true, final_answer: decision.answer });
}

export function observeReply(decision: Decision, lastStep: ToolOutcome[]): string {
  const observation = lastStep.length ? summarize(lastStep) : "No tools were used in this step.";
  if (decision.call) {
    const next = `Next: ${decision.why}`;
    return withControl(`${observation} ${next}`, { observation, should_continue: true, final_answer: "" });
  }
  return withControl(`${observation} That is enough to answer.`, {
    observation,
    should_continue: false,
    final_answer: decision.answer,
  });
}

// The wrap-up does not say which limit ended the turn: the explanation the loop appends to the saved
// answer names the real one (iterations, repeats or errors, whichever came first).
export function wrapUp(intent: Intent, results: ToolOutcome[]): string {
  if (intent.kind === "loop") {
    const reads = results.filter((r) => r.tool === "vault_read");
    const last = reads.at(-1);
    const outcome = last ? describe(last) : "";
    return `I read ${LOOP_NOTE} ${count(reads.length, "time")} with the same arguments (${outcome.replace(/\.$/, "")}), so repeating it was going nowhere. Left undone: nothing, this was the loop demo.`;
  }
  if (!results.length) return "I have to stop here before doing anything with the tools. Ask again to continue.";
  return `Here is where I got to: ${summarize(results)} Left undone: the final answer; ask me to continue.`;
}
