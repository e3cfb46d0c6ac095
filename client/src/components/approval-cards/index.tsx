// Calls waiting for the user's approval (issue 30), one card each above the composer: which tool
// (an MCP tool with its server), its arguments in readable rows, when it is denied if nobody decides,
// and Approve / Deny with "Always allow this tool". Each card is decided on its own; a decision made in
// another tab (or the deadline) removes the card here too.
import { useState } from "preact/hooks";
import { type PendingApproval, toolLabel } from "../../../../protocol";
import { readableArgs } from "../../lib/readable-args";
import { Deadline } from "../../ui/deadline";
import style from "./style.module.css";

export type ApprovalChoice = { call_id: string; decision: "approve" | "deny"; always_allow?: boolean };

type Props = { pending: readonly PendingApproval[]; onDecide: (choice: ApprovalChoice) => boolean };

/** "Add a task", or an MCP tool `local__echo` as "Echo on local" (protocol/tool-words.ts). */
function toolTitle(tool: string): string {
  const { label, server } = toolLabel(tool);
  return server ? `${label} on ${server}` : label;
}

function ApprovalCard({ pending, onDecide }: { pending: PendingApproval; onDecide: Props["onDecide"] }) {
  const [always, setAlways] = useState(false);
  const [sent, setSent] = useState(false);
  const rows = readableArgs(pending.args);
  const decide = (decision: "approve" | "deny") => {
    const ok = onDecide({
      call_id: pending.call_id,
      decision,
      ...(decision === "approve" && always ? { always_allow: true } : {}),
    });
    if (ok) setSent(true);
  };
  const title = toolTitle(pending.tool);
  return (
    <section
      class={style.card}
      data-testid="approval-card"
      data-call-id={pending.call_id}
      data-tool={pending.tool}
      aria-label={`Approve ${title}?`}
    >
      <div class={style.label}>
        Approval needed (step {pending.step})
        <Deadline
          deadline={pending.deadline}
          lead="denied if not decided by"
          class={style.deadline}
          testid="approval-deadline"
        />
      </div>
      <p class={style.question}>
        The Oracle wants to run <strong>{title}</strong>
        {rows.length ? " with:" : " (no arguments)."}
      </p>
      {rows.length > 0 && (
        <dl class={style.args} data-testid="approval-args">
          {rows.map((row) => (
            <div class={style.arg} key={row.name}>
              <dt>{row.name}</dt>
              <dd class={row.multiline ? style.multiline : undefined}>{row.value}</dd>
            </div>
          ))}
        </dl>
      )}
      <div class={style.row}>
        <label class={style.always}>
          <input
            type="checkbox"
            checked={always}
            onChange={(event) => setAlways(event.currentTarget.checked)}
            data-testid="approval-always"
          />
          Always allow {title}
        </label>
        <span class={style.buttons}>
          <button
            type="button"
            class={style.deny}
            disabled={sent}
            onClick={() => decide("deny")}
            data-testid="approval-deny"
          >
            Deny
          </button>
          <button
            type="button"
            class={style.approve}
            disabled={sent}
            onClick={() => decide("approve")}
            data-testid="approval-approve"
          >
            Approve
          </button>
        </span>
      </div>
    </section>
  );
}

export function ApprovalCards({ pending, onDecide }: Props) {
  if (!pending.length) return null;
  return (
    <div class={style.cards} data-testid="approval-cards" aria-live="polite">
      {pending.map((p) => (
        <ApprovalCard key={p.call_id} pending={p} onDecide={onDecide} />
      ))}
    </div>
  );
}
