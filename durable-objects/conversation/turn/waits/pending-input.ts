// A question the agent asked with request_input. It is kept in Durable Object storage with an alarm
// at its deadline, so the timeout fires even if the object was evicted while waiting; a tab that
// connects meanwhile is shown the question in `hello`.
import type { InputOutcome } from "../../../../agent/tools/request-input";
import { alarmBy } from "../../triggers/alarm";

export const PENDING_INPUT_KEY = "pending-input";

export interface StoredQuestion {
  question: string;
  step: number;
  deadline: string;
  /** The request_input call waiting for this answer. */
  call_id: string;
}

export class PendingInput {
  private waiting: { question: StoredQuestion; settle: (o: InputOutcome) => void } | undefined;
  private early: { callId: string; content: string } | undefined;

  constructor(private readonly storage: DurableObjectStorage) {}

  /** The question waiting for an answer, live or left behind by an evicted turn. */
  async current(): Promise<StoredQuestion | undefined> {
    return this.waiting?.question ?? (await this.storage.get<StoredQuestion>(PENDING_INPUT_KEY));
  }

  get live(): boolean {
    return this.waiting !== undefined;
  }

  async ask(
    question: string,
    step: number,
    callId: string,
    timeoutSeconds: number,
    signal: AbortSignal,
  ): Promise<InputOutcome> {
    const deadline = Date.now() + timeoutSeconds * 1000;
    const stored: StoredQuestion = { question, step, deadline: new Date(deadline).toISOString(), call_id: callId };
    await this.storage.put(PENDING_INPUT_KEY, stored);
    await this.storage.setAlarm(deadline);
    return this.wait(stored, signal);
  }

  /** A turn resumed after a restart waits again for the question it had asked, until the same deadline. */
  async resume(stored: StoredQuestion, signal: AbortSignal): Promise<InputOutcome> {
    const deadline = Date.parse(stored.deadline);
    if (deadline <= Date.now()) {
      await this.clear();
      return { type: "timeout" };
    }
    await alarmBy(this.storage, deadline);
    return this.wait(stored, signal);
  }

  /**
   * An answer that came before the resumed turn reached its question again (it was still being planned):
   * kept for that question's call, which takes it at once. False when another answer is already kept.
   */
  answerEarly(question: StoredQuestion, content: string): boolean {
    if (this.early) return false;
    this.early = { callId: question.call_id, content };
    return true;
  }

  private wait(stored: StoredQuestion, signal: AbortSignal): Promise<InputOutcome> {
    const early = this.early?.callId === stored.call_id ? this.early : undefined;
    this.early = undefined;
    if (early) {
      void this.clear();
      return Promise.resolve({ type: "answer", content: early.content });
    }
    return new Promise<InputOutcome>((resolve) => {
      const settle = (outcome: InputOutcome) => {
        if (this.waiting?.settle !== settle) return;
        this.waiting = undefined;
        signal.removeEventListener("abort", onAbort);
        void this.clear();
        resolve(outcome);
      };
      const onAbort = () => settle({ type: "aborted" });
      this.waiting = { question: stored, settle };
      if (signal.aborted) onAbort();
      else signal.addEventListener("abort", onAbort, { once: true });
    });
  }

  /** Delivers the user's answer to the live question; false when none is waiting in memory. */
  answer(content: string): boolean {
    if (!this.waiting) return false;
    this.waiting.settle({ type: "answer", content });
    return true;
  }

  /** The alarm fired: the live question times out. Returns false when no live turn was waiting. */
  expire(): boolean {
    if (!this.waiting) return false;
    this.waiting.settle({ type: "timeout" });
    return true;
  }

  /** The alarm stays: it may be the turn's watchdog too, and a spare alarm finds nothing due. */
  async clear(): Promise<void> {
    await this.storage.delete(PENDING_INPUT_KEY);
  }
}
