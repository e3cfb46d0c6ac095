// This conversation as a subagent's host (its parent's delegate call, subagents.ts, reaches it over
// RPC): a task runs as the turn's user message and resolves with the turn's outcome; a parent that
// restarted re-attaches to the turn, which resumed when this object woke, or to the outcome it saved.

import type { TurnLifecycle } from "./lifecycle";
import type { TurnPlans } from "./plans";
import { NO_USAGE, type PlanFor, type RunningTurn } from "./running-turn";
import type { ChildOutcome, ChildRequest, ParentLink } from "./subagents";
import type { HostIO } from "./turn-io";
import type { TurnRecord } from "./turn-marker";

/** Storage key of a subagent's last outcome, for a parent that re-attaches after a restart. */
const SUBAGENT_OUTCOME_KEY = "subagent-outcome";

export class SubagentTurns {
  constructor(
    private readonly storage: DurableObjectStorage,
    private readonly parts: { lifecycle: TurnLifecycle; io: Pick<HostIO, "messages" | "append"> },
    private readonly plans: TurnPlans,
  ) {}

  /** A subagent's turn (RPC from the parent's object): the task is its user message; resolves when it ends. */
  async run(request: ChildRequest, parent: ParentLink): Promise<ChildOutcome> {
    const { lifecycle, io } = this.parts;
    if (lifecycle.current) throw new Error("a subagent conversation runs one task at a time");
    const turn = await lifecycle.launch({
      plan: (signal) => this.plans.subagent(request, parent, signal),
      persistInput: () => io.append({ role: "user", content: request.task }).then(() => undefined),
      origin: { kind: "subagent", request },
      parent,
    });
    return this.outcome(turn);
  }

  /**
   * A parent whose delegate call was cut short by a restart re-attaches (RPC): to this subagent's turn
   * if it still runs (it resumed when this object woke), else to the outcome it saved when it ended.
   */
  async reattach(parent: ParentLink): Promise<ChildOutcome> {
    const turn = this.parts.lifecycle.current;
    if (turn?.origin.kind === "subagent") {
      turn.parent = parent;
      return this.outcome(turn);
    }
    const saved = await this.storage.get<ChildOutcome>(SUBAGENT_OUTCOME_KEY);
    if (saved) return saved;
    throw new Error("this subagent has no turn to re-attach to");
  }

  /** A recovered subagent's plan, its link to its parent whichever parent re-attaches (reattach). */
  resumePlan(request: ChildRequest, record: TurnRecord): PlanFor {
    const parent: ParentLink = {
      onFrame: (frame) => this.parts.lifecycle.current?.parent?.onFrame(frame),
      onEvent: (event) => this.parts.lifecycle.current?.parent?.onEvent(event),
    };
    return (signal) => this.plans.subagent(request, parent, signal, record);
  }

  /** A turn recovery ended (cut short too often): a subagent's parent re-attaching gets its outcome. */
  async endedByRecovery(record: TurnRecord, outcome: ChildOutcome): Promise<void> {
    if (record.origin.kind === "subagent") await this.storage.put(SUBAGENT_OUTCOME_KEY, outcome);
  }

  /** The outcome of a subagent's turn, once it ends; kept for a parent that re-attaches after a restart. */
  private async outcome(turn: RunningTurn): Promise<ChildOutcome> {
    await turn.done;
    const final = this.parts.io.messages().findLast((m) => m.role === "agent");
    const outcome = turn.outcome;
    const result: ChildOutcome = {
      answer: final?.role === "agent" ? final.content : "",
      termination_reason: outcome?.reason ?? "llm_error",
      steps: outcome?.steps ?? 0,
      usage: outcome?.usage ?? NO_USAGE,
    };
    await this.storage.put(SUBAGENT_OUTCOME_KEY, result);
    return result;
  }
}
