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
  it("is the first message's subject in its own words: plain text, without an opener, capitalised", () => {
    expect(demoTitle("**cap cloud spend** at 500 a month, please")).toBe("Cap cloud spend at 500 a month");
    expect(demoTitle('call demo-tools__echo {"text": "hi"}')).toBe("Call demo-tools echo");
    expect(demoTitle("ask me a question")).toBe("Ask me a question");
    expect(demoTitle("tell me a long story")).toBe("Long story");
    expect(demoTitle("Hi. Can you summarise my notes? Thanks")).toBe("Summarise my notes");
    expect(demoTitle("What tasks are open?")).toBe("What tasks are open");
    expect(demoTitle("hello")).toBe("Hello");
  });

  it("is cut at a word (a clause's end where there is one), never hanging on a word that needs the rest", () => {
    // Issue 41: "Write note called code code" read as a garble.
    expect(demoTitle("Write a note called code with some code in it")).toBe("Write a note called code with some code");
    expect(demoTitle("Write a note called ideas: try the Oracle on a phone")).toBe("Write a note called ideas");
    expect(demoTitle("Could you explain how the Durable Objects hibernation API keeps sockets open")).toBe(
      "Explain how the Durable Objects",
    );
  });

  it("gives two different first messages two different titles, never one generic name", () => {
    // Issue 41: both of these were "Quick chat".
    const messages = ["What can you do?", "How are you?", "the a of", "Who are you", "What is this"];
    const titles = messages.map(demoTitle);
    expect(titles).toEqual(["What can you do", "How are you", "The a of", "Who are you", "What is this"]);
    expect(titles).not.toContain("Quick chat");
    // Nothing to name it after: no title, the first message's (or the default) stays.
    expect(demoTitle("👋 !!")).toBe("");
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
    expect(cleanModelTitle(result.text)).toBe("Plan the beta launch");
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

  it("after a stopped first answer too, with what it had written (maybe nothing), without the product's note", () => {
    const stopped = agent(2, "Once upon a time\n\n— Stopped by the user.", {
      phase: "final",
      termination_reason: "user_cancelled",
      note: "Stopped by the user.",
    } as Partial<Message>);
    expect(firstExchange([user(1, "tell me a long story"), stopped])).toEqual({
      question: "tell me a long story",
      answer: "Once upon a time",
    });
    const before = agent(2, "Stopped by the user.", {
      phase: "final",
      termination_reason: "user_cancelled",
      note: "Stopped by the user.",
    } as Partial<Message>);
    expect(firstExchange([user(1, "hi"), before])).toEqual({ question: "hi", answer: "" });
  });

  it("never after a turn whose model call failed, nor before any answer", () => {
    const failed = agent(2, "The model failed", {
      phase: "final",
      termination_reason: "llm_error",
    } as Partial<Message>);
    expect(firstExchange([user(1, "hi"), failed])).toBeUndefined();
    expect(firstExchange([user(1, "hi")])).toBeUndefined();
    expect(firstExchange([])).toBeUndefined();
  });
});
