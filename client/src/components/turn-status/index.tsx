// One line on what the running turn is doing ("Step 2 of 15 · Running vault_search…"), or, in plain
// words, how the last one ended when it did not simply complete ("You stopped this answer").
import { terminationText } from "../../lib/termination";
import type { Activity, Turn } from "../../lib/turn-state";
import { Spinner } from "../spinner";
import style from "./style.module.css";

export function TurnStatus({ turn, activity }: { turn: Turn; activity: Activity | null }) {
  if (turn.running) {
    const step = turn.step === null ? null : `Step ${turn.step}${turn.maxSteps ? ` of ${turn.maxSteps}` : ""}`;
    const doing = activity?.label ?? "Working…";
    return (
      <span class={style.status} data-testid="turn-status" data-running="true" data-activity={activity?.kind}>
        <Spinner />
        {step ? `${step} · ${doing}` : doing}
      </span>
    );
  }
  const outcome = turn.lastOutcome;
  if (!outcome || outcome.termination_reason === "completed") return null;
  return (
    <span class={style.status} data-testid="turn-status" data-running="false" data-reason={outcome.termination_reason}>
      {terminationText(outcome.termination_reason, outcome.steps)}
    </span>
  );
}
