// Export a conversation as Markdown (to read) or JSON (to keep or process), System items included.
// Done in the browser from GET /api/conversations/:id/messages, paged with `after` until a page comes
// back short, so no route of its own is needed and the JSON holds each message exactly as the API
// answers it. Markdown is the version on screen (the current path); JSON, a copy to keep, holds every
// version (`view=tree`, each message with its parent_seq) and says which one was shown (`leaf_seq`).
// The formatting is pure (test/node/export.test.ts).
import { z } from "zod";
import { type Conversation, MessageSchema, type SystemMessage } from "../../../protocol";
import { type ApiResult, requestJson } from "./api";
import { ConversationDetailSchema } from "./response-schemas";
import { compactionTitle, interruptSentence, podEventLine, reminderSentence, splitReferenceBody } from "./system-text";

/** A message as the API sent it: every field kept, also ones this client does not know yet. */
export type RawMessage = { seq: number; role: string; created_at: string } & Record<string, unknown>;

const RawMessageSchema = z.looseObject({ seq: z.number(), role: z.string(), created_at: z.string() });
const MessagePageSchema = z.object({ messages: z.array(RawMessageSchema), leaf_seq: z.number().optional() });

/** The API's largest page (docs/protocol.md: limit at most 1000). */
const PAGE = 1000;

/** The conversation as exported: what GET /api/conversations/:id says of it. */
export type ExportedConversation = Pick<Conversation, "id" | "title" | "created_at" | "updated_at">;

/** The JSON file: this envelope, with `messages` exactly as GET …/messages answers them, in seq order. */
export type ConversationExport = {
  format: "oracle.conversation";
  version: 1;
  exported_at: string;
  conversation: ExportedConversation;
  /** The last message of the version on screen (absent from a server older than branches). */
  leaf_seq?: number;
  messages: RawMessage[];
};

/** The conversation and its messages (the version on screen, or `tree`: every version), page by page. */
export async function loadConversationExport(
  id: string,
  view: "path" | "tree",
  now = new Date(),
): Promise<ApiResult<ConversationExport>> {
  const path = `/api/conversations/${encodeURIComponent(id)}`;
  const detail = await requestJson(path, ConversationDetailSchema);
  if (!detail.ok) return detail;
  const messages: RawMessage[] = [];
  let leaf: number | undefined;
  for (;;) {
    const after = messages.at(-1)?.seq ?? 0;
    const page = await requestJson(`${path}/messages?after=${after}&limit=${PAGE}&view=${view}`, MessagePageSchema);
    if (!page.ok) return page;
    messages.push(...page.data.messages);
    leaf ??= page.data.leaf_seq;
    if (page.data.messages.length < PAGE) break;
  }
  const { title, created_at, updated_at } = detail.data;
  return {
    ok: true,
    data: {
      format: "oracle.conversation",
      version: 1,
      exported_at: now.toISOString(),
      conversation: { id, title, created_at, updated_at },
      ...(leaf === undefined ? {} : { leaf_seq: leaf }),
      messages,
    },
  };
}

export function conversationJson(data: ConversationExport): string {
  return `${JSON.stringify(data, null, 2)}\n`;
}

/** "2026-05-01T09:30:12.345Z" → "2026-05-01 09:30:12 UTC": the same wherever it is read. */
function when(iso: string): string {
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
    case "task_reminder":
      return reminderSentence(item);
    case "interrupt":
      return `Interrupted. ${interruptSentence(item)}`;
    case "compaction":
      return `${compactionTitle(item)} (through message #${item.through_seq})\n\n${item.body}`;
  }
}

/** One message as a Markdown section: a heading naming who and when, then what it says. */
function messageSection(raw: RawMessage): string {
  const parsed = MessageSchema.safeParse(raw);
  const at = `${when(raw.created_at)} · #${raw.seq}`;
  if (!parsed.success) return `### ${raw.role} · ${at}\n\n${json(raw)}`;
  const message = parsed.data;
  switch (message.role) {
    case "user":
      return `### You · ${at}\n\n${message.content}`;
    case "agent": {
      const what =
        message.phase === "final" || message.termination_reason
          ? "Oracle"
          : `Oracle (${message.phase === "reason" ? "reasoning" : message.phase === "observe" ? "observing" : "working"}${message.step === undefined ? "" : `, step ${message.step}`})`;
      return `### ${what} · ${at}\n\n${message.content}`;
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

/** The whole conversation as Markdown, every message in seq order. */
export function conversationMarkdown(data: ConversationExport): string {
  const { conversation, messages } = data;
  const count = `${messages.length} message${messages.length === 1 ? "" : "s"}`;
  const header = [
    `# ${conversation.title || "Untitled conversation"}`,
    `Exported from Oracle on ${when(data.exported_at)} · ${count} · started ${when(conversation.created_at)}`,
  ].join("\n\n");
  return `${[header, ...messages.map(messageSection)].join("\n\n---\n\n")}\n`;
}

/** A file name from the title: letters, digits and dashes only, never empty. */
export function exportFileName(title: string, extension: "md" | "json"): string {
  const base = title
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 60)
    .replace(/-+$/, "");
  return `${base || "conversation"}.${extension}`;
}

/** Saves `text` as a file through a Blob link (no server round trip, nothing left behind). */
export function downloadText(fileName: string, type: string, text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const link = document.createElement("a");
  link.href = url;
  link.download = fileName;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  // Later, not at once: some browsers start reading the Blob only after the click has returned.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/**
 * Fetches every message and downloads the file: Markdown, for reading, is the version on screen; JSON,
 * a copy to keep, is every version. The conversation menu loads this module on first use.
 */
export async function exportConversation(conversationId: string, format: "md" | "json"): Promise<string | null> {
  const result = await loadConversationExport(conversationId, format === "md" ? "path" : "tree");
  if (!result.ok) return result.error.message;
  const name = exportFileName(result.data.conversation.title, format);
  if (format === "md") downloadText(name, "text/markdown;charset=utf-8", conversationMarkdown(result.data));
  else downloadText(name, "application/json;charset=utf-8", conversationJson(result.data));
  return null;
}
