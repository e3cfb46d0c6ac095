// A turn's intermediate work folded into one line under the user's question: "Worked for 3 steps ·
// 4 tools". Open, it lists the steps (step texts, tool cards collapsed to one line each,
// routine System messages). While the turn runs the group stays open so its progress shows; when the
// answer arrives it folds.
import { useEffect, useRef, useState } from "preact/hooks";
import type { Prices } from "../../../../protocol";
import type { SubagentRun } from "../../lib/conversation-state";
import { type TurnGroup as Group, groupSummary } from "../../lib/transcript";
import { Message } from "../message";
import style from "./style.module.css";

type Props = { group: Group; subagents?: ReadonlyMap<string, SubagentRun>; prices?: Prices };

export function TurnGroup({ group, subagents, prices }: Props) {
  const [open, setOpen] = useState(group.running);
  const wasRunning = useRef(group.running);
  useEffect(() => {
    if (wasRunning.current !== group.running) setOpen(group.running);
    wasRunning.current = group.running;
  }, [group.running]);
  const bodyId = `steps-${group.key}`;
  return (
    <section
      class={`${style.group} ${open ? style.open : ""}`}
      data-testid="turn-group"
      data-expanded={open ? "true" : "false"}
      data-running={group.running ? "true" : "false"}
      aria-label="Steps of this answer"
    >
      <button
        type="button"
        class={style.toggle}
        aria-expanded={open}
        aria-controls={bodyId}
        onClick={() => setOpen(!open)}
        data-testid="turn-group-toggle"
      >
        <span class={style.chevron} aria-hidden="true">
          ▸
        </span>
        <span data-testid="turn-group-summary">{groupSummary(group)}</span>
      </button>
      {open && (
        <div id={bodyId} class={style.steps} data-testid="turn-group-steps">
          {group.steps.map((message) => (
            <Message key={message.seq} message={message} subagents={subagents} prices={prices} compact />
          ))}
        </div>
      )}
    </section>
  );
}
