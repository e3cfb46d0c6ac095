// The offline demo model: planDemoReply is a pure function of the prompt and the offered tool names.
// Prompts are built by hand the way the agent loop builds them (system prompt, history, tool results,
// a trailing phase instruction rendered from the real templates).
import type { LanguageModelV3Message, LanguageModelV3Prompt } from "@ai-sdk/provider";
import { streamText, type ToolSet, tool } from "ai";
import { describe, expect, it } from "vitest";
import {
  extractControlBlock,
  ObserveControlSchema,
  ReasonControlSchema,
} from "../../../agent/decision-trees/control-block";
import { roaTree } from "../../../agent/decision-trees/roa-tree";
import { createDemoModel, demoChunks, WORDS_PER_CHUNK } from "../../../agent/demo/demo-model";
import { delegatedTask, LOOP_NOTE } from "../../../agent/demo/intent";
import { type DemoReply, planDemoReply } from "../../../agent/demo/script";
import { render } from "../../../agent/prompts/prompts.generated";
import { createState } from "../../../agent/state";
import { BUILTIN_TOOLS } from "../../../agent/tools";
import { delegateTool } from "../../../agent/tools/delegate";
import { notApprovedText } from "../../../agent/tools/not-approved";
import { DEFAULT_AGENT_CONFIG } from "../../../protocol";

const TOOLS = BUILTIN_TOOLS.map((t) => t.name);

const system = (content: string): LanguageModelV3Message => ({ role: "system", content });
const user = (text: string): LanguageModelV3Message => ({ role: "user", content: [{ type: "text", text }] });
const assistant = (text: string): LanguageModelV3Message => ({ role: "assistant", content: [{ type: "text", text }] });
const called = (id: string, toolName: string, input: unknown): LanguageModelV3Message => ({
  role: "assistant",
  content: [{ type: "tool-call", toolCallId: id, toolName, input }],
});
const result = (id: string, toolName: string, value: unknown): LanguageModelV3Message => ({
  role: "tool",
  content: [{ type: "tool-result", toolCallId: id, toolName, output: { type: "text", value: JSON.stringify(value) } }],
});
const failure = (id: string, toolName: string, error: string): LanguageModelV3Message => ({
  role: "tool",
  content: [{ type: "tool-result", toolCallId: id, toolName, output: { type: "error-text", value: error } }],
});

/** A conversation as the loop sends it: the system prompt, then the history. */
const conversation = (...messages: LanguageModelV3Message[]): LanguageModelV3Prompt => [
  system(render("system", { tools: TOOLS })),
  ...messages,
];
const phase = (name: "reason" | "act" | "observe", step = 1) =>
  system(render(name, { step, maxSteps: 15, tools: TOOLS }));
const wrapUp = (why: string) => system(render("wrap-up", { why }));

const onlyCall = (reply: DemoReply) => {
  expect(reply.toolCalls).toHaveLength(1);
  return reply.toolCalls[0];
};

