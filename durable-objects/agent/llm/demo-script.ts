// What the demo model says: a pure function of the prompt, so the demo is deterministic and testable.
import type { LanguageModelV3Prompt } from "@ai-sdk/provider";

export interface DemoReply {
  text: string;
  toolCalls: { id: string; name: string; args: Record<string, unknown> }[];
}

export function lastUserText(prompt: LanguageModelV3Prompt): string {
  for (let i = prompt.length - 1; i >= 0; i--) {
    const message = prompt[i];
    if (message?.role !== "user") continue;
    return message.content.map((part) => (part.type === "text" ? part.text : "")).join("");
  }
  return "";
}

export function planDemoReply(prompt: LanguageModelV3Prompt, _tools: string[]): DemoReply {
  const question = lastUserText(prompt).trim();
  const text =
    `This is the offline demo model (no OPENAI_API_KEY is set). You asked: "${question.slice(0, 200)}". ` +
    "Set OPENAI_API_KEY (and optionally OPENAI_BASE_URL and OPENAI_MODEL) to talk to a real model.";
  return { text, toolCalls: [] };
}
