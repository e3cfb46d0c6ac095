// A conversation as Markdown, for reading: a heading per message naming who and when, then what it says,
// System items in the words of their cards. The browser writes it for one conversation (Export in the
// conversation's menu, client/src/lib/export.ts) and the Worker for every conversation of an account
// (docs/protocol.md "Export and import"), so both read the same. Pure.
import { type Attachment, fileSizeWords } from "./files";
import { MessageSchema, type SystemMessage } from "./message";
import {
  compactionTitle,
  contextSentence,
  interruptSentence,
  linksSentence,
  podEventLine,
  reminderSentence,
  splitReferenceBody,
} from "./system-words";
import type { WebSource } from "./web";

/** A message as the API sent it: every field kept, also ones this reader does not know yet. */
export type RawMessage = { seq: number; role: string; created_at: string } & Record<string, unknown>;

/** What the Markdown's header says of the conversation. */
export interface TranscriptHeader {
  title: string;
  created_at: string;
  exported_at: string;
  /** A line of its own under the header (the account export says where the other versions are). */
  note?: string;
  /** Where a message's file is (the account's zip: `../files/<id>/<name>`); without it, only its name. */
  fileHref?: (file: Attachment) => string;
}

/** "2026-05-01T09:30:12.345Z" → "2026-05-01 09:30:12 UTC": the same wherever it is read. */
export function utcWhen(iso: string): string {
  const match = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2}:\d{2})/.exec(iso);
  return match ? `${match[1]} ${match[2]} UTC` : iso;
}

/** A fenced block that no backtick run inside `text` can close early. */
function fenced(text: string, lang = ""): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = "`".repeat(longest + 1);
  return `${fence}${lang}\n${text}\n${fence}`;
}

function json(value: unknown): string {
  return fenced(JSON.stringify(value, null, 2) ?? "null", "json");
}

/** What a System item says, in the words its card in the chat uses. */
function systemText(message: SystemMessage): string {
  const { item } = message;
  switch (item.kind) {
    case "notification":
      return item.data === undefined ? item.message : `${item.message}\n\n${json(item.data)}`;
    case "pod_event":
      return podEventLine(item.event);
    case "file_attachment":
      return `Attached ${item.path}\n\n${fenced(splitReferenceBody(item.body).content)}`;
    case "knowledge":
    case "workflow": {
      const { title, content } = splitReferenceBody(item.body);
      const name = item.kind === "knowledge" ? `#${item.slug}` : `/${item.slug}`;
      return `${item.kind === "knowledge" ? "Knowledge" : "Workflow"} ${name}${title ? `: ${title}` : ""}\n\n${content}`;
    }
    case "links":
      return linksSentence(item.urls);
    case "context":
      return `${contextSentence(item)}\n\n${fenced(item.body)}`;
    case "task_reminder":
      return reminderSentence(item);
    case "interrupt":
      return `Interrupted. ${interruptSentence(item)}`;
    case "compaction":
      return `${compactionTitle(item)} (through message #${item.through_seq})\n\n${item.body}`;
  }
}

/** A message's files, one line each: its name (a link where the export holds the file), type and size. */
function filesList(files: readonly Attachment[], fileHref?: TranscriptHeader["fileHref"]): string {
  return files
    .map((file) => {
      const name = file.name.replace(/[[\]]/g, "\\$&");
      const shown = fileHref ? `[${name}](${fileHref(file)})` : name;
      const size = [
        file.kind === "pdf" ? "PDF" : file.content_type,
        file.pages ? `${file.pages} pages` : "",
        fileSizeWords(file.size),
      ];
      return `- Attached: ${shown} (${size.filter(Boolean).join(", ")})`;
    })
    .join("\n");
}

/** A URL as a Markdown link's destination: what would end it early (spaces, parentheses, angle brackets) escaped. */
const destination = (url: string) =>
  url.replace(/[\s()<>]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, "0")}`);

/**
 * An answer's sources (protocol/web.ts), after it: "Sources:" and a line per page, `[n] [title](url) — site`,
 * so its `[n]` citations can be followed in the export. A page whose address is not http(s) is not linked.
 */
function sourcesList(sources: readonly WebSource[] | undefined): string {
  if (!sources?.length) return "";
  const lines = sources.map((source) => {
    const title = (source.title.trim() || source.url).replace(/[[\]]/g, "\\$&");
    const linked = /^https?:\/\//i.test(source.url) ? `[${title}](${destination(source.url)})` : title;
    return `- [${source.n}] ${linked}${source.site ? ` — ${source.site}` : ""}`;
  });
  return `\n\nSources:\n\n${lines.join("\n")}`;
}

/** One message as a Markdown section: a heading naming who and when, then what it says. */
function messageSection(raw: RawMessage, fileHref?: TranscriptHeader["fileHref"]): string {
  const parsed = MessageSchema.safeParse(raw);
  const at = `${utcWhen(raw.created_at)} · #${raw.seq}`;
  if (!parsed.success) return `### ${raw.role} · ${at}\n\n${json(raw)}`;
  const message = parsed.data;
  switch (message.role) {
    case "user":
      return [`### You · ${at}`, message.content, filesList(message.attachments ?? [], fileHref)]
        .filter(Boolean)
        .join("\n\n");
    case "agent": {
      const what =
        message.phase === "final" || message.termination_reason
          ? "Oracle"
          : `Oracle (${message.phase === "reason" ? "reasoning" : message.phase === "observe" ? "observing" : "working"}${message.step === undefined ? "" : `, step ${message.step}`})`;
      return `### ${what} · ${at}\n\n${message.content}${sourcesList(message.sources)}`;
    }
    case "tool": {
      const outcome = message.status === "success" ? json(message.result) : (message.error ?? "(no error message)");
      return [
        `### Tool ${message.tool}: ${message.status} (step ${message.step}, ${message.duration_ms} ms) · ${at}`,
        `Arguments:\n\n${json(message.args)}`,
        `${message.status === "success" ? "Result" : "Error"}:\n\n${outcome}`,
      ].join("\n\n");
    }
    case "system":
      return `### System · ${message.source} (${message.severity}) · ${at}\n\n${systemText(message)}`;
  }
}

/** The conversation as Markdown, every message given in seq order. */
export function transcriptMarkdown(header: TranscriptHeader, messages: readonly RawMessage[]): string {
  const section = (raw: RawMessage) => messageSection(raw, header.fileHref);
  const count = `${messages.length} message${messages.length === 1 ? "" : "s"}`;
  const lines = [
    `# ${header.title || "Untitled conversation"}`,
    `Exported from Oracle on ${utcWhen(header.exported_at)} · ${count} · started ${utcWhen(header.created_at)}`,
    ...(header.note ? [header.note] : []),
  ];
  return `${[lines.join("\n\n"), ...messages.map(section)].join("\n\n---\n\n")}\n`;
}

/** A file name's stem from a title: letters, digits and dashes only, at most 60, never empty. */
export function titleSlug(title: string, fallback = "conversation"): string {
  const base = title
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 60)
    .replace(/-+$/, "");
  return base || fallback;
}