describe("planDemoReply: what the user asks for", () => {
  it("thinks when asked to: a reasoning block before a short answer, and none once tools have answered", () => {
    const reply = planDemoReply(conversation(user("think about what to plan first")), TOOLS);
    expect(reply.reasoning).toMatch(/^The user asks: "think about what to plan first"/);
    expect(reply.text).toMatch(/^I thought it over/);
    expect(reply.text).not.toContain("Try:");
    // A request with a tool still gets its tool, and no second thinking after the result.
    const search = planDemoReply(conversation(user("think, then search my notes for budget")), TOOLS);
    expect(onlyCall(search)?.name).toBe("vault_search");
    const after = planDemoReply(
      conversation(
        user("think, then search my notes for budget"),
        called("c1", "vault_search", { query: "budget" }),
        result("c1", "vault_search", { results: [] }),
      ),
      TOOLS,
    );
    expect(after.reasoning).toBeUndefined();
  });

  it("answers a plain message with what the demo can do, listing the trigger phrases", () => {
    const reply = planDemoReply(conversation(user("Hello Oracle, what do you know?")), TOOLS);
    expect(reply.toolCalls).toEqual([]);
    expect(reply.text).toMatch(/offline demo model/);
    for (const phrase of ["search my notes for", "write a note", "add task", "ask me a question", "loop", "long story"])
      expect(reply.text).toContain(phrase);
    // Plain words (no tool names), and the closing line a paragraph of its own after the list.
    expect(reply.text).not.toMatch(/vault_|task_|request_input/);
    expect(reply.text).toMatch(/\n- [^\n]+\n\nPick the “roa” tree/);
  });

  it("answers a call the user denied in its own words, never with the instruction it was given", () => {
    const denied = notApprovedText("task_create", "denied");
    const reply = planDemoReply(
      conversation(
        user("add task buy milk"),
        called("c1", "task_create", { title: "buy milk" }),
        failure("c1", "task_create", denied),
      ),
      TOOLS,
    );
    expect(reply.toolCalls).toEqual([]);
    expect(reply.text).toBe("OK, I won't run it. Here is what I would have done: add “buy milk” to your tasks.");
    const late = planDemoReply(
      conversation(
        user("write a note: milk"),
        called("c1", "vault_write", {}),
        failure("c1", "vault_write", notApprovedText("vault_write", "timed_out")),
      ),
      TOOLS,
    );
    expect(late.text).toMatch(
      /^Nobody approved it in time, so I did not run it\. Here is what I would have done: save/,
    );
    for (const text of [reply.text, late.text]) expect(text).not.toMatch(/Do not|denied this call|Not run:/);
  });

  it.each([
    ["search my notes for budget meeting", "vault_search", { query: "budget meeting" }],
    ['find "quarterly plan" in my notes', "vault_search", { query: "quarterly plan" }],
    ["search oracle", "vault_search", { query: "oracle" }],
    ["search my notes for plan @plan.md #writing-style /summarize", "vault_search", { query: "plan" }],
    ["list my notes", "vault_list", {}],
    ["what is in my vault?", "vault_list", {}],
    [
      "write a note: buy milk and eggs",
      "vault_write",
      { path: "notes/buy-milk-and-eggs.md", content: "buy milk and eggs" },
    ],
    ["write a note called Shopping: milk", "vault_write", { path: "notes/shopping.md", content: "milk" }],
    ["show my tasks", "task_list", {}],
    ["what is on my todo list", "task_list", {}],
    ["add task water the plants", "task_create", { title: "water the plants" }],
    ["remember that I prefer metric units", "memory", { action: "save", text: "The user prefers metric units." }],
    ["Remember: my boat is called Skarv!", "memory", { action: "save", text: "The user's boat is called Skarv." }],
    ["please add a task: call Bob.", "task_create", { title: "call Bob" }],
    ["ask me a question", "request_input", { question: expect.stringContaining("?") }],
    ["can you clarify what you need", "request_input", { question: expect.any(String) }],
    ["loop", "vault_read", { path: LOOP_NOTE }],
    ["repeat yourself please", "vault_read", { path: LOOP_NOTE }],
    [
      "remind me on Friday at 9",
      "schedule",
      { action: "create", name: "Reminder", text: "Reminder: this is the one you asked for.", at: "friday at 9" },
    ],
    [
      "Remind me every day at 8 to water the plants.",
      "schedule",
      { action: "create", text: "Reminder: water the plants", repeat: "every day at 8" },
    ],
    [
      "please remind me to call mum tomorrow at 8:30am",
      "schedule",
      { action: "create", text: "Reminder: call mum", at: "tomorrow at 8:30am" },
    ],
    [
      "remind me every mon and fri at 7pm: stretch",
      "schedule",
      { action: "create", text: "Reminder: stretch", repeat: "every mon and fri at 7pm" },
    ],
    [
      "remind me to put on sun cream on sat at 10",
      "schedule",
      { action: "create", text: "Reminder: put on sun cream", at: "sat at 10" },
    ],
  ])("%s → %s", (message, tool, args) => {
    const call = onlyCall(planDemoReply(conversation(user(message)), TOOLS));
    expect(call?.name).toBe(tool);
    expect(call?.args).toEqual(args);
    // The arguments pass the tool's own schema, as the loop will check.
    const schema = BUILTIN_TOOLS.find((t) => t.name === tool)?.args;
    expect(schema?.safeParse(call?.args).success).toBe(true);
  });

  it("uses a tool only when it is offered", () => {
    const reply = planDemoReply(conversation(user("search my notes for budget")), ["task_list"]);
    expect(reply.toolCalls).toEqual([]);
    expect(reply.text).toMatch(/demo/);
  });

  it("reads the last user message, not an earlier one", () => {
    const prompt = conversation(user("show my tasks"), assistant("You have no tasks."), user("hello again"));
    expect(planDemoReply(prompt, TOOLS).toolCalls).toEqual([]);
  });

  it("streams a long story for the Stop demo, with no tools", () => {
    const reply = planDemoReply(conversation(user("tell me a long story")), TOOLS);
    expect(reply.toolCalls).toEqual([]);
    expect(reply.text.split(/\s+/).length).toBeGreaterThan(600);
  });

  it("streams a long text in chunks of a few words that add up to the text", async () => {
    const { text } = planDemoReply(conversation(user("tell me a long story")), TOOLS);
    const chunks = demoChunks(text);
    expect(chunks.join("")).toBe(text.trimStart());
    expect(chunks.length).toBeGreaterThan(100);
    for (const chunk of chunks) expect(chunk.trim().split(/\s+/).length).toBeLessThanOrEqual(WORDS_PER_CHUNK);
  });

  it("is deterministic", () => {
    const prompt = conversation(user("search my notes for budget"));
    expect(planDemoReply(prompt, TOOLS)).toEqual(planDemoReply(structuredClone(prompt), [...TOOLS]));
  });
});

