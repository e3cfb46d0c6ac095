// Export a conversation as Markdown (to read) or JSON (to keep or process), System items included.
// Done in the browser from GET /api/conversations/:id/messages, paged with `after` until a page comes
// back short, so no route of its own is needed and the JSON holds each message exactly as the API
// answers it. Markdown is the version on screen (the current path); JSON, a copy to keep, holds every
// version (`view=tree`, each message with its parent_seq) and says which one was shown (`leaf_seq`).
// The formatting is pure (protocol/transcript-markdown.ts, which the account export shares;
// test/node/export.test.ts).
import { z } from "zod";
import type { Attachment, Conversation } from "../../../protocol";
import { type RawMessage, titleSlug, transcriptMarkdown } from "../../../protocol/transcript-markdown";
import { type ApiResult, requestJson } from "./api";
import { fileUrl } from "./file-links";
import { ConversationDetailSchema } from "./response-schemas";

export type { RawMessage };

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

/**
 * The whole conversation as Markdown, every message in seq order; with `origin`, a message's files link
 * to where their owner opens them on this server.
 */
export function conversationMarkdown(data: ConversationExport, origin?: string): string {
  const { conversation, messages } = data;
  return transcriptMarkdown(
    {
      ...conversation,
      exported_at: data.exported_at,
      ...(origin ? { fileHref: (file: Attachment) => `${origin}${fileUrl(file.id)}` } : {}),
    },
    messages,
  );
}

/** A file name from the title: letters, digits and dashes only, never empty. */
export function exportFileName(title: string, extension: "md" | "json"): string {
  return `${titleSlug(title)}.${extension}`;
}

/** Saves `text` as a file through a Blob link (no server round trip, nothing left behind). */
export function downloadText(fileName: string, type: string, text: string): void {
  downloadBlob(fileName, new Blob([text], { type }));
}

/** Saves a Blob as a file through a link (the account export's zip too: lib/account-data.ts). */
export function downloadBlob(fileName: string, blob: Blob): void {
  const url = URL.createObjectURL(blob);
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
  if (format === "md")
    downloadText(name, "text/markdown;charset=utf-8", conversationMarkdown(result.data, location.origin));
  else downloadText(name, "application/json;charset=utf-8", conversationJson(result.data));
  return null;
}
