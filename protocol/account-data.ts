// Taking an account's data along and bringing it back (docs/protocol.md "Export and import"): the files
// of the export archive (a zip under `oracle-export/`), what an import answers, and the progress lines
// it streams to a client that asks for them. The archive's files are read back through these schemas,
// so an archive made by hand is held to the same rules as one the server wrote.
import { z } from "zod";
import { AgentConfigPatchSchema } from "./agent-config";
import { ApprovalModeSchema } from "./approvals";
import { MessageSchema } from "./message";
import { ModelRefSchema } from "./models";

export const EXPORT_FORMAT = "oracle-export";
export const EXPORT_VERSION = 1;
/** Every file of the archive is under this folder, so unpacking it makes one folder. */
export const EXPORT_ROOT = "oracle-export";
/** The largest archive (or ChatGPT `conversations.json`, or ChatGPT zip) an import takes: 413 above. */
export const MAX_IMPORT_BYTES = 50 * 1024 * 1024;
/** The export's response header: how many conversations the archive will hold (its progress's total). */
export const EXPORT_COUNT_HEADER = "X-Export-Conversations";
/** An import answers progress lines (below) when asked with this `Accept`; else one JSON answer at the end. */
export const PROGRESS_TYPE = "application/x-ndjson";

/** The archive's files, under EXPORT_ROOT; notes are `notes/<their path>`. */
export const ARCHIVE_FILES = {
  manifest: "manifest.json",
  settings: "settings.json",
  tasks: "tasks.json",
  knowledge: "library/knowledge.json",
  workflows: "library/workflows.json",
  schedules: "schedules.json",
  /** The custom instructions, the projects (their conversations by archive id) and the memories. */
  projects: "projects.json",
  notes: "notes/",
  conversations: "conversations/",
  /** Each attached file, `files/<id>/<name>`: a message's `attachments` name them by id. */
  files: "files/",
} as const;

/** A conversation's JSON (every message of every version) in the archive, by the id it had. */
export const conversationFileName = (id: string) => `${ARCHIVE_FILES.conversations}${id}.json`;

/** A name in the archive, under its root, that is a conversation's JSON (what the export's progress counts). */
export const isConversationFile = (name: string) =>
  name.startsWith(`${EXPORT_ROOT}/${ARCHIVE_FILES.conversations}`) && name.endsWith(".json");

const TitleSourceSchema = z.enum(["default", "first_message", "model", "user"]);

/** `oracle-export/manifest.json`. */
export const ExportManifestSchema = z.object({
  format: z.literal(EXPORT_FORMAT),
  version: z.literal(EXPORT_VERSION),
  exported_at: z.string(),
  username: z.string(),
  conversations: z.number().int().nonnegative(),
});
export type ExportManifest = z.infer<typeof ExportManifestSchema>;

/**
 * `oracle-export/conversations/<id>.json`: the conversation's index row and every message of its log
 * (every branch, each with its `parent_seq`), in seq order; `leaf_seq` is the version that was shown.
 */
export const ExportedConversationSchema = z.object({
  conversation: z.object({
    id: z.string().max(100),
    title: z.string().trim().min(1).max(200),
    title_source: TitleSourceSchema.default("user"),
    created_at: z.iso.datetime(),
    updated_at: z.iso.datetime(),
    pinned: z.boolean().default(false),
    model: ModelRefSchema.optional(),
  }),
  leaf_seq: z.number().int().nonnegative(),
  messages: z.array(MessageSchema),
});
export type ExportedConversation = z.infer<typeof ExportedConversationSchema>;

/** `oracle-export/tasks.json`. */
export const ExportedTasksSchema = z.object({
  tasks: z.array(
    z.object({
      title: z.string().trim().min(1).max(200),
      status: z.enum(["open", "in_progress", "done"]),
      details: z.string().max(4000).default(""),
      created_at: z.iso.datetime(),
      updated_at: z.iso.datetime(),
    }),
  ),
});
export type ExportedTasks = z.infer<typeof ExportedTasksSchema>;

/** `oracle-export/library/knowledge.json` and `oracle-export/library/workflows.json`. */
export const ExportedLibrarySchema = z.object({
  entries: z.array(
    z.object({
      slug: z.string().regex(/^[a-z][a-z0-9-]{0,39}$/, "slug must start with a-z and hold only a-z, 0-9 and -"),
      title: z.string().trim().min(1).max(120),
      body: z
        .string()
        .max(20_000)
        .refine((body) => body.trim() !== "", "body is empty"),
    }),
  ),
});
export type ExportedLibrary = z.infer<typeof ExportedLibrarySchema>;

/** `oracle-export/schedules.json`: each names its conversation by the id it had in the archive. */
export const ExportedSchedulesSchema = z.object({
  schedules: z.array(
    z.object({
      conversation_id: z.string().max(100),
      name: z.string().trim().min(1).max(100),
      text: z.string().trim().min(1).max(4000),
      kind: z.enum(["once", "cron"]),
      at: z.iso.datetime().nullable(),
      cron: z.string().max(100).nullable(),
      time_zone: z.string().min(1).max(64),
      paused: z.boolean(),
    }),
  ),
});
export type ExportedSchedules = z.infer<typeof ExportedSchedulesSchema>;

/**
 * `oracle-export/settings.json`: what the user chose, never a secret (no model provider, key, MCP
 * server, token or password). `approvals` are the built-in tools' rules.
 */
export const ExportedSettingsSchema = z.object({
  agent: AgentConfigPatchSchema.strip(),
  subscribers: z.record(z.string().max(100), z.boolean()),
  time_zone: z.string().max(64).nullable(),
  default_model: ModelRefSchema.nullable(),
  approvals: z.array(z.object({ tool: z.string().max(300), mode: ApprovalModeSchema })),
});
export type ExportedSettings = z.infer<typeof ExportedSettingsSchema>;

/** A renamed thing: a note whose path was taken, a library entry whose slug was. */
const RenamedSchema = z.object({ from: z.string(), to: z.string() });

/** What an import did (`POST /api/account/import`, `POST /api/account/import/chatgpt`). */
export const ImportSummarySchema = z.object({
  conversations: z.number().int(),
  messages: z.number().int(),
  notes: z.number().int(),
  tasks: z.number().int(),
  knowledge: z.number().int(),
  workflows: z.number().int(),
  schedules: z.number().int(),
  /** Added with projects: absent from an older server's summary. */
  projects: z.number().int().default(0),
  memories: z.number().int().default(0),
  /** Whether the archive's settings were applied (a ChatGPT import has none). */
  settings: z.boolean(),
  /** Notes imported under another path, because theirs was taken. */
  renamed_notes: z.array(RenamedSchema),
  /** Library entries imported under another slug, because theirs held something else. */
  renamed_entries: z.array(RenamedSchema),
  /** What was left out, each in words ("2 schedules: you have 20 already"). */
  left_out: z.array(z.string()),
});
export type ImportSummary = z.infer<typeof ImportSummarySchema>;

/** One line of an import's progress stream (`Accept: application/x-ndjson`). */
export const ImportProgressLineSchema = z.discriminatedUnion("type", [
  /** `done` of `total` conversations imported. */
  z.object({ type: z.literal("progress"), done: z.number().int(), total: z.number().int() }),
  z.object({ type: z.literal("done"), summary: ImportSummarySchema }),
  /** Failed part-way: what was imported before stays. */
  z.object({ type: z.literal("error"), error: z.object({ code: z.string(), message: z.string() }) }),
]);
export type ImportProgressLine = z.infer<typeof ImportProgressLineSchema>;