describe("planDemoReply: after tool results", () => {
  it("reads the best search hit, then answers with the hits and a quote", () => {
    const asked = user("search my notes for budget");
    const hits = {
      results: [
        { path: "work/budget.md", snippet: "the **budget**" },
        { path: "b.md", snippet: "" },
      ],
    };
    const afterSearch = conversation(
      asked,
      called("c1", "vault_search", { query: "budget" }),
      result("c1", "vault_search", hits),
    );
    const read = onlyCall(planDemoReply(afterSearch, TOOLS));
    expect(read).toMatchObject({ name: "vault_read", args: { path: "work/budget.md" } });

    const afterRead = [
      ...afterSearch,
      called("c2", "vault_read", { path: "work/budget.md" }),
      result("c2", "vault_read", { path: "work/budget.md", content: "# Budget\n\nQ3: 12k.\n- rent" }),
    ];
    const answer = planDemoReply(afterRead, TOOLS);
    expect(answer.toolCalls).toEqual([]);
    expect(answer.text).toContain("2 notes");
    expect(answer.text).toContain("work/budget.md");
    // Quoted line by line, so the note's own markdown (a heading, a list) still reads as such.
    expect(answer.text).toContain("says:\n> # Budget\n>\n> Q3: 12k.\n> - rent");
  });

  it("says so when the search finds nothing", () => {
    const prompt = conversation(
      user("search my notes for zebra"),
      called("c1", "vault_search", { query: "zebra" }),
      result("c1", "vault_search", { results: [] }),
    );
    const reply = planDemoReply(prompt, TOOLS);
    expect(reply.toolCalls).toEqual([]);
    expect(reply.text).toMatch(/no notes matching “zebra”/);
  });

  it("quotes the answer request_input brought back", () => {
    const prompt = conversation(
      user("ask me a question"),
      called("c1", "request_input", { question: "What should I call you?" }),
      result("c1", "request_input", { answer: "Ada" }),
    );
    const reply = planDemoReply(prompt, TOOLS);
    expect(reply.toolCalls).toEqual([]);
    expect(reply.text).toContain("“Ada”");
  });

  it("lists tasks and notes, confirms writes and new tasks, and reports failures", () => {
    const answer = (message: string, tool: string, value: unknown) =>
      planDemoReply(conversation(user(message), called("c1", tool, {}), result("c1", tool, value)), TOOLS);
    const tasks = { tasks: [{ id: "1", title: "Water plants", status: "open" }] };
    expect(answer("show my tasks", "task_list", tasks).text).toContain("- Water plants (open)");
    expect(answer("list my notes", "vault_list", { notes: [{ path: "a.md" }, { path: "b.md" }] }).text).toContain(
      "2 notes",
    );
    expect(answer("add task water plants", "task_create", { title: "water plants", status: "open" }).text).toContain(
      "Added the task “water plants”",
    );
    expect(answer("write a note: hi", "vault_write", { path: "notes/hi.md", bytes: 2, created: true }).text).toContain(
      "notes/hi.md",
    );
    const memory = { action: "save", memory: { id: "m_1", text: "The user likes tea." } };
    expect(answer("remember that I like tea", "memory", memory).text).toContain(
      "I will remember: “The user likes tea.”",
    );
    const failed = planDemoReply(
      conversation(user("show my tasks"), called("c1", "task_list", {}), failure("c1", "task_list", "db down")),
      TOOLS,
    );
    expect(failed.toolCalls).toEqual([]);
    expect(failed.text).toContain("db down");
  });

  it("calls an offered MCP tool the message names, with the JSON object after it, and quotes its answer", () => {
    const offered = [...TOOLS, "local__echo"];
    const ask = 'call local__echo {"text": "hi"}';
    expect(onlyCall(planDemoReply(conversation(user(ask)), offered))).toMatchObject({
      name: "local__echo",
      args: { text: "hi" },
    });
    const answered = planDemoReply(
      conversation(user(ask), called("c1", "local__echo", { text: "hi" }), result("c1", "local__echo", "echo: hi")),
      offered,
    );
    expect(answered.toolCalls).toEqual([]);
    expect(answered.text).toContain("> echo: hi");
    // A name that is not offered (no such server, or switched off) is just text.
    expect(planDemoReply(conversation(user("call other__echo {}")), offered).toolCalls).toEqual([]);
  });

  it("reads a page the message links to and quotes how it begins, citing it; searches the web when asked", () => {
    const ask = "What does https://news.example.com/story say?";
    expect(onlyCall(planDemoReply(conversation(user(ask)), TOOLS))).toMatchObject({
      name: "web_fetch",
      args: { url: "https://news.example.com/story" },
    });
    const page = {
      n: 4,
      url: "https://news.example.com/story",
      title: "Rivers rise",
      text: "The river rose 2 metres.",
    };
    const read = planDemoReply(
      conversation(user(ask), called("w1", "web_fetch", { url: page.url }), result("w1", "web_fetch", page)),
      TOOLS,
    );
    expect(read.toolCalls).toEqual([]);
    expect(read.text).toContain("“Rivers rise” [4]");
    expect(read.text).toContain("> The river rose 2 metres.");
    const failed = planDemoReply(
      conversation(user(ask), called("w1", "web_fetch", {}), failure("w1", "web_fetch", "Could not read it: timeout")),
      TOOLS,
    );
    expect(failed.text).toContain("timeout");

    const search = "search the web for river levels in Paris";
    expect(onlyCall(planDemoReply(conversation(user(search)), TOOLS))).toMatchObject({
      name: "web_search",
      args: { query: "river levels in Paris" },
    });
    const found = { results: [{ n: 1, title: "Seine levels", url: "https://a.example/", snippet: "High water" }] };
    const listed = planDemoReply(
      conversation(user(search), called("s1", "web_search", {}), result("s1", "web_search", found)),
      TOOLS,
    );
    expect(listed.text).toContain("- Seine levels: High water [1]");
    // Neither tool offered (switched off): no web call.
    const offline = TOOLS.filter((t) => !t.startsWith("web_"));
    expect(planDemoReply(conversation(user(ask)), offline).toolCalls).toEqual([]);
    expect(planDemoReply(conversation(user(search)), offline).toolCalls.map((c) => c.name)).not.toContain("web_search");
  });

  it("says in words what it scheduled and when, asks when if no time was said, and answers a reminder's run", () => {
    const asked = "remind me on Friday at 9 to call the bank";
    const call = onlyCall(planDemoReply(conversation(user(asked)), TOOLS));
    expect(call).toMatchObject({ name: "schedule", args: { at: "friday at 9", text: "Reminder: call the bank" } });
    const saved = {
      name: "Reminder: call the bank",
      text: "Reminder: call the bank",
      rule: "Once, 2026-11-27 09:00 (Europe/Paris)",
    };
    const done = planDemoReply(
      conversation(user(asked), called("s1", "schedule", call?.args), result("s1", "schedule", saved)),
      TOOLS,
    );
    expect(done.toolCalls).toEqual([]);
    expect(done.text).toBe(
      "Scheduled: I will post “Reminder: call the bank” in this conversation on Friday 2026-11-27 at 09:00 (Europe/Paris), and answer it then. You can pause, change or delete it on the Schedules page.",
    );
    const refused = planDemoReply(
      conversation(user(asked), called("s1", "schedule", call?.args), failure("s1", "schedule", "at is in the past")),
      TOOLS,
    );
    expect(refused.text).toBe("I could not schedule it: at is in the past.");

    const when = planDemoReply(conversation(user("remind me to call mum")), TOOLS);
    expect(when.toolCalls).toEqual([]);
    expect(when.text).toMatch(/^Tell me when/);
    // Not offered (a subagent's tools): no schedule, the tour.
    expect(planDemoReply(conversation(user(asked)), ["vault_list"]).text).toMatch(/offline demo model/);
    // The run's own message is answered as the reminder, never scheduled again.
    const run = planDemoReply(conversation(user("Reminder: call the bank")), TOOLS);
    expect(run.toolCalls).toEqual([]);
    expect(run.text).toMatch(/^⏰ Call the bank/);
  });

  it("repeats the same vault_read for the loop demo, with a new call id each time", () => {
    let prompt = conversation(user("loop"));
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const call = onlyCall(planDemoReply(prompt, TOOLS));
      expect(call).toMatchObject({ name: "vault_read", args: { path: LOOP_NOTE } });
      ids.push(call?.id ?? "");
      prompt = [
        ...prompt,
        called(call?.id ?? "", "vault_read", call?.args),
        failure(call?.id ?? "", "vault_read", "No note"),
      ];
    }
    expect(new Set(ids).size).toBe(3);
  });

  it("answers after a tool result even when a system item follows it", () => {
    const prompt = conversation(
      user("show my tasks"),
      called("c1", "task_list", {}),
      result("c1", "task_list", { tasks: [] }),
      system("<system-reminder>Budget: 70% of the iterations used.</system-reminder>"),
    );
    const reply = planDemoReply(prompt, TOOLS);
    expect(reply.toolCalls).toEqual([]);
    expect(reply.text).toMatch(/no tasks yet/);
  });
});

