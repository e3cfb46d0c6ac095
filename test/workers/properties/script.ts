// What a generated run is: the user's limits, a decision tree, and for each turn what the user writes,
// what the model answers call by call (text, tool calls with valid or broken arguments, refusals, broken
// streams), how each tool call behaves (latency, a throw, a hang), how the user answers questions, and
// when Stop is pressed. Plain JSON, so a shrunk counterexample can be pasted into regressions.ts.
import fc from "fast-check";
import { MIN_CONTEXT_WINDOW } from "../../../agent/llm/config";
import { AGENT_CONFIG_FIELDS, type AgentConfig } from "../../../protocol";

export interface ToolCallSpec {
  name: string;
  /** The arguments as the model wrote them; `raw` is input that is not JSON at all. */
  args: unknown;
  raw?: string;
  /** Virtual milliseconds the tool takes before it does its work. */
  latencyMs: number;
  fault?: "throw" | "hang";
}

export type Reply =
  | { kind: "text"; text: string; latencyMs: number; usage: [number, number]; finish?: "length" }
  | { kind: "tools"; calls: ToolCallSpec[]; text: string; latencyMs: number; usage: [number, number] }
  /** The provider refuses the request: a 400 ends the turn, a 429/503 is retried. */
  | { kind: "refuse"; status: 400 | 429 | 503 }
  /** The stream breaks after some text reached the user. */
  | { kind: "break"; text: string };

export type Answer = { kind: "answer"; text: string; afterMs: number } | { kind: "timeout" };

/** Stop pressed during the n-th model call / tool call / question of the turn, after `afterMs`. */
export interface StopPlan {
  at: "model" | "tool" | "input";
  index: number;
  afterMs: number;
}

export interface TurnScript {
  user: string;
  replies: Reply[];
  answers: Answer[];
  stop?: StopPlan;
  /** What the subagent of the n-th delegate call spends, in percent of the budget it was given. */
  subagentSpend: number[];
}

export type TreeScript = { name: "default" | "roa" } | { name: "random"; phases: ("reason" | "act" | "observe")[][] };

export interface RunScript {
  config: AgentConfig;
  tree: TreeScript;
  turns: TurnScript[];
  /** The model's context window (OPENAI_CONTEXT_WINDOW); small ones make the loop compact the history. */
  contextWindow?: number;
}

const NOTE_PATHS = ["plan.md", "notes/a.md", "notes/b.md", "missing.md"];

const bounded = (field: keyof typeof AGENT_CONFIG_FIELDS, max?: number) =>
  fc.integer({ min: AGENT_CONFIG_FIELDS[field].min, max: max ?? AGENT_CONFIG_FIELDS[field].max });

/** Limits within the Settings bounds, leaning towards small ones so that limits are actually reached. */
export const configArb: fc.Arbitrary<AgentConfig> = fc.record({
  maxIterations: fc.oneof(fc.integer({ min: 1, max: 6 }), bounded("maxIterations")),
  softWarningPercent: bounded("softWarningPercent"),
  tokenBudget: fc.oneof(fc.integer({ min: 1000, max: 6000 }), bounded("tokenBudget")),
  tokenWarningPercent: bounded("tokenWarningPercent"),
  timeoutSeconds: fc.oneof(fc.integer({ min: 10, max: 60 }), bounded("timeoutSeconds")),
  maxToolCallsPerTurn: bounded("maxToolCallsPerTurn"),
  maxParallelTools: bounded("maxParallelTools"),
  requestInputTimeoutSeconds: fc.integer({ min: 10, max: 600 }),
  taskReminderRequests: fc.constant(0),
  webSearchesPerTurn: bounded("webSearchesPerTurn"),
  decisionTree: fc.constant("default"),
});

const word = fc.constantFrom("budget", "May", "plan", "ship*", "naïve", "日本", "🙂", "<system-reminder>", "x");
const prose = fc.array(word, { minLength: 0, maxLength: 6 }).map((w) => w.join(" "));

/** Valid arguments for each built-in tool, and a broken variant of each. */
const validArgs: Record<string, fc.Arbitrary<unknown>> = {
  request_input: prose.map((q) => ({ question: `${q}?` })),
  vault_search: fc.record({ query: word }, { requiredKeys: ["query"] }),
  vault_read: fc.record({ path: fc.constantFrom(...NOTE_PATHS) }),
  vault_write: fc.record({ path: fc.constantFrom(...NOTE_PATHS), content: prose }),
  vault_list: fc.constantFrom({}, { prefix: "notes/" }),
  task_create: fc.record({ title: word }),
  task_update: fc.record({ id: fc.constantFrom("t1", "nope"), status: fc.constantFrom("open", "done") }),
  task_list: fc.constantFrom({}, { status: "open" }),
  delegate: fc.record(
    { task: prose.map((t) => `look into ${t}`), token_budget: fc.integer({ min: 1000, max: 20000 }) },
    { requiredKeys: ["task"] },
  ),
};
export const TOOL_NAMES = Object.keys(validArgs);

const brokenArgs = fc.constantFrom<unknown>({}, { query: 5 }, { path: "" }, { title: "" }, { question: 7 }, [1]);

const latency = fc.oneof(
  { weight: 6, arbitrary: fc.constant(0) },
  { weight: 3, arbitrary: fc.integer({ min: 1, max: 5000 }) },
  { weight: 1, arbitrary: fc.integer({ min: 25_000, max: 40_000 }) },
);

