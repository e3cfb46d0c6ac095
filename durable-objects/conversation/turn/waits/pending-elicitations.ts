// Requests of MCP servers that wait for the user (agent/tools/elicitation.ts; one of the turn's waits,
// wait.ts): each is a card in every tab (`elicitation_request`, and `hello.pending_elicitations` for a tab
// that joins or reloads), answered from any tab, given up at its deadline (the object's one alarm) or by
// a Stop. They are kept in memory, not storage: the server's request lives on the call's connection,
// which a restart ends; the interrupted call then goes on as recovery says (a read-only call runs again,
// and its server may ask again), and the card is gone from the next `hello`.
import type { ElicitationReply } from "../../../../agent/tools/elicitation";
import type { ElicitationRequest, FramePort } from "../../../../agent/turn/io";
import { checkElicitationAnswer, type ElicitationResponseFrame, type PendingElicitation } from "../../../../protocol";
import { alarmBy } from "../../triggers/alarm";
import type { Refusal } from "../running-turn";
import type { Wait } from "./wait";

interface Waiting {
  pending: PendingElicitation;
  settle(reply: ElicitationReply): void;
}

export class PendingElicitations implements Wait {
  private readonly waiting = new Map<string, Waiting>();

  constructor(
    private readonly storage: DurableObjectStorage,
    private readonly frames: FramePort,
  ) {}

  /** TurnIO.askElicitation: shows the card and waits for the answer, the deadline or a Stop. */
  async request(request: ElicitationRequest, signal: AbortSignal): Promise<ElicitationReply> {
    const { call_id, step, timeout_s, server, mode, message, fields, url } = request;
    const deadline = Date.now() + timeout_s * 1000;
    const pending: PendingElicitation = {
      elicitation_id: crypto.randomUUID(),
      call_id,
      server,
      step,
      mode,
      message,
      ...(fields ? { fields } : {}),
      ...(url ? { url } : {}),
      deadline: new Date(deadline).toISOString(),
    };
    if (signal.aborted) return { outcome: "stopped" };
    await alarmBy(this.storage, deadline);
    const reply = new Promise<ElicitationReply>((resolve) => {
      const onAbort = () => this.settle(pending.elicitation_id, { outcome: "stopped" });
      signal.addEventListener("abort", onAbort, { once: true });
      this.waiting.set(pending.elicitation_id, {
        pending,
        settle: (answer) => {
          signal.removeEventListener("abort", onAbort);
          resolve(answer);
        },
      });
    });
    this.frames.send({ type: "elicitation_request", ...pending, timeout_s });
    return reply;
  }

  /** A tab answered: an accepted form must fit its fields (the card stays, with the problem, if not). */
  respond(frame: ElicitationResponseFrame): Refusal | undefined {
    const waiting = this.waiting.get(frame.elicitation_id);
    if (!waiting) return { code: "no_pending_elicitation", message: "That request is not waiting for an answer" };
    const { pending } = waiting;
    const content = frame.content ?? {};
    if (frame.action === "accept" && pending.mode === "form") {
      const problem = checkElicitationAnswer(pending.fields ?? [], content);
      if (problem) return { code: "invalid_frame", message: `content.${problem.field}: ${problem.message}` };
    }
    this.settle(frame.elicitation_id, {
      outcome: frame.action,
      ...(frame.action === "accept" && pending.mode === "form" ? { content } : {}),
    });
    return undefined;
  }

  async hello(): Promise<{ pending_elicitations?: PendingElicitation[] }> {
    const pending = [...this.waiting.values()].map((w) => w.pending);
    return pending.length ? { pending_elicitations: pending } : {};
  }

  async nextDeadline(): Promise<number | undefined> {
    const times = [...this.waiting.values()].map((w) => Date.parse(w.pending.deadline));
    return times.length ? Math.min(...times) : undefined;
  }

  /** The alarm fired: a request past its deadline is cancelled, as an unanswered question times out. */
  async expire(now: number): Promise<void> {
    for (const [id, w] of this.waiting)
      if (Date.parse(w.pending.deadline) <= now) this.settle(id, { outcome: "timed_out" });
  }

  /** The turn ended: a request still open (its call already cut off) goes with it. */
  async turnEnded(): Promise<void> {
    for (const id of [...this.waiting.keys()]) this.settle(id, { outcome: "stopped" });
  }

  private settle(id: string, reply: ElicitationReply): void {
    const waiting = this.waiting.get(id);
    if (!waiting) return;
    this.waiting.delete(id);
    waiting.settle(reply);
    const { elicitation_id, call_id, step } = waiting.pending;
    this.frames.send({ type: "elicitation_result", elicitation_id, call_id, step, outcome: reply.outcome });
  }
}
