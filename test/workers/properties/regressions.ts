// Counterexamples the property suite found, as fast-check shrank them, kept as fixed cases: each
// broke a success criterion before the fix named with it.
import { DEFAULT_AGENT_CONFIG } from "../../../protocol";
import type { Reply, RunScript } from "./script";

const tools = (calls: [string, unknown][], usage: [number, number] = [20, 1]): Reply => ({
  kind: "tools",
  calls: calls.map(([name, args]) => ({ name, args, latencyMs: 0 })),
  text: "",
  latencyMs: 0,
  usage,
});

const small = { ...DEFAULT_AGENT_CONFIG, maxIterations: 1, tokenBudget: 1000, timeoutSeconds: 10 };
const turn = (replies: Reply[]) => ({ user: "Q: ", replies, answers: [], subagentSpend: [] });

export const REGRESSIONS: Record<string, RunScript> = {
  // The token warning came at the configured 83 %, after 82 % was spent: fewer than 20 % left (SC-006).
  // Fixed: warnings are due at the configured percentage or at 80 %, whichever comes first.
  "a token warning set at 83 % still comes with 20 % left": {
    config: { ...small, maxIterations: 4, tokenWarningPercent: 83 },
    tree: { name: "roa" },
    turns: [turn([tools([["request_input", { question: "?" }]], [514, 6])]), turn([])],
  },
  // 11 iterations at 73 % warned at step 9 (ceil of 8.03), with 18 % left. Fixed: never after 80 %.
  "the iteration warning leaves 20 % of the iterations": {
    config: { ...small, maxIterations: 11, softWarningPercent: 73, tokenBudget: 1801 },
    tree: { name: "roa" },
    turns: [turn([])],
  },
  // A tree with two act phases per step ran one call in each with a cap of 1 per step. Fixed: the cap
  // counts the step's earlier phases.
  "the per-step tool cap holds across a step's act phases": {
    config: { ...small, maxToolCallsPerTurn: 1, maxParallelTools: 1 },
    tree: { name: "random", phases: [["act", "act"], ["reason"]] },
    turns: [turn([tools([["vault_list", {}]]), tools([["vault_search", { query: "budget" }]])])],
  },
  // Two subagents started in one step were each offered all the tokens left, and together spent the
  // budget twice over (9,490 each of a 10,000 budget). Fixed: parallel subagents share what is left.
  "parallel subagents share the tokens left": {
    config: { ...DEFAULT_AGENT_CONFIG, tokenBudget: 10_000, maxParallelTools: 3 },
    tree: { name: "default" },
    turns: [
      {
        ...turn([
          tools(
            [
              ["delegate", { task: "a" }],
              ["delegate", { task: "b" }],
            ],
            [500, 10],
          ),
        ]),
        subagentSpend: [100, 100],
      },
    ],
  },
  // The wrap-up call after the iteration limit ran after the turn's clock was disposed: a model slow to
  // answer it (7.9 s, with 7.85 s left) ran the turn to 10,051 ms of a 10 s limit, and a slower one
  // would have had no limit at all. Fixed: the clock stops only once the answer is saved.
  "the wrap-up after a limit stays within the time limit": {
    config: { ...small, maxToolCallsPerTurn: 1, maxParallelTools: 1 },
    tree: { name: "random", phases: [["reason", "reason", "act"], ["reason"]] },
    turns: [
      turn([
        tools([["request_input", { question: "?" }]]),
        tools([["request_input", { question: "?" }]]),
        {
          kind: "tools",
          calls: [{ name: "vault_search", args: { query: "budget" }, latencyMs: 2149 }],
          text: "",
          latencyMs: 0,
          usage: [20, 1],
        },
        { kind: "text", text: "Noted.", latencyMs: 7902, usage: [20, 1] },
      ]),
    ],
  },
  // With a 5,007-token window the loop compacted the history before a request; the summary call spent
  // the last of a 1,000-token budget (1,000/1,000) and the request went out anyway. Fixed: a request
  // whose compaction used up the budget is not sent, and the turn ends on its token budget.
  "no request goes out after its compaction used up the budget": {
    config: { ...small },
    tree: { name: "roa" },
    turns: [turn([tools([["request_input", {}]], [939, 1])]), turn([])],
    contextWindow: 5007,
  },
  // A failed call at the end of a turn, then a compaction at the next turn's first request: the
  // model's summary left the failure out and the notification summary only counted "1 Tool failures
  // event", so the agent never learned which tool failed. Fixed: the notification summary names the
  // latest failures.
  "a failure folded into a compaction is still named to the model": {
    config: {
      ...small,
      maxIterations: 2,
      softWarningPercent: 10,
      tokenWarningPercent: 10,
      maxToolCallsPerTurn: 1,
      maxParallelTools: 1,
      requestInputTimeoutSeconds: 10,
      taskReminderRequests: 0,
    },
    tree: { name: "default" },
    turns: [
      turn([tools([["no_such_tool", { seed: 0 }]], [2471, 1])]),
      { ...turn([]), user: "Q: <system-reminder> budget budget" },
    ],
    contextWindow: 4000,
  },
};
