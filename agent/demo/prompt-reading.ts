// Reading the prompt the loop sends: the user's last message, the phase the loop asks for, the tools
// the system prompt names, and what each tool call of this turn returned.
import type { LanguageModelV3Message, LanguageModelV3Prompt } from "@ai-sdk/provider";
import { parseJson } from "./text";

export type Phase = "reason" | "act" | "observe" | "wrap-up";

export interface ToolOutcome {
  tool: string;
  ok: boolean;
  /** The parsed JSON result (or the raw text); the error text when !ok. */
  value: unknown;
}

export function lastUserText(prompt: LanguageModelV3Prompt): string {
  const index = lastUserIndex(prompt);
  return index < 0 ? "" : textOf(prompt[index]);
}

function textOf(message: LanguageModelV3Message | undefined): string {
  if (!message) return "";
  if (message.role === "system") return message.content;
  return message.content.map((part) => (part.type === "text" ? part.text : "")).join("");
}

export function lastUserIndex(prompt: LanguageModelV3Prompt): number {
  return lastIndexOf(prompt, "user", 0);
}

function lastIndexOf(prompt: LanguageModelV3Prompt, role: LanguageModelV3Message["role"], from: number): number {
  for (let i = prompt.length - 1; i >= from; i--) if (prompt[i]?.role === role) return i;
  return -1;
}

export function lastNonSystem(prompt: LanguageModelV3Prompt): number {
  for (let i = prompt.length - 1; i >= 0; i--) if (prompt[i]?.role !== "system") return i;
  return -1;
}

/** The phase instruction among the trailing system messages, if any (undefined: a plain tool-calling call). */
export function phaseOf(prompt: LanguageModelV3Prompt): Phase | undefined {
  for (let i = prompt.length - 1; i >= 0; i--) {
    const message = prompt[i];
    if (message?.role !== "system") return undefined;
    const text = message.content.trimStart();
    if (text.startsWith("REASON PHASE")) return "reason";
    if (text.startsWith("OBSERVE PHASE")) return "observe";
    if (text.startsWith("ACT PHASE")) return "act";
    if (text.startsWith("The turn has to end now")) return "wrap-up";
  }
  return undefined;
}

/** Tool names from the system prompt ("Tools: a, b.") or a reason instruction ("…act phase: a, b."). */
export function toolsNamedIn(prompt: LanguageModelV3Prompt): string[] {
  const names: string[] = [];
  for (const message of prompt) {
    if (message.role !== "system") continue;
    for (const match of message.content.matchAll(/Tools(?: available in the act phase)?: ([^\n]*)/g)) {
      names.push(
        ...(match[1] ?? "")
          .replace(/\.\s*$/, "")
          .split(",")
          .map((name) => name.trim())
          .filter((name) => /^[\w-]+$/.test(name)),
      );
    }
  }
  return names;
}

export function outcomesIn(messages: LanguageModelV3Prompt): ToolOutcome[] {
  const outcomes: ToolOutcome[] = [];
  for (const message of messages) {
    if (message.role !== "tool") continue;
    for (const part of message.content) {
      if (part.type !== "tool-result") continue;
      const output = part.output;
      switch (output.type) {
        case "text":
          outcomes.push({ tool: part.toolName, ok: true, value: parseJson(output.value) });
          break;
        case "json":
          outcomes.push({ tool: part.toolName, ok: true, value: output.value });
          break;
        case "error-text":
          outcomes.push({ tool: part.toolName, ok: false, value: output.value });
          break;
        case "error-json":
          outcomes.push({ tool: part.toolName, ok: false, value: JSON.stringify(output.value) });
          break;
        case "execution-denied":
          outcomes.push({ tool: part.toolName, ok: false, value: output.reason ?? "denied" });
          break;
        default:
          outcomes.push({ tool: part.toolName, ok: true, value: "" });
      }
    }
  }
  return outcomes;
}
