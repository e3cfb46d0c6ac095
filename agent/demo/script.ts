// What the demo model says: a pure function of the prompt and of the tool names offered, so the offline
// demo is deterministic and testable, and still shows every feature through the real agent loop.
//
// Triggers (first match wins, only when the tool it needs is offered):
//   "Reminder: …" (a reminder's run)    → the reminder, in words
//   "delegate" / "subagent"             → delegate the rest of the message as a task (a canonical
//                                         wording of what the rest asks for, so the subagent's own
//                                         demo model picks the same intent), then answer quoting the
//                                         subagent's answer; with "nested" the subagent delegates again
//   "remind me" (with "on friday at 9",   → schedule create ("friday at 9", "every day at 8": read in the
//   "every day at 8", …)                  user's zone), then what was scheduled and when, in words
//   "remember (that) …"                 → memory save, in the third person ("The user likes tea.")
//   "long story"                        → a long text, streamed slowly enough to press Stop
//   "ask me" / "question" / "clarify"   → request_input, then an answer quoting the user's reply
//   "loop" / "repeat"                   → the same vault_read again and again (no-progress detection)
//   "add task …"                        → task_create
//   "write a note …" / "save …"         → vault_write
//   "task(s)" / "todo(s)"               → task_list
//   "note(s)" / "vault" / "search"      → vault_search (with a query) then vault_read of the best hit,
//                                         or vault_list (without one)
//   files attached (and nothing above)  → what they are and how each begins; a long document's first
//                                         page read with file_read
//   anything else                       → a short explanation of the demo and of these phrases
// The phase instructions the loop appends ("REASON PHASE", "ACT PHASE", "OBSERVE PHASE", "The turn has
// to end now") get the reply shape they ask for, with a JSON control block for reason and observe.
import type { LanguageModelV3Prompt } from "@ai-sdk/provider";
import { decide } from "./decide";
import { attachedFiles, hasFiles } from "./files";
import { detectIntent, type Intent } from "./intent";
import { lastNonSystem, lastUserIndex, lastUserText, outcomesIn, phaseOf, toolsNamedIn } from "./prompt-reading";
import { type DemoReply, observeReply, reasonReply, say, thinking, wrapUp } from "./replies";
import { THOUGHT_ANSWER } from "./tour";

export type { DemoReply, DemoToolCall } from "./replies";

export function planDemoReply(prompt: LanguageModelV3Prompt, tools: string[]): DemoReply {
  const phase = phaseOf(prompt);
  const offered = new Set(tools);
  // Reason, observe and wrap-up calls get no tools; they plan for the ones the prompt names instead.
  if (phase !== undefined && phase !== "act") for (const name of toolsNamedIn(prompt)) offered.add(name);
  const since = lastUserIndex(prompt) + 1;
  const results = outcomesIn(prompt.slice(since));
  // The results this step got: the tool message right before the trailing system messages, if any.
  const tail = lastNonSystem(prompt);
  const lastStep = tail >= since && prompt[tail]?.role === "tool" ? outcomesIn(prompt.slice(tail, tail + 1)) : [];
  const attached = attachedFiles(prompt);
  const said = detectIntent(lastUserText(prompt), offered);
  const intent: Intent = said.kind === "chat" && hasFiles(attached) ? { kind: "files", attached } : said;
  const decision = decide(intent, results, offered);

  switch (phase) {
    case "wrap-up":
      return say(wrapUp(intent, results));
    case "reason":
      return say(reasonReply(decision, results));
    case "observe":
      return say(observeReply(decision, lastStep));
    default: {
      if (!decision.call) {
        const thought = thinking(prompt, results.length);
        // Asked to think about something it has no tool for: a short answer under the thinking, not the tour.
        const answer = thought && intent.kind === "chat" && !results.length ? THOUGHT_ANSWER : decision.answer;
        return { ...say(answer), ...thought };
      }
      const id = `demo-${prompt.length}-${JSON.stringify(prompt).length}-0`;
      return { text: decision.why, toolCalls: [{ id, ...decision.call }] };
    }
  }
}
