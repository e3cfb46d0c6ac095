// Conversation titles as plain logic: the first message's title without markdown, the model's reply made
// into a title, the demo model's deterministic title, and when the title may be asked for at all.
import { describe, expect, it } from "vitest";
import {
  demoTitle,
  firstExchange,
  firstMessageOfTitlePrompt,
  isTitlePrompt,
  titlePrompt,
} from "../../agent/conversation-title";
import { createDemoModel } from "../../agent/demo/demo-model";
import { callModel } from "../../agent/llm/call-model";
import { cleanModelTitle, titleFrom } from "../../core/title-text";
import type { Message } from "../../protocol";

describe("the first message's title", () => {
  it.each([
    ["**cap cloud spend** at $500", "cap cloud spend at $500"],
    ["# Heading *with* _emphasis_ and `code`", "Heading with emphasis and code"],
    ["> quoted\nsecond line", "quoted"],
    ["- [ ] a task item", "a task item"],
    ["1. first step", "first step"],
    ["see [the docs](https://example.com) ![logo](x.png)", "see the docs logo"],
    ["```js\nconst total = 1;\n```", "const total = 1;"],
    ["keep snake_case_names intact", "keep snake_case_names intact"],
    ["~~old~~ new <b>bold</b>", "old new bold"],
    ["\n\n   \nreal first line\nsecond", "real first line"],
  ])("%j → %j", (input, title) => {
    expect(titleFrom(input)).toBe(title);
  });

  it("cuts a long line at 60 characters with an ellipsis", () => {
    const title = titleFrom(`**${"word ".repeat(30)}**`);
    expect(title.length).toBeLessThanOrEqual(60);
    expect(title.endsWith("…")).toBe(true);
    expect(title).not.toContain("*");
  });
});

describe("the model's title, cleaned", () => {
  it.each([
    ['"Cloud spend cap."', "Cloud spend cap"],
    ["Title: **Budget review**!", "Budget review"],
    ["“Trip to Lisbon”", "Trip to Lisbon"],
    ["`Fix the build` \nextra line", "Fix the build"],
    ["...", ""],
    ["", ""],
  ])("%j → %j", (reply, title) => {
    expect(cleanModelTitle(reply)).toBe(title);
  });

  it("keeps at most 60 characters, cut at a word", () => {
    const title = cleanModelTitle("A very long title that the model wrote despite being asked for six words only");
    expect(title.length).toBeLessThanOrEqual(60);
    expect(title).toBe("A very long title that the model wrote despite being asked");
  });
});

describe("the demo model's title", () => {
  it("is a few key words of the first message, plain text, capitalised", () => {
    expect(demoTitle("**cap cloud spend** at 500 a month, please")).toBe("Cap cloud spend 500 month");
    expect(demoTitle('call demo-tools__echo {"text": "hi"}')).toBe("Demo-tools echo");
    expect(demoTitle("ask me a question")).toBe("Ask question");
    expect(demoTitle("the a of")).toBe("Quick chat");
  });

  it("answers the title request through the model interface, like a real model", async () => {
    const prompt = titlePrompt("# Plan the *beta* launch", "Here is a plan…");
    expect(isTitlePrompt(prompt)).toBe(true);
    expect(firstMessageOfTitlePrompt(prompt)).toBe("# Plan the *beta* launch");
    const result = await callModel({
      model: createDemoModel(),
      prompt,
      signal: new AbortController().signal,
      deadline: Date.now(),
    });
    expect(cleanModelTitle(result.text)).toBe("Plan beta launch");
  });
});

describe("when a title is asked for", () => {
  const at = { id: "x", created_at: "2026-01-01T00:00:00Z" };
  const user = (seq: number, content: string): Message => ({ ...at, seq, role: "user", content });
  const agent = (seq: number, content: string, extra: Partial<Message> = {}): Message =>
    ({ ...at, seq, role: "agent", content, ...extra }) as Message;

  it("after the first final answer, with the first message", () => {
    const log = [
      user(1, "first"),
      agent(2, "thinking", { phase: "reason" } as Partial<Message>),
      agent(3, "the answer", { phase: "final", termination_reason: "completed" } as Partial<Message>),
      user(4, "second"),
    ];
    expect(firstExchange(log)).toEqual({ question: "first", answer: "the answer" });
  });

  it("never after a turn that failed or was stopped before any answer", () => {
    const failed = agent(2, "The model failed", {
      phase: "final",
      termination_reason: "llm_error",
    } as Partial<Message>);
    const stopped = agent(2, "Stopped", { phase: "final", termination_reason: "user_cancelled" } as Partial<Message>);
    expect(firstExchange([user(1, "hi"), failed])).toBeUndefined();
    expect(firstExchange([user(1, "hi"), stopped])).toBeUndefined();
    expect(firstExchange([user(1, "hi")])).toBeUndefined();
    expect(firstExchange([])).toBeUndefined();
  });
});