describe("planDemoReply: reason → act → observe and wrap-up", () => {
  it("plans a tool in the reason phase (no tools offered then) with a parseable control block", () => {
    const reply = planDemoReply(conversation(user("search my notes for budget"), phase("reason")), []);
    expect(reply.toolCalls).toEqual([]);
    const { prose, control } = extractControlBlock(reply.text);
    expect(prose).toMatch(/budget/);
    const parsed = ReasonControlSchema.parse(control);
    expect(parsed).toMatchObject({ finish: false, tools_to_consider: ["vault_search"] });
    expect(parsed.plan).toBeTruthy();
  });

  it("finishes in the reason phase with a final answer when no tool is needed", () => {
    const reply = planDemoReply(conversation(user("hello"), phase("reason")), []);
    const parsed = ReasonControlSchema.parse(extractControlBlock(reply.text).control);
    expect(parsed.finish).toBe(true);
    expect(parsed.final_answer).toMatch(/offline demo model/);
    const verdict = roaTree.onPhaseResult(createState(DEFAULT_AGENT_CONFIG), {
      plan: { phase: "reason", tools: false },
      text: reply.text,
      toolCallCount: 0,
    });
    expect(verdict.answer).toBe(parsed.final_answer);
  });

  it("calls the planned tool in the act phase", () => {
    const prompt = conversation(user("show my tasks"), assistant("Plan: look at the tasks."), phase("act"));
    expect(onlyCall(planDemoReply(prompt, TOOLS))?.name).toBe("task_list");
  });

  it("observes the results and ends with the final answer", () => {
    const prompt = conversation(
      user("ask me a question"),
      assistant("Plan: ask."),
      called("c1", "request_input", { question: "?" }),
      result("c1", "request_input", { answer: "Grace" }),
      phase("observe"),
    );
    const reply = planDemoReply(prompt, []);
    expect(reply.toolCalls).toEqual([]);
    const { prose, control } = extractControlBlock(reply.text);
    expect(prose).toContain("Grace");
    const parsed = ObserveControlSchema.parse(control);
    expect(parsed.should_continue).toBe(false);
    expect(parsed.final_answer).toContain("“Grace”");
    const verdict = roaTree.onPhaseResult(createState(DEFAULT_AGENT_CONFIG), {
      plan: { phase: "observe", tools: false },
      text: reply.text,
      toolCallCount: 0,
    });
    expect(verdict.state.finished).toBe(true);
  });

  it("asks for another step when the plan needs one more tool", () => {
    const prompt = conversation(
      user("search my notes for budget"),
      assistant("Plan: search."),
      called("c1", "vault_search", { query: "budget" }),
      result("c1", "vault_search", { results: [{ path: "budget.md", snippet: "" }] }),
      phase("observe"),
    );
    const parsed = ObserveControlSchema.parse(extractControlBlock(planDemoReply(prompt, []).text).control);
    expect(parsed).toMatchObject({ should_continue: true });
    const loop = conversation(
      user("loop"),
      called("c1", "vault_read", { path: LOOP_NOTE }),
      failure("c1", "vault_read", "No note"),
      phase("observe"),
    );
    expect(ObserveControlSchema.parse(extractControlBlock(planDemoReply(loop, []).text).control)).toMatchObject({
      should_continue: true,
    });
  });

  it("wraps up with a short summary and no tools", () => {
    const read = (id: string) => [called(id, "vault_read", { path: LOOP_NOTE }), failure(id, "vault_read", "No note")];
    const prompt = conversation(
      user("loop"),
      ...read("a"),
      ...read("b"),
      ...read("c"),
      wrapUp("you were repeating the same action."),
    );
    const reply = planDemoReply(prompt, []);
    expect(reply.toolCalls).toEqual([]);
    expect(reply.text).toContain("3 times");
    expect(reply.text).toMatch(/loop/);
    // It does not name the limit: the explanation appended to the saved answer names the real one.
    expect(reply.text).not.toMatch(/loop detector|iteration limit/);
    const other = planDemoReply(conversation(user("show my tasks"), wrapUp("the iteration limit is reached.")), TOOLS);
    expect(other.toolCalls).toEqual([]);
  });
});