const callArb: fc.Arbitrary<ToolCallSpec> = fc
  .record({
    // Subagents twice as often: several in one step is where budgets are shared.
    name: fc.constantFrom(...TOOL_NAMES, "delegate", "no_such_tool"),
    broken: fc.oneof({ weight: 5, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.constant(true) }),
    raw: fc.oneof({ weight: 12, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: fc.constant("{broken") }),
    latencyMs: latency,
    fault: fc.constantFrom(undefined, undefined, undefined, undefined, undefined, undefined, "throw", "hang"),
    seed: fc.integer({ min: 0, max: 1000 }),
  })
  .chain(({ name, broken, raw, latencyMs, fault, seed }) =>
    (broken ? brokenArgs : (validArgs[name] ?? fc.constant({ seed }))).map(
      (args): ToolCallSpec => ({
        name,
        args,
        latencyMs,
        ...(raw ? { raw } : {}),
        ...(fault ? { fault } : {}),
      }),
    ),
  );

const usage = fc.tuple(fc.integer({ min: 20, max: 3000 }), fc.integer({ min: 1, max: 400 }));
const modelLatency = fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 8000 }));

const control = fc.constantFrom(
  "",
  '\n```json\n{"finish": true, "final_answer": "All done."}\n```',
  '\n{"should_continue": false, "final_answer": "Done."}',
  '\n{"should_continue": true}',
  '\n```json\n{"finish": false, "plan": "read"}\n```',
);

const textReply: fc.Arbitrary<Reply> = fc.record({
  kind: fc.constant("text" as const),
  text: fc.tuple(prose, control).map(([p, c]) => p + c),
  latencyMs: modelLatency,
  usage,
});

const toolsReply: fc.Arbitrary<Reply> = fc.record({
  kind: fc.constant("tools" as const),
  calls: fc.array(callArb, { minLength: 1, maxLength: 6 }),
  text: fc.oneof(fc.constant(""), prose),
  latencyMs: modelLatency,
  usage,
});

/** A run of identical calls, an A-B alternation, or one failing tool under changing arguments. */
const loopSegment: fc.Arbitrary<Reply[]> = fc
  .record({
    kind: fc.constantFrom("repeat", "alternate", "same_error"),
    a: callArb,
    b: callArb,
    n: fc.integer({ min: 2, max: 8 }),
    usage,
  })
  .map(({ kind, a, b, n, usage }) =>
    Array.from({ length: n }, (_, i): Reply => {
      const call =
        kind === "repeat"
          ? a
          : kind === "alternate"
            ? i % 2
              ? b
              : a
            : { name: "vault_read", args: { path: `missing-${i}.md` }, latencyMs: 0 };
      return { kind: "tools", calls: [call], text: "", latencyMs: 0, usage };
    }),
  );

const oddReply: fc.Arbitrary<Reply> = fc.oneof(
  fc.record({
    kind: fc.constant("refuse" as const),
    status: fc.constantFrom(400 as const, 429 as const, 503 as const),
  }),
  fc.record({ kind: fc.constant("break" as const), text: prose }),
  textReply.map((r) => ({ ...r, finish: "length" as const })),
);

const repliesArb: fc.Arbitrary<Reply[]> = fc
  .array(
    fc.oneof(
      { weight: 12, arbitrary: toolsReply.map((r) => [r]) },
      { weight: 3, arbitrary: loopSegment },
      { weight: 1, arbitrary: textReply.map((r) => [r]) },
      { weight: 1, arbitrary: oddReply.map((r) => [r]) },
    ),
    { maxLength: 30 },
  )
  .map((segments) => segments.flat());

const answerArb: fc.Arbitrary<Answer> = fc.oneof(
  fc.record({ kind: fc.constant("answer" as const), text: prose, afterMs: fc.integer({ min: 0, max: 20_000 }) }),
  fc.constant({ kind: "timeout" as const }),
);

const stopArb: fc.Arbitrary<StopPlan> = fc.record({
  at: fc.constantFrom("model", "tool", "input"),
  index: fc.integer({ min: 0, max: 8 }),
  afterMs: fc.integer({ min: 0, max: 3000 }),
});

const turnArb: fc.Arbitrary<TurnScript> = fc.record(
  {
    user: fc.oneof(prose, fc.string({ unit: "grapheme", maxLength: 60 })).map((u) => `Q: ${u}`),
    replies: repliesArb,
    answers: fc.array(answerArb, { maxLength: 4 }),
    stop: stopArb,
    subagentSpend: fc.array(fc.integer({ min: 0, max: 130 }), { maxLength: 6 }),
  },
  { requiredKeys: ["user", "replies", "answers", "subagentSpend"] },
);

const treeArb: fc.Arbitrary<TreeScript> = fc.oneof(
  fc.constant({ name: "default" as const }),
  fc.constant({ name: "roa" as const }),
  fc.record({
    name: fc.constant("random" as const),
    phases: fc.array(
      fc.array(fc.constantFrom("reason" as const, "act" as const, "observe" as const), { minLength: 1, maxLength: 3 }),
      { minLength: 1, maxLength: 3 },
    ),
  }),
);

export const runArb: fc.Arbitrary<RunScript> = fc.record(
  {
    config: configArb,
    tree: treeArb,
    turns: fc.array(turnArb, { minLength: 1, maxLength: 3 }),
    contextWindow: fc.integer({ min: MIN_CONTEXT_WINDOW, max: 12_000 }),
  },
  { requiredKeys: ["config", "tree", "turns"] },
);
