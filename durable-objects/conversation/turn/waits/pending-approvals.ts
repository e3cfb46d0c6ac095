// Calls waiting for the user's approval (agent/tools/approval.ts; one of the turn's waits, wait.ts), one
// storage entry each, with an alarm at the earliest deadline: a tab that joins sees every waiting call in `hello`, a decision made
// in any tab reaches the call, and a restart finds the calls that never ran (resume.ts re-asks them with
// their original deadline, or takes the decision made meanwhile). An approved call's entry is removed
// before the call runs, so a restart during the call treats it like any other call that was running;
// a denial stays until the turn ends, so the resumed call is denied again rather than asked twice.
import type { ApprovalOutcome } from "../../../../agent/tools/approval";
import type { ApprovalRequest, FramePort } from "../../../../agent/turn/io";
import type { Credential } from "../../../../d1/credentials";
import type { ApprovalDecision, PendingApproval, ToolApprovalFrame } from "../../../../protocol";
import { alarmBy } from "../../triggers/alarm";
import type { Refusal } from "../running-turn";
import type { Wait } from "./wait";

const PREFIX = "approval:";

/** "Always allow" saves a rule, which an API token cannot change (docs/protocol.md "API tokens"). */
const RULE_NEEDS_SESSION: Refusal = {
  code: "session_required",
  message: "Always allow needs a signed-in session: an API token can approve this call only",
};

export interface StoredApproval extends PendingApproval {
  /** The rule key "Always allow" saves (protocol/approvals.ts). */
  key: string;
  /** Set once decided; the waiting call (live or resumed) takes it. */
  decision?: ApprovalDecision;
  always_allow?: boolean;
}

type Settle = (outcome: ApprovalOutcome) => void;

/** Where the decisions go: every tab, and "Always allow" into the user's rules (D1 tool_approvals). */
export interface ApprovalHost {
  frames: FramePort;
  saveRule(key: string): Promise<void>;
}

export class PendingApprovals implements Wait {
  private readonly live = new Map<string, Settle>();

  constructor(
    private readonly storage: DurableObjectStorage,
    private readonly host: ApprovalHost,
  ) {}

  private async entries(): Promise<StoredApproval[]> {
    const found = await this.storage.list<StoredApproval>({ prefix: PREFIX });
    return [...found.values()].sort((a, b) => a.step - b.step || Date.parse(a.deadline) - Date.parse(b.deadline));
  }

  /** The calls waiting for a decision, for `hello` (live or left by a turn that has not resumed yet). */
  async hello(): Promise<{ pending_approvals?: PendingApproval[] }> {
    const waiting = (await this.entries())
      .filter((e) => !e.decision)
      .map(({ call_id, tool, args, step, deadline }) => ({ call_id, tool, args, step, deadline }));
    return waiting.length ? { pending_approvals: waiting } : {};
  }

  /** Call ids that asked and have not run: a resumed turn runs them (approval first), never "maybe ran". */
  async neverRan(): Promise<Set<string>> {
    return new Set((await this.entries()).map((e) => e.call_id));
  }

  /** The earliest deadline of a call still waiting (epoch ms), for the alarm. */
  async nextDeadline(): Promise<number | undefined> {
    const times = (await this.entries()).filter((e) => !e.decision).map((e) => Date.parse(e.deadline));
    return times.length ? Math.min(...times) : undefined;
  }