describe("planDemoReply: delegating to a subagent", () => {
  // What a root conversation offers, and what a subagent gets (no request_input, no delegate at the
  // deepest level).
  const PARENT_TOOLS = [...TOOLS, delegateTool.name];
  const CHILD_TOOLS = TOOLS.filter((t) => t !== "request_input");
  const parentConversation = (...messages: LanguageModelV3Message[]): LanguageModelV3Prompt => [
    system(render("system", { tools: PARENT_TOOLS })),
    ...messages,
  ];
  const childConversation = (...messages: LanguageModelV3Message[]): LanguageModelV3Prompt => [
    system(render("system", { tools: CHILD_TOOLS })),
    ...messages,
  ];

  it("delegates the listing of notes, the subagent lists them, the parent quotes its answer", () => {
    const asked = user("delegate listing my notes to a subagent");
    const call = onlyCall(planDemoReply(parentConversation(asked), PARENT_TOOLS));
    expect(call).toMatchObject({ name: "delegate", args: { task: "Look through the vault and list the notes." } });
    expect(delegateTool.args.safeParse(call?.args).success).toBe(true);

    // The subagent's own conversation: its user message is the task.
    const task = user(String(call?.args.task));
    const childCall = onlyCall(planDemoReply(childConversation(task), CHILD_TOOLS));
    expect(childCall).toMatchObject({ name: "vault_list", args: {} });
    const childAnswer = planDemoReply(
      childConversation(
        task,
        called("k1", "vault_list", {}),
        result("k1", "vault_list", { notes: [{ path: "a.md" }, { path: "plan.md" }] }),
      ),
      CHILD_TOOLS,
    );
    expect(childAnswer.toolCalls).toEqual([]);
    expect(childAnswer.text).toContain("2 notes");

    const parentAnswer = planDemoReply(
      parentConversation(
        asked,
        called("c1", "delegate", call?.args),
        result("c1", "delegate", {
          conversation_id: "child-1",
          pod_name: "subagent-child-1",
          answer: childAnswer.text,
          termination_reason: "completed",
          steps: 2,
          usage: { input_tokens: 1, output_tokens: 1, total_tokens: 2 },
        }),
      ),
      PARENT_TOOLS,
    );
    expect(parentAnswer.toolCalls).toEqual([]);
    // The subagent by what it did, not by its internal pod name.
    expect(parentAnswer.text).toContain("The subagent did it in its own conversation");
    expect(parentAnswer.text).not.toContain("subagent-child-1");
    expect(parentAnswer.text).toContain("> - plan.md");
  });

  it.each([
    ["delegate listing my notes to a subagent", "Look through the vault and list the notes."],
    ["ask a subagent to list my notes", "Look through the vault and list the notes."],
    [
      "delegate a search of my notes for plan to a subagent",
      "Search the notes for “plan” and report what the best match says.",
    ],
    ["use a subagent to show my tasks", "Look at the task list and report every task with its status."],
    ["delegate: add task call Bob", "Add a task: call Bob"],
    ["subagent, tell me a long story", "Tell me a long story."],
    [
      "delegate listing my notes to a nested subagent",
      "Delegate to a subagent: Look through the vault and list the notes.",
    ],
  ])("%s → the task %s", (message, task) => {
    expect(delegatedTask(message)).toBe(task);
    expect(onlyCall(planDemoReply(parentConversation(user(message)), PARENT_TOOLS))?.args).toEqual({ task });
  });

  it("words the task so the subagent does the work itself, and a nested one delegates once more", () => {
    for (const message of ["delegate listing my notes to a subagent", "delegate a search of my notes for plan"]) {
      const task = delegatedTask(message);
      expect(task).not.toMatch(/delegat|sub-?agent/i);
      // Even when the subagent may delegate further, it uses the tool the task asks for.
      const call = onlyCall(planDemoReply(childConversation(user(task)), [...CHILD_TOOLS, "delegate"]));
      expect(call?.name).toMatch(/^vault_/);
    }
    const nested = delegatedTask("delegate listing my notes to a nested subagent");
    const again = onlyCall(planDemoReply(childConversation(user(nested)), [...CHILD_TOOLS, "delegate"]));
    expect(again).toMatchObject({ name: "delegate", args: { task: "Look through the vault and list the notes." } });
  });

  it("does not delegate when delegate is not offered, and reports a failed delegation", () => {
    const plain = planDemoReply(conversation(user("delegate listing my notes to a subagent")), TOOLS);
    expect(plain.toolCalls.map((c) => c.name)).toEqual(["vault_list"]);
    const failed = planDemoReply(
      parentConversation(
        user("delegate listing my notes to a subagent"),
        called("c1", "delegate", { task: "x" }),
        failure("c1", "delegate", "Cancelled: subagent subagent-1 was stopped"),
      ),
      PARENT_TOOLS,
    );
    expect(failed.toolCalls).toEqual([]);
    expect(failed.text).toContain("could not finish");
  });

  it("plans the delegation in the reason phase of the roa tree", () => {
    const reply = planDemoReply(
      parentConversation(user("delegate listing my notes to a subagent"), phase("reason")),
      [],
    );
    const parsed = ReasonControlSchema.parse(extractControlBlock(reply.text).control);
    expect(parsed).toMatchObject({ finish: false, tools_to_consider: ["delegate"] });
  });
});

