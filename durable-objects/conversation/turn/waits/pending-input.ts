// A question the agent asked with request_input (one of the turn's waits, wait.ts). It is kept in
// Durable Object storage with an alarm at its deadline, so the timeout fires even if the object was
// evicted while waiting; a tab that connects meanwhile is shown the question in `hello`.
import type { InputOutcome } from "../../../../agent/tools/request-input";
import type { FramePort } from "../../../../agent/turn/io";
import type { MessageDraft } from "../../../../protocol";
import { alarmBy } from "../../triggers/alarm";
import { NO_USAGE } from "../running-turn";
import type { ToggleCache } from "../toggle-cache";
import type { TurnMarkerStore } from "../turn-marker";
import type { Wait } from "./wait";

export const PENDING_INPUT_KEY = "pending-input";

export interface StoredQuestion {
  question: string;
  step: number;
  deadline: string;
  /** The request_input call waiting for this answer. */
  call_id: string;
}

/** What a question needs from the turn's host: the tabs, the log, whether a turn runs, its record. */
export interface QuestionHost {
  frames: FramePort;
  append(draft: MessageDraft): Promise<unknown>;
  running(): boolean;
  marker: TurnMarkerStore;
  toggles: ToggleCache;
}

export class PendingInput implements Wait {
  private waiting: { question: StoredQuestion; settle: (o: InputOutcome) => void } | undefined;
  private early: { callId: string; content: string } | undefined;

  constructor(
    private readonly storage: DurableObjectStorage,
    private readonly host: QuestionHost,
  ) {}

  /** The question waiting for an answer, live or left behind by an evicted turn. */
  async current(): Promise<StoredQuestion | undefined> {
    return this.waiting?.question ?? (await this.storage.get<StoredQuestion>(PENDING_INPUT_KEY));
  }

  /**
   * TurnIO.askUser: every tab is shown the question, and the turn waits for the answer. A turn resumed
   * after a restart waits for the question it had asked, with its deadline.
   */
  async askUser(question: string, step: number, signal: AbortSignal, callId: string, timeoutSeconds: number) {
    const asked = await this.current();
    const again = asked?.call_id === callId ? asked : undefined;
    const timeout = again ? secondsUntil(again.deadline) : timeoutSeconds;
    this.host.frames.send({
      type: "agent_update",
      update_type: "agent_request_input",
      question,
      step,
      timeout_s: timeout,
    });
    const outcome = again
      ? await this.resume(again, signal)
      : await this.ask(question, step, callId, timeoutSeconds, signal);
    this.host.toggles.forget();
    return outcome;
  }

  private async ask(
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
  private async resume(stored: StoredQuestion, signal: AbortSignal): Promise<InputOutcome> {
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

  /** The alarm stays: it may be the turn's watchdog too, and a spare alarm finds nothing due. */
  async clear(): Promise<void> {
    await this.storage.delete(PENDING_INPUT_KEY);
  }

  async nextDeadline(): Promise<number | undefined> {
    const question = await this.current();
    return question ? Date.parse(question.deadline) : undefined;
  }

  async hello(): Promise<{ pending_input?: StoredQuestion }> {
    const question = await this.current();
    return question ? { pending_input: question } : {};
  }

  /**
   * The question's deadline passed. A live turn gets the timeout and ends itself; a question left by a
   * turn that died with its object is closed here, with the answer the turn would have saved.
   */
  async expire(now: number): Promise<void> {
    const question = await this.current();
    if (!question || Date.parse(question.deadline) > now) return;
    if (this.waiting) return this.waiting.settle({ type: "timeout" });
    // A turn resumed after a restart that has not reached its question yet finds it expired when it does.
    if (this.host.running()) return;
    const left = await this.current();
    if (!left) return;
    await this.clear();
    await this.host.marker.end();
    const content = `I asked: "${left.question}"\n\n— Stopped because my question was not answered in time.`;
    const step = left.step;
    await this.host.append({ role: "agent", content, step, phase: "final", termination_reason: "input_timeout" });
    this.host.frames.send({ type: "agent_update", update_type: "agent_request_input_timeout", step });
    this.host.frames.send({
      type: "response_complete",
      termination_reason: "input_timeout",
      steps: step,
      usage: NO_USAGE,
    });
  }
}

const secondsUntil = (deadline: string) => Math.max(0, Math.round((Date.parse(deadline) - Date.now()) / 1000));
