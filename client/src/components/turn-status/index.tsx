// One line on what the running turn is doing ("Step 2 of 15 · acting"), or how the last one ended.
import type { Turn } from "../../lib/turn-state";
import { Spinner } from "../spinner";
import style from "./style.module.css";

const PHASES = { reason: "reasoning", act: "acting", observe: "observing" } as const;

export function TurnStatus({ turn }: { turn: Turn }) {
  if (turn.running) {
    const step = turn.step === null ? "Starting" : `Step ${turn.step}${turn.maxSteps ? ` of ${turn.maxSteps}` : ""}`;
    const doing = turn.stopping ? "stopping…" : turn.phase ? PHASES[turn.phase] : "working…";
    return (
      <span class={style.status} data-testid="turn-status" data-running="true">
        <Spinner />
        {step} · {doing}
      </span>
    );
  }
  const outcome = turn.lastOutcome;
  if (!outcome || outcome.termination_reason === "completed") return null;
  return (
    <span class={style.status} data-testid="turn-status" data-running="false">
      Last turn stopped: {outcome.termination_reason} after {outcome.steps} steps
    </span>
  );
}
