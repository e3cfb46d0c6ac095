// The client's side of models and reasoning (issue 28), pure and without a browser: a step's reasoning
// as it streams and once its message arrives (conversation-state.ts), how long it thought in words, the
// server's plain words on a failed call split into a headline and what to do (termination.ts, `note`),
// and a conversation's cost with each answer priced at its own model's prices (token-usage.ts).
import { describe, expect, it } from "vitest";
import { type ConversationState, conversationReducer, INITIAL_STATE } from "../../client/src/lib/conversation-state";
import { answerParts, describeFailure } from "../../client/src/lib/termination";
import { thoughtFor } from "../../client/src/lib/thought-for";
import { conversationTotal } from "../../client/src/lib/token-usage";
import { parseRefKey, refKey } from "../../client/src/lib/use-models";
import type { Message, ModelInfo, ServerFrame } from "../../protocol";

const at = "2026-01-01T10:00:00.000Z";
const frames = (state: ConversationState, ...list: ServerFrame[]) =>
  list.reduce((s, frame) => conversationReducer(s, { type: "frame", frame }), state);

describe("a step's reasoning on the client", () => {
  it("gathers the deltas while the model thinks, stops its clock at the first text, and gives way to the message", () => {
    let state = frames(
      INITIAL_STATE,
      { type: "reasoning_delta", step: 1, delta: "Let me " },
      { type: "reasoning_delta", step: 1, delta: "think." },
    );
    const thinking = state.liveReasoning.get(1);
    expect(thinking).toMatchObject({ text: "Let me think." });
    expect(thinking?.endedAt).toBeUndefined();
    expect(state.turn.running).toBe(true);

    state = frames(state, { type: "text_delta", step: 1, delta: "Hi" });
    const done = state.liveReasoning.get(1);
    expect(done?.endedAt).toBeGreaterThanOrEqual(done?.startedAt ?? Number.POSITIVE_INFINITY);
    // More text does not move the end.
    expect(frames(state, { type: "text_delta", step: 1, delta: "!" }).liveReasoning.get(1)?.endedAt).toBe(
      done?.endedAt,
    );

    const message: Message = {
      seq: 2,
      id: "m2",
      created_at: at,
      role: "agent",
      content: "Hi!",
      step: 1,
      reasoning: { text: "Let me think.", duration_ms: 1200 },
    };
    state = frames(state, { type: "message", message });
    expect(state.liveReasoning.size).toBe(0);
    expect(state.liveText.size).toBe(0);
  });

  it("ends a tools-only step's thinking at its first tool call, and forgets it all when the turn ends", () => {
    let state = frames(
      INITIAL_STATE,
      { type: "reasoning_delta", step: 1, delta: "Listing." },
      { type: "tool_start", call_id: "c1", tool: "task_list", args: {}, step: 1 },
    );
    expect(state.liveReasoning.get(1)?.endedAt).toBeDefined();
    state = frames(state, { type: "reasoning_delta", step: 2, delta: "Next." });
    expect([...state.liveReasoning.keys()]).toEqual([1, 2]);
    state = frames(state, { type: "response_complete", termination_reason: "completed", steps: 2, usage: usage(1) });
    expect(state.liveReasoning.size).toBe(0);
  });

  it("says how long it thought", () => {
    expect(thoughtFor(300)).toBe("a moment");
    expect(thoughtFor(12_400)).toBe("12 s");
    expect(thoughtFor(65_000)).toBe("1 min 5 s");
    expect(thoughtFor(120_000)).toBe("2 min");
  });
});

describe("the product's words on a failed call", () => {
  it("shows the server's plain words, headline first, and keeps them apart from what the model wrote", () => {
    const note = "The model call failed: Mine refused the API key (HTTP 401). Check the key in Settings → Models.";
    const failure = describeFailure("llm_error", `Half an answer\n\n— ${note}`, note);
    expect(failure).toEqual({
      title: "Mine refused the API key (HTTP 401).",
      hint: "Check the key in Settings → Models.",
      partial: "Half an answer",
      detail: "",
    });
    // A host name's dots do not end the headline.
    const down = "The model call failed: Could not reach 127.0.0.1:9 (connection refused). Check the base URL.";
    expect(describeFailure("llm_error", down, down).title).toBe("Could not reach 127.0.0.1:9 (connection refused).");
    // One sentence only: the hint offers a retry or another model.
    const one = "The model call failed: The model call failed.";
    expect(describeFailure("llm_error", one, one).hint).toBe("Retry, or pick another model.");
  });

  it("takes the note off the answer's text, however the text itself ends", () => {
    const stop = "Stopped by the user.";
    expect(answerParts(`Chapter 1\n\n— ${stop}`, "user_cancelled", stop)).toEqual({
      body: "Chapter 1",
      note: "You stopped this answer",
    });
    // A text that happens to hold the mark keeps it: only the note is taken off.
    const text = "Quote:\n\n— Someone";
    expect(answerParts(`${text}\n\n— ${stop}`, "user_cancelled", stop).body).toBe(text);
    expect(answerParts(stop, "user_cancelled", stop)).toEqual({ body: "", note: "You stopped this answer" });
  });
});

const usage = (n: number) => ({ input_tokens: n, output_tokens: n, total_tokens: 2 * n });
const answer = (seq: number, model: ModelInfo | undefined, n: number): Message => ({
  seq,
  id: `a${seq}`,
  created_at: at,
  role: "agent",
  content: "x",
  phase: "final",
  termination_reason: "completed",
  usage: usage(n),
  ...(model ? { model } : {}),
});

describe("a conversation's cost", () => {
  const cheap = { provider: "openai", model: "a", prices: { input: 1, cached_input: 1, output: 1 } };
  const dear = { provider: "openai", model: "b", prices: { input: 10, cached_input: 10, output: 10 } };

  it("prices each answer at the prices of the model that wrote it", () => {
    const total = conversationTotal([answer(1, cheap, 1_000_000), answer(2, dear, 1_000_000)], undefined);
    expect(total?.usage.total_tokens).toBe(4_000_000);
    expect(total?.cost).toBe(2 + 20);
  });

  it("shows no cost when one answer's model has no prices, rather than half a sum", () => {
    const free = { provider: "openai", model: "local" };
    expect(conversationTotal([answer(1, cheap, 1000), answer(2, free, 1000)], undefined)?.cost).toBeUndefined();
    // An answer that does not say its model is priced at the conversation's.
    expect(conversationTotal([answer(1, undefined, 1_000_000)], cheap.prices)?.cost).toBe(2);
  });

  it("adds up the tokens spent thinking", () => {
    const a = { ...answer(1, cheap, 10), usage: { ...usage(10), reasoning_tokens: 4 } };
    const b = { ...answer(2, cheap, 10), usage: { ...usage(10), reasoning_tokens: 3 } };
    expect(conversationTotal([a, b], undefined)?.usage.reasoning_tokens).toBe(7);
  });
});

describe("model refs in a select", () => {
  it("survive the round trip through an option's value, slashes and quotes included", () => {
    const ref = { provider_id: "p_1", model: 'qwen/qwen3-8b:"q4"' };
    expect(parseRefKey(refKey(ref))).toEqual(ref);
    expect(parseRefKey("not json")).toBeNull();
  });
});
