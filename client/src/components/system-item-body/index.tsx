// The body of a system message, one rendering per SystemItem kind (seed 002), so the UI dispatches on
// `kind` instead of parsing text prefixes: an attached note is a file card (collapsed), knowledge and
// workflows are chips that open to their text, a task reminder, an interrupt and a pod event are one
// sentence for the user (lib/system-text.ts: what happened and why, tasks by title, subagents by their
// task), never the text written for the model, which the card keeps under Details. A document the user
// attached is one line ("Read report.pdf · 12 pages"), its text (what the model read) under Details too.
import type { PodEvent, SystemItem } from "../../../../protocol";
import {
  compactionTitle,
  contextSentence,
  interruptSentence,
  linksSentence,
  podEventLine,
  reminderSentence,
  splitReferenceBody,
} from "../../lib/system-text";
import { Collapsible } from "../../ui/collapsible";
import { Icon, type IconName } from "../../ui/icon";
import { Markdown } from "../markdown";
import { NotificationBody } from "../notification-body";
import { lazyPart } from "../shell/lazy";
import style from "./style.module.css";

// A document the user attached, in one line: loaded with the app's other file parts.
const AttachedFile = lazyPart(() => import("../attachments").then((m) => m.AttachedFile));

function FileCard({ path, body }: { path: string; body: string }) {
  const { content } = splitReferenceBody(body);
  const folder = path.endsWith("/");
  const lines = content === "" ? 0 : content.split("\n").length;
  return (
    <details class={style.fileCard} data-testid="file-card" data-path={path}>
      <summary class={style.fileSummary}>
        <Icon name="file" />
        <span class={style.path} data-testid="file-path">
          {path}
        </span>
        <span class={style.meta}>
          {folder ? "folder listing" : "attached note"} · {lines} line{lines === 1 ? "" : "s"}
        </span>
      </summary>
      <pre class={style.pre} data-testid="file-content">
        {content}
      </pre>
    </details>
  );
}

function Chip(props: { testid: string; icon: IconName; label: string; body: string }) {
  const { title, content } = splitReferenceBody(props.body);
  return (
    <details class={style.expandable} data-testid={props.testid}>
      <summary class={style.chip}>
        <Icon name={props.icon} /> <span class={style.slug}>{props.label}</span>
        {title && <span class={style.chipTitle}>{title}</span>}
      </summary>
      <div class={style.chipBody} data-testid="chip-body">
        <Markdown text={content} />
      </div>
    </details>
  );
}

function PodEventLine({ event }: { event: PodEvent }) {
  return (
    <div class={style.line} data-testid="pod-event" data-event={event.type} data-pod={event.pod_name}>
      <Icon name="flow" /> {podEventLine(event)}
    </div>
  );
}

export function SystemItemBody({ item }: { item: SystemItem }) {
  switch (item.kind) {
    case "notification":
      return <NotificationBody item={item} />;
    case "file_attachment":
      if (item.file) return <AttachedFile file={item.file} inline={item.inline} class={style.line} />;
      return <FileCard path={item.path} body={item.body} />;
    case "knowledge":
      return <Chip testid="knowledge-chip" icon="book" label={`#${item.slug}`} body={item.body} />;
    case "workflow":
      return <Chip testid="workflow-chip" icon="flow" label={`/${item.slug}`} body={item.body} />;
    case "links":
      return (
        <div class={style.line} data-testid="links-offered">
          <Icon name="info" /> {linksSentence(item.urls)}
        </div>
      );
    case "task_reminder":
      return (
        <div class={style.reminder} data-testid="task-reminder">
          <span class={style.reminderLabel}>
            <Icon name="clock" /> Task reminder
          </span>
          {reminderSentence(item)}
        </div>
      );
    case "interrupt":
      return (
        <div class={style.interrupt} data-testid="interrupt-banner" role="status">
          <strong>Interrupted.</strong> {interruptSentence(item)}
        </div>
      );
    case "pod_event":
      return <PodEventLine event={item.event} />;
    case "context":
      // What the conversation started from, in one line; what the model read is under the card's Details.
      return (
        <div class={style.line} data-testid="context-summary">
          <Icon name="book" /> {contextSentence(item)}
        </div>
      );
    case "compaction":
      // The transcript shows a compaction as its own divider (CompactionDivider); this is the fallback.
      return (
        <Collapsible>
          <strong>{compactionTitle(item)}.</strong>
          <Markdown text={item.body} />
        </Collapsible>
      );
  }
}
