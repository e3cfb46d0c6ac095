// What the demo says when it has nothing to do: the tour of the phrases it acts on, and a short answer
// under its scripted thinking.

export const THOUGHT_ANSWER =
  "I thought it over (open “Thought for …” above to read how). As the offline demo model I cannot really plan, " +
  "but a real model shows its reasoning the same way: folded above its answer, timed, and kept with the answer.";

// Plain words, no tool names: the user reads this. The closing line is a paragraph of its own, not
// part of the last bullet (a list item goes on until a blank line).
export function introduction(): string {
  return [
    "Hi! I am the offline demo model: no OPENAI_API_KEY is set, so my replies are scripted, but they run through the real agent loop, tools and limits. Try:",
    "",
    "- “search my notes for …” or “list my notes” (I search, list and read your notes)",
    "- “write a note: …” (I save it as a note)",
    "- “show my tasks” or “add task …” (I read or add to your tasks)",
    "- “ask me a question” (the answer waits for your reply)",
    "- “remember that I prefer metric units” (I remember it in your next conversations too)",
    "- “remind me on Friday at 9 to call the bank” or “remind me every day at 8 to …” (I schedule it)",
    "- “loop” (the same step again and again, until the loop detector stops it)",
    "- “tell me a long story” (streams slowly, so you can press Stop)",
    "- “delegate listing my notes to a subagent” (a subagent does it in its own conversation)",
    '- “call github__search {"query": "…"}” (a tool of one of your MCP servers, from Settings → Tools)',
    "",
    "Pick the “roa” tree to see reason → act → observe. Set OPENAI_API_KEY to talk to a real model.",
  ].join("\n");
}
