// Turns the references of a user's message into system items placed right after it: a note's text
// (truncated with a visible hint), a folder's listing, a knowledge entry, a workflow's prompt. A
// reference that names nothing becomes a clear System message instead of being dropped in silence.
// All of it is the user's own text, so reminder tags in it are defused like any user text.

import { getKnowledge } from "../../d1/library/knowledge-store";
import { getWorkflow } from "../../d1/library/workflow-store";
import { listNotes, NotePathSchema, readNote } from "../../d1/notes";
import type { Message, MessageDraft, SystemItem } from "../../protocol";
import { safeEnd } from "../context/model-messages";
import { parseReferences, type Reference } from "./parse";

export const MAX_ATTACHMENT_CHARS = 8000;
const MAX_LISTED = 50;

type SystemDraft = Extract<MessageDraft, { role: "system" }>;

/** The sources of the System messages a user's references and documents add (the message's input, with it). */
const REFERENCE_SOURCES: ReadonlySet<string> = new Set(["References", "Vault", "Knowledge", "Workflows", "Files"]);

/** A System message that one of the user's references added right after their message. */
export const isReferenceMessage = (message: Message): boolean =>
  message.role === "system" &&
  REFERENCE_SOURCES.has(message.source) &&
  !("subscriber" in message.item && message.item.subscriber);

const draft = (source: string, item: SystemItem): SystemDraft => ({ role: "system", source, severity: "info", item });

function unresolved(what: string): SystemDraft {
  const message = `${what}: nothing was attached.`;
  return {
    role: "system",
    source: "References",
    severity: "warning",
    item: {
      kind: "notification",
      message,
      body: `[Notification: References] ${message}`,
      format: "text",
      priority: "normal",
    },
  };
}

export function truncateForAttachment(path: string, content: string): string {
  if (content.length <= MAX_ATTACHMENT_CHARS) return content;
  const shown = content.slice(0, safeEnd(content, MAX_ATTACHMENT_CHARS));
  return `${shown}\n…\n[truncated: showing the first ${shown.length.toLocaleString("en-US")} of ${content.length.toLocaleString("en-US")} characters; call vault_read with path "${path}" for the rest]`;
}

async function resolveFile(db: D1Database, userId: string, raw: string): Promise<SystemDraft> {
  const parsed = NotePathSchema.safeParse(raw.replace(/\/+$/, ""));
  if (!parsed.success) return unresolved(`@${raw} is not a valid note path`);
  const path = parsed.data;
  const note = raw.endsWith("/") ? undefined : await readNote(db, userId, path);
  if (note) {
    const body = `[File: ${path}]\n${truncateForAttachment(path, note.content)}`;
    return draft("Vault", { kind: "file_attachment", path, body });
  }
  const folder = path.replace(/\/+$/, "");
  const inside = await listNotes(db, userId, `${folder}/`);
  if (!inside.length) return unresolved(`No note or folder at @${path}`);
  const lines = inside.slice(0, MAX_LISTED).map((n) => `- ${n.path} (${n.bytes} bytes)`);
  if (inside.length > MAX_LISTED) lines.push(`… and ${inside.length - MAX_LISTED} more`);
  return draft("Vault", {
    kind: "file_attachment",
    path: `${folder}/`,
    body: `[Dir: ${folder}/]\n${lines.join("\n")}`,
  });
}

async function resolveOne(db: D1Database, userId: string, ref: Reference): Promise<SystemDraft> {
  switch (ref.kind) {
    case "file":
      return resolveFile(db, userId, ref.path);
    case "knowledge": {
      const entry = await getKnowledge(db, userId, ref.slug);
      if (!entry) return unresolved(`No knowledge entry #${ref.slug}`);
      const body = `[Knowledge: ${ref.slug}] ${entry.title}\n${entry.body}`;
      return draft("Knowledge", { kind: "knowledge", slug: ref.slug, body });
    }
    case "workflow": {
      const flow = await getWorkflow(db, userId, ref.slug);
      if (!flow) return unresolved(`No workflow /${ref.slug}`);
      const body = `[Workflow: /${ref.slug}] ${flow.title}\n${flow.body}`;
      return draft("Workflows", { kind: "workflow", slug: ref.slug, body });
    }
  }
}

/** The system messages a user's message brings with it, in the order its references appear. */
export async function resolveReferences(db: D1Database, userId: string, text: string): Promise<SystemDraft[]> {
  return Promise.all(parseReferences(text).map((ref) => resolveOne(db, userId, ref)));
}

/** What a project includes from the library (knowledge entries) and the vault (note folders), resolved as references. */
export async function resolveIncluded(
  db: D1Database,
  userId: string,
  included: { knowledge: readonly string[]; notes: readonly string[] },
): Promise<SystemDraft[]> {
  const refs: Reference[] = [
    ...included.knowledge.map((slug): Reference => ({ kind: "knowledge", slug })),
    ...included.notes.map((path): Reference => ({ kind: "file", path: `${path.replace(/\/+$/, "")}/` })),
  ];
  return Promise.all(refs.map((ref) => resolveOne(db, userId, ref)));
}
