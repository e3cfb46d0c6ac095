// A `delegate` call (issue 6): the task, the subagent's pod name and a link to its own conversation,
// its progress while it works (SubagentPanel, from the frames it streams), then its answer. After a
// reload the persisted result still carries the answer, the pod name and the conversation id.
import type { LiveTool, SubagentRun } from "../../lib/conversation-state";
import { Icon } from "../../ui/icon";
import { JsonBlock } from "../../ui/json-block";
import { Link } from "../../ui/link";
import { PlainText } from "../../ui/plain-text";
import { Spinner } from "../../ui/spinner";
import { conversationHref, SubagentPanel } from "../subagent-panel";
import style from "./style.module.css";

type DelegateResult = { conversation_id?: string; pod_name?: string; answer?: string; steps?: number };

function asRecord(value: unknown): Record<string, unknown> {
  return value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

function delegateResult(value: unknown): DelegateResult {
  const r = asRecord(value);
  const text = (key: string) => (typeof r[key] === "string" ? (r[key] as string) : undefined);
  return {
    conversation_id: text("conversation_id"),
    pod_name: text("pod_name"),
    answer: text("answer"),
    steps: typeof r.steps === "number" ? r.steps : undefined,
  };
}

function formatDuration(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;
}

export function DelegateCard({ call, seq, subagent }: { call: LiveTool; seq?: number; subagent?: SubagentRun }) {
  const persisted = seq !== undefined;
  const result = delegateResult(call.result);
  const task = asRecord(call.args).task;
  const conversationId = result.conversation_id ?? subagent?.conversation_id;
  const podName = result.pod_name ?? subagent?.pod_name;
  return (
    <article
      class={`${style.card} ${style[call.status] ?? ""}`}
      data-role={persisted ? "tool" : undefined}
      data-seq={seq}
      data-testid={persisted ? "delegate-card" : "live-tool"}
      data-tool="delegate"
      data-call-id={call.call_id}
      data-status={call.status}
    >
      <header class={style.header}>
        <Icon name="wrench" />
        <span class={style.name}>delegate</span>
        <span class={style.status}>
          {call.status === "running" && <Spinner data-testid="tool-running" />}
          {call.status}
        </span>
        {podName && (
          <span class={style.pod} data-testid="subagent-pod">
            {podName}
          </span>
        )}
        {conversationId && (
          <Link href={conversationHref(conversationId)} class={style.link} data-testid="subagent-conversation-link">
            Open subagent conversation
          </Link>
        )}
        <span class={style.meta}>
          step {call.step}
          {call.duration_ms !== undefined && ` · ${formatDuration(call.duration_ms)}`}
        </span>
      </header>
      {typeof task === "string" && (
        <p class={style.task} data-testid="delegate-task">
          <span class={style.label}>Task</span> {task}
        </p>
      )}
      {subagent && <SubagentPanel key={persisted ? "done" : "live"} run={subagent} initiallyExpanded={!persisted} />}
      {result.answer !== undefined && (
        <div class={style.answer} data-testid="subagent-answer">
          <div class={style.label}>Answer{result.steps !== undefined && ` · ${result.steps} steps`}</div>
          <PlainText text={result.answer} />
        </div>
      )}
      {call.error !== undefined && (
        <div class={style.errorText} data-testid="delegate-error">
          {call.error}
        </div>
      )}
      <details class={style.raw}>
        <summary>Arguments and result</summary>
        <JsonBlock label="Arguments" value={call.args} />
        {call.result !== undefined && <JsonBlock label="Result" value={call.result} />}
      </details>
    </article>
  );
}