  /**
   * TurnIO.askApproval: waits for the decision on a call: the one already made (a resumed call), or the
   * user's, or the deadline's. Every tab is shown the card once the call is known to wait. Approved, the
   * entry is gone before this returns.
   */
  async request(request: ApprovalRequest, signal: AbortSignal): Promise<ApprovalOutcome> {
    const key = PREFIX + request.call_id;
    let stored = await this.storage.get<StoredApproval>(key);
    if (!stored) {
      const deadline = new Date(Date.now() + request.timeout_s * 1000).toISOString();
      stored = {
        call_id: request.call_id,
        tool: request.tool,
        args: request.args,
        step: request.step,
        deadline,
        key: request.key,
      };
      await this.storage.put(key, stored);
    }
    if (!stored.decision && Date.parse(stored.deadline) <= Date.now()) stored = await this.decided(stored, "timed_out");
    if (stored.decision) return this.taken(stored);
    await alarmBy(this.storage, Date.parse(stored.deadline));
    // Decided while the alarm was set (a tab that knew the call from its tool_start): taken now.
    const meanwhile = await this.storage.get<StoredApproval>(key);
    if (meanwhile?.decision) return this.taken(meanwhile);
    const { call_id, tool, args, step, deadline } = stored;
    const timeout_s = Math.max(0, Math.round((Date.parse(deadline) - Date.now()) / 1000));
    this.host.frames.send({ type: "tool_approval_request", call_id, tool, args, step, deadline, timeout_s });
    const waited = await new Promise<ApprovalOutcome>((resolve) => {
      const settle: Settle = (outcome) => {
        if (this.live.get(request.call_id) !== settle) return;
        this.live.delete(request.call_id);
        signal.removeEventListener("abort", onAbort);
        resolve(outcome);
      };
      const onAbort = () => settle({ decision: "aborted" });
      this.live.set(request.call_id, settle);
      if (signal.aborted) onAbort();
      else signal.addEventListener("abort", onAbort, { once: true });
    });
    return this.consumed(request.call_id, waited);
  }

  /**
   * A tab approved or denied a waiting call: the call gets the decision (a resumed turn that has not
   * reached the call yet finds it kept), every tab learns it, and "always allow" becomes the tool's rule
   * (not from a socket opened with an API token: the call keeps waiting).
   */
  async decide(frame: ToolApprovalFrame, credential: Credential | undefined): Promise<Refusal | undefined> {
    if (frame.always_allow && credential?.kind === "token") return RULE_NEEDS_SESSION;
    const stored = await this.storage.get<StoredApproval>(PREFIX + frame.call_id);
    if (!stored || stored.decision)
      return { code: "no_pending_approval", message: "That call is not waiting for approval" };
    const decision = frame.decision === "approve" ? "approved" : "denied";
    const decided = await this.decided(stored, decision, frame.always_allow);
    this.announce(decided);
    if (decided.always_allow) await this.host.saveRule(decided.key);
    return undefined;
  }

  /** The alarm fired: every call past its deadline is denied (timed_out), and every tab learns it. */
  async expire(now: number): Promise<void> {
    const due = (await this.entries()).filter((e) => !e.decision && Date.parse(e.deadline) <= now);
    for (const expired of await Promise.all(due.map((e) => this.decided(e, "timed_out")))) this.announce(expired);
  }

  private announce(decided: StoredApproval): void {
    if (!decided.decision) return;
    this.host.frames.send({
      type: "tool_approval_result",
      call_id: decided.call_id,
      tool: decided.tool,
      step: decided.step,
      decision: decided.decision,
      ...(decided.always_allow ? { always_allow: true } : {}),
    });
  }

  /** The turn ended: nothing waits any more. */
  turnEnded(): Promise<void> {
    return this.clear();
  }

  async clear(): Promise<void> {
    const keys = [...(await this.storage.list({ prefix: PREFIX })).keys()];
    if (keys.length) await this.storage.delete(keys);
  }

  private async decided(
    stored: StoredApproval,
    decision: ApprovalDecision,
    alwaysAllow?: boolean,
  ): Promise<StoredApproval> {
    const next: StoredApproval = {
      ...stored,
      decision,
      ...(alwaysAllow && decision === "approved" ? { always_allow: true } : {}),
    };
    await this.storage.put(PREFIX + stored.call_id, next);
    this.live.get(stored.call_id)?.(this.outcomeOf(next));
    return next;
  }

  /** A decision made before the call waited live (a resumed call): taken now. */
  private taken(stored: StoredApproval): Promise<ApprovalOutcome> {
    return this.consumed(stored.call_id, this.outcomeOf(stored));
  }

  /** The call goes on with `outcome`; approved, it is about to run, so it no longer counts as never run. */
  private async consumed(callId: string, outcome: ApprovalOutcome): Promise<ApprovalOutcome> {
    if (outcome.decision === "approved") await this.storage.delete(PREFIX + callId);
    return outcome;
  }

  private outcomeOf(stored: StoredApproval): ApprovalOutcome {
    if (!stored.decision) return { decision: "aborted" };
    return { decision: stored.decision, ...(stored.always_allow ? { always_allow: true } : {}) };
  }
}
