// The thread's own "still working" line at the end of a running turn, so it is never silent while the
// model thinks or a tool runs: "Thinking…", "Searching your notes…", "Waiting for your answer". It is
// the one place that says what a running turn is doing (no header line, no label on the streamed text);
// the step count is in its tooltip for whoever wants it.
import type { Activity } from "../../lib/turn-state";
import { Spinner } from "../../ui/spinner";
import style from "./style.module.css";

export function WorkingIndicator({ activity, step }: { activity: Activity; step?: string }) {
  return (
    <div class={style.indicator} role="status" title={step} data-testid="working-indicator" data-kind={activity.kind}>
      {activity.kind !== "waiting" && <Spinner small />}
      {activity.kind === "waiting" && <span class={style.dot} aria-hidden="true" />}
      <span>{activity.label}</span>
    </div>
  );
}