describe("createDemoModel through the AI SDK", () => {
  it("streams a tool call that streamText reports with parsed arguments", async () => {
    const tools: ToolSet = Object.fromEntries(
      BUILTIN_TOOLS.map((t) => [t.name, tool({ description: t.description, inputSchema: t.args })]),
    );
    const stream = streamText({
      model: createDemoModel(),
      system: render("system", { tools: TOOLS }),
      messages: [{ role: "user", content: "add task water the plants" }],
      tools,
    });
    const calls = await stream.toolCalls;
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({ toolName: "task_create", input: { title: "water the plants" } });
    expect(await stream.text).toContain("water the plants");
    expect(await stream.finishReason).toBe("tool-calls");
  });
});

describe("files attached (issue 45)", () => {
  const withImage: LanguageModelV3Message = {
    role: "user",
    content: [
      { type: "text", text: "here you go" },
      { type: "file", mediaType: "image/png", data: new Uint8Array([1]), filename: "chart.png" },
    ],
  };
  const inlineDoc = system("[File: notes.md (text/markdown, 1 KB, 3 lines)]\n# Plan\nShip on Friday.");
  const longDoc = system(
    '[File: book.pdf (PDF, 2 MB, 300 pages)]\nThis file is too long to show whole (about 90,000 tokens); its outline:\nPages: 300\nRead it with file_read (file: "f_book", pages: "1-5" or lines: "1-200") and find in it with file_search.',
  );

  it("says what it was given: the image and how a document begins", () => {
    const reply = planDemoReply(conversation(withImage, inlineDoc), TOOLS);
    expect(reply.toolCalls ?? []).toEqual([]);
    expect(reply.text).toContain("An image: chart.png.");
    expect(reply.text).toContain(
      "File: notes.md (text/markdown, 1 KB, 3 lines), which begins:\n> # Plan\n> Ship on Friday.",
    );
  });

  it("reads a long document's first page with file_read, then quotes it", () => {
    const first = planDemoReply(conversation(user("summarise this"), longDoc), TOOLS);
    expect(first.toolCalls?.[0]).toMatchObject({ name: "file_read", args: { file: "f_book", pages: "1" } });
    const id = first.toolCalls?.[0]?.id ?? "";
    const after = planDemoReply(
      conversation(
        user("summarise this"),
        longDoc,
        called(id, "file_read", {}),
        result(id, "file_read", { text: "[Page 1]\nChapter one." }),
      ),
      TOOLS,
    );
    expect(after.text).toContain("which begins:\n> [Page 1]\n> Chapter one.");
  });

  it("keeps a message's own request first: a search with a file attached is a search", () => {
    const reply = planDemoReply(conversation(user("search my notes for budget"), inlineDoc), TOOLS);
    expect(reply.toolCalls?.[0]?.name).toBe("vault_search");
  });
});
