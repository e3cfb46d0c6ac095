// A call is told apart by its step and its position in it, never by the model's id alone: a model may
// give two calls of one answer the same id (or none), or reuse one from an earlier step, and then two
// approval cards, two results or two idempotency keys would share it. So as a step's calls come back,
// each gets an id no other call of the turn has: the model's own when it is, else `<id>#<step>.<position>`.
// That id is the call's everywhere (the log, frames, approvals, the turn record, recovery), and the
// request back to the model is built from the log, so it pairs each result with its own call.
import type { ModelToolCall } from "../llm/call-model";

export class CallIds {
  private readonly taken: Set<string>;

  /** `used`: the ids the turn's calls already have (a turn resumed after a restart). */
  constructor(used: Iterable<string> = []) {
    this.taken = new Set(used);
  }

  /** The calls of `step`, of which `before` came in its earlier phases, each with an id of its own. */
  name(calls: readonly ModelToolCall[], step: number, before: number): readonly ModelToolCall[] {
    return calls.map((call, i) => {
      let id = call.callId;
      for (let n = 1; !id || this.taken.has(id); n++)
        id = `${call.callId}#${step}.${before + i + 1}${n > 1 ? `.${n}` : ""}`;
      this.taken.add(id);
      return id === call.callId ? call : { ...call, callId: id };
    });
  }
}
