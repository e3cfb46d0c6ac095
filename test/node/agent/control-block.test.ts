import { describe, expect, it } from "vitest";
import { extractControlBlock } from "../../../agent/decision-trees/control-block";

describe("extractControlBlock", () => {
  it("takes a fenced json block off the end and keeps the prose", () => {
    const text = 'I will search the vault.\n```json\n{"plan": "search", "finish": false}\n```';
    expect(extractControlBlock(text)).toEqual({
      prose: "I will search the vault.",
      control: { plan: "search", finish: false },
    });
  });

  it("reads a fenced block without a language tag, and nested objects in it", () => {
    const text = 'Done.\n```\n{"observation": "ok", "meta": {"n": 1}, "should_continue": false}\n```\n';
    expect(extractControlBlock(text).control).toEqual({ observation: "ok", meta: { n: 1 }, should_continue: false });
  });

  it("uses the last fenced block when there are several", () => {
    const text = 'Example: ```json\n{"finish": false}\n```\nReal one:\n```json\n{"finish": true}\n```';
    const { prose, control } = extractControlBlock(text);
    expect(control).toEqual({ finish: true });
    expect(prose).toContain("Example:");
    expect(prose).not.toContain("Real one:\n```");
  });

  it("reads a bare trailing object", () => {
    expect(extractControlBlock('Thinking it over.\n{"finish": true, "final_answer": "42"}')).toEqual({
      prose: "Thinking it over.",
      control: { finish: true, final_answer: "42" },
    });
  });

  it("ignores an object that is not at the end", () => {
    const text = 'The config is {"a": 1} and that is all.';
    expect(extractControlBlock(text)).toEqual({ prose: text, control: undefined });
  });

  it("tolerates single quotes, trailing commas and Python literals", () => {
    const text = "Plan.\n```json\n{'plan': 'look', 'finish': True, 'x': None, 'y': False,}\n```";
    expect(extractControlBlock(text).control).toEqual({ plan: "look", finish: true, x: null, y: false });
  });

  it("treats a broken block as free text", () => {
    const text = 'Answer here.\n```json\n{"finish": tru\n```';
    expect(extractControlBlock(`  ${text}  `)).toEqual({ prose: text, control: undefined });
  });

  it("does not take an array or plain prose for a control block", () => {
    expect(extractControlBlock("No block at all.").control).toBeUndefined();
    expect(extractControlBlock('List:\n```json\n["a"]\n```').control).toBeUndefined();
  });

  it("keeps apostrophes inside strings when it has to repair a trailing comma", () => {
    const text = '```json\n{"plan": "I don\'t know, so I\'ll search", "finish": false,}\n```';
    expect(extractControlBlock(text).control).toEqual({ plan: "I don't know, so I'll search", finish: false });
  });
});
