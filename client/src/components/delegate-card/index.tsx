// A `delegate` call (issue 6): the task, a link to the subagent's own conversation, its progress while
// it works (SubagentPanel, from the frames it streams), then its answer; the subagent goes by its task,
// its pod name is under "Arguments and result". After a reload the persisted result still carries the
// answer, the pod name and the conversation id.
import { toolWords } from "../../../../protocol";
import type { LiveTool, SubagentRun } from "../../lib/conversation-state";
import { Icon } from "../../ui/icon";
import { JsonBlock } from "../../ui/json-block";
import { Link } from "../../ui/link";
import { PlainText } from "../../ui/plain-text";
import { Spinner } from "../../ui/spinner";
import { CallMeta, cardClass, lineClass, nameClass, StatusPill } from "../call-card";
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

export function DelegateCard({ call, seq, subagent }: { call: LiveTool; seq?: number; subagent?: SubagentRun }) {
  const persisted = seq !== undefined;
  const result = delegateResult(call.result);
  const task = asRecord(call.args).task;
  const conversationId = result.conversation_id ?? subagent?.conversation_id;
  const podName = result.pod_name ?? subagent?.pod_name;
  return (
    <article
      class={cardClass(call.status, style.card)}
      data-role={persisted ? "tool" : undefined}
      data-seq={seq}
      data-testid={persisted ? "delegate-card" : "live-tool"}
      data-tool="delegate"
      data-call-id={call.call_id}
      data-status={call.status}
    >
      <header class={lineClass()}>
        <Icon name="wrench" />
        <span class={nameClass}>{toolWords("delegate")}</span>
        {/* A delegate's pill takes the colour of success and error only. */}
        <StatusPill tone={call.status === "timeout" ? undefined : call.status}>
          {call.status === "running" && <Spinner data-testid="tool-running" />}
          {call.status}
        </StatusPill>
        {conversationId && (
          <Link href={conversationHref(conversationId)} class={style.link} data-testid="subagent-conversation-link">
            Open subagent conversation
          </Link>
        )}
        <CallMeta call={call} />
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
        {podName && (
          <p>
            Subagent id{" "}
            <span class={style.pod} data-testid="subagent-pod">
              {podName}
            </span>
          </p>
        )}
        <JsonBlock label="Arguments" value={call.args} />
        {call.result !== undefined && <JsonBlock label="Result" value={call.result} />}
      </details>
    </article>
  );
}
