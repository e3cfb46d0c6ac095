// Everything of an account in one zip (docs/protocol.md "Export and import"): the manifest, the settings,
// tasks, library and schedules, every note at its own path, then each conversation twice: its JSON
// (every message of every version, read from its object a page at a time) and the Markdown of the
// version that was shown. Conversations come last, one after another, so the browser can count them
// as they arrive against the total it was told at the start.

import {
  conversationsToExport,
  libraryToExport,
  notesToExport,
  projectsToExport,
  schedulesToExport,
  settingsToExport,
  tasksToExport,
} from "../../d1/account-export";
import type { ConversationRow } from "../../d1/conversations";
import { listFiles, readFileBytes } from "../../d1/files";
import { shardDb } from "../../d1/shards";

/** A conversation row with its owner's shard, for its object's meta. */
type ShardedRow = ConversationRow & { shard: number };

import {
  ARCHIVE_FILES,
  conversationFileName,
  EXPORT_FORMAT,
  EXPORT_VERSION,
  type ExportedConversation,
  type ExportManifest,
  type Message,
} from "../../protocol";
import { titleSlug, transcriptMarkdown } from "../../protocol/transcript-markdown";
import { ArchiveWriter } from "./archive-writer";
import { pathTo } from "./conversation-tree";

/** The largest page the object answers (docs/protocol.md: limit at most 1000). */
const PAGE = 1000;

export interface ExportStream {
  /** How many conversations the archive holds (`X-Export-Conversations`). */
  total: number;
  body: ReadableStream<Uint8Array>;
  /** Runs until the last byte is written; the route keeps the Worker alive for it. */
  done: Promise<void>;
}

export async function exportArchive(
  env: Env,
  user: { id: string; username: string; shard: number },
): Promise<ExportStream> {
  const shard = shardDb(env, user.shard);
  const rows = await conversationsToExport(shard, user.id);
  const { readable, writable } = new TransformStream<Uint8Array, Uint8Array>();
  const out = new ArchiveWriter(writable);
  const exportedAt = new Date().toISOString();
  const run = async () => {
    const manifest: ExportManifest = {
      format: EXPORT_FORMAT,
      version: EXPORT_VERSION,
      exported_at: exportedAt,
      username: user.username,
      conversations: rows.length,
    };
    await out.json(ARCHIVE_FILES.manifest, manifest);
    await writeAccount(shard, user.id, out);
    for (const row of rows) await writeConversation(env, { ...row, shard: user.shard }, exportedAt, out);
    await writeFiles(env, shard, user.id, out);
    await out.end();
  };
  const done = run().catch(async (error: unknown) => {
    console.error("account export failed part-way", error);
    await out.abort(error);
  });
  return { total: rows.length, body: readable, done };
}

/** Every file the user attached, at `files/<id>/<name>` (the messages name them by id in `attachments`). */
async function writeFiles(env: Env, d1: D1Database, userId: string, out: ArchiveWriter): Promise<void> {
  for (const file of await listFiles(d1, userId, Number.MAX_SAFE_INTEGER)) {
    const object = await readFileBytes(env.FILES, userId, file.id);
    if (object) await out.bytes(`${ARCHIVE_FILES.files}${file.id}/${file.name}`, object.body);
  }
}

/** Everything of the account but its conversations. */
async function writeAccount(d1: D1Database, userId: string, out: ArchiveWriter): Promise<void> {
  await out.json(ARCHIVE_FILES.settings, await settingsToExport(d1, userId));
  await out.json(ARCHIVE_FILES.tasks, { tasks: await tasksToExport(d1, userId) });
  await out.json(ARCHIVE_FILES.knowledge, { entries: await libraryToExport(d1, "knowledge", userId) });
  await out.json(ARCHIVE_FILES.workflows, { entries: await libraryToExport(d1, "workflows", userId) });
  await out.json(ARCHIVE_FILES.schedules, { schedules: await schedulesToExport(d1, userId) });
  await out.json(ARCHIVE_FILES.projects, await projectsToExport(d1, userId));
  for await (const note of notesToExport(d1, userId))
    await out.text(`${ARCHIVE_FILES.notes}${note.path}`, note.content);
}

async function writeConversation(env: Env, row: ShardedRow, exportedAt: string, out: ArchiveWriter) {
  const { messages, leaf_seq } = await wholeLog(env, row);
  const exported: ExportedConversation = {
    conversation: {
      id: row.id,
      title: row.title,
      title_source: row.titleSource,
      created_at: row.createdAt,
      updated_at: row.updatedAt,
      pinned: row.pinned,
      ...(row.model ? { model: JSON.parse(row.model) } : {}),
    },
    leaf_seq,
    messages,
  };
  const file = conversationFileName(row.id);
  await out.json(file, exported);
  const shown = pathTo(messages, leaf_seq);
  const others = messages.length - shown.length;
  const note =
    others > 0
      ? `This is the version that was on screen; the other versions (${others} more message${others === 1 ? "" : "s"}) are in ${file.slice(ARCHIVE_FILES.conversations.length)}.`
      : undefined;
  const markdown = transcriptMarkdown(
    {
      title: row.title,
      created_at: row.createdAt,
      exported_at: exportedAt,
      note,
      // The Markdown sits in conversations/, the files in files/<id>/<name> (writeFiles).
      fileHref: (file) => `../${ARCHIVE_FILES.files}${file.id}/${encodeURIComponent(file.name)}`,
    },
    shown,
  );
  await out.text(`${ARCHIVE_FILES.conversations}${titleSlug(row.title)}-${row.id}.md`, markdown);
}

/** Every message of the conversation's log, every branch, from its object a page at a time. */
async function wholeLog(env: Env, row: ShardedRow): Promise<{ messages: Message[]; leaf_seq: number }> {
  const stub = env.CONVERSATION.get(env.CONVERSATION.idFromName(row.id));
  const meta = { conversationId: row.id, userId: row.userId, shard: row.shard };
  const messages: Message[] = [];
  let leaf = 0;
  for (;;) {
    // The RPC's type loses Message (its `unknown` fields); the object answers Messages.
    const page = (await stub.messages(meta, { after: messages.at(-1)?.seq ?? 0, limit: PAGE, view: "tree" })) as
      | { messages: Message[]; leaf_seq: number }
      | undefined;
    if (!page) break;
    messages.push(...page.messages);
    leaf = page.leaf_seq;
    if (page.messages.length < PAGE) break;
  }
  return { messages, leaf_seq: leaf };
}
