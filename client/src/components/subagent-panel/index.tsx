// A subagent's progress under the delegate call that started it (issue 6): its text as it streams,
// its tool calls with their status, and its own subagents nested the same way. Collapsible; open
// while the subagent works when `initiallyExpanded` says so. In plain words: tools by their labels, the
// subagent by the task on its card (its pod name stays in data-pod and the card's raw details).
import { useState } from "preact/hooks";
import { type Message, toolWords } from "../../../../protocol";
import {
  type ConversationState,
  type LiveTool,
  orderedMessages,
  type SubagentRun,
  subagentRunning,
} from "../../lib/conversation-state";
import { plainHeadline } from "../../lib/notice-words";
import { plural } from "../../lib/plural";
import { compactionTitle, contextSentence, linksSentence, plainSource, podEventLine } from "../../lib/system-text";
import { terminationText } from "../../lib/termination";
import { Icon } from "../../ui/icon";
import { Link } from "../../ui/link";
import { PlainText } from "../../ui/plain-text";
import { Spinner } from "../../ui/spinner";
import { StatusPill } from "../call-card";
import style from "./style.module.css";

export function conversationHref(conversationId: string): string {
  return `/c/${encodeURIComponent(conversationId)}`;
}

type ToolLine = Pick<LiveTool, "call_id" | "tool" | "status">;

function ToolProgress({ call, run }: { call: ToolLine; run?: SubagentRun }) {
  return (
    <li class={style.tool} data-testid="subagent-tool" data-tool={call.tool} data-status={call.status}>
      <div class={style.toolLine}>
        <Icon name="wrench" />
        <span class={style.toolName} title={call.tool}>
          {toolWords(call.tool)}
        </span>
        <StatusPill tone={call.status} small>
          {call.status === "running" && <Spinner small />}
          {call.status}
        </StatusPill>
      </div>
      {run && <SubagentPanel run={run} initiallyExpanded={subagentRunning(run)} />}
    </li>
  );
}

function systemLine(message: Extract<Message, { role: "system" }>): string {
  const { item } = message;
  switch (item.kind) {
    case "pod_event":
      return podEventLine(item.event);
    case "notification":
      return plainHeadline(item, item.message);
    case "file_attachment":
      return `Attached ${item.path}`;
    case "knowledge":
      return `Knowledge #${item.slug}`;
    case "workflow":
      return `Workflow /${item.slug}`;
    case "links":
      return linksSentence(item.urls);
    case "task_reminder":
      return "Task reminder";
    case "interrupt":
      return "Interrupted";
    case "compaction":
      return compactionTitle(item);
    case "context":
      return contextSentence(item);
  }
}

function Entry({ message, state }: { message: Message; state: ConversationState }) {
  switch (message.role) {
    case "user":
      return null; // the task, shown on the delegate card
    case "agent":
      return (
        <li class={style.text} data-testid="subagent-text">
          <PlainText text={message.content} />
        </li>
      );
    case "tool":
      return <ToolProgress call={message} run={state.subagents.get(message.call_id)} />;
    case "system":
      // Routine notices (tool successes, turn summaries) would drown the progress; the child's own
      // conversation has them all.
      if (message.item.kind === "notification" && message.item.priority === "low") return null;
      return (
        <li class={style.system} data-testid="subagent-system">
          {plainSource(message.source)}: {systemLine(message)}
        </li>
      );
  }
}

/** The subagent's conversation so far: persisted entries, then live text and running tools. */
function Progress({ state }: { state: ConversationState }) {
  const messages = orderedMessages(state);
  const steps = [...new Set([...state.liveText.keys(), ...[...state.liveTools.values()].map((t) => t.step)])].sort(
    (a, b) => a - b,
  );
  const outcome = state.turn.lastOutcome;
  return (
    <ol class={style.entries}>
      {messages.map((message) => (
        <Entry key={message.seq} message={message} state={state} />
      ))}
      {steps.map((step) => {
        const text = state.liveText.get(step);
        return [
          text !== undefined && (
            <li key={`text-${step}`} class={`${style.text} ${style.streaming}`} data-testid="subagent-text">
              <PlainText text={text} />
            </li>
          ),
          ...[...state.liveTools.values()]
            .filter((tool) => tool.step === step)
            .map((tool) => <ToolProgress key={tool.call_id} call={tool} run={state.subagents.get(tool.call_id)} />),
        ];
      })}
      {messages.length === 0 && steps.length === 0 && <li class={style.waiting}>Starting…</li>}
      {!state.turn.running && outcome && (
        <li class={style.outcome} data-testid="subagent-outcome" data-reason={outcome.termination_reason}>
          Finished: {terminationText(outcome.termination_reason, outcome.steps)} · {plural(outcome.steps, "step")}
        </li>
      )}
    </ol>
  );
}

export function SubagentPanel({ run, initiallyExpanded }: { run: SubagentRun; initiallyExpanded: boolean }) {
  const [expanded, setExpanded] = useState(initiallyExpanded);
  const running = subagentRunning(run);
  const tools = orderedMessages(run.state).filter((m) => m.role === "tool").length + run.state.liveTools.size;
  return (
    <section
      class={style.panel}
      data-testid="subagent-panel"
      data-expanded={expanded ? "true" : "false"}
      data-running={running ? "true" : "false"}
      data-pod={run.pod_name}
      data-conversation-id={run.conversation_id}
    >
      <div class={style.head}>
        <button
          type="button"
          class={style.toggle}
          aria-expanded={expanded}
          onClick={() => setExpanded(!expanded)}
          data-testid="subagent-toggle"
        >
          <span class={style.chevron} aria-hidden="true">
            {expanded ? "▾" : "▸"}
          </span>
          <span class={style.pod}>Subagent</span>
          <span class={style.summary}>
            {running ? "working" : "done"} · {plural(tools, "tool call")}
          </span>
          {running && <Spinner small />}
        </button>
        <Link href={conversationHref(run.conversation_id)} class={style.open} data-testid="subagent-link">
          Open conversation
        </Link>
      </div>
      {expanded && (
        <div class={style.body} data-testid="subagent-progress">
          <Progress state={run.state} />
        </div>
      )}
    </section>
  );
}
