// An Oracle export read back and checked whole before anything is written (docs/protocol.md "Export and
// import"): every file through its schema, every note's path and text, every conversation's tree. What
// is wrong is a 400 that names the file and the field; nothing has changed then. The archive may have
// been unpacked and packed again: its root is wherever its manifest.json is, and files beside the
// export's own (a system's `__MACOSX/`, `.DS_Store`) are passed over.
import type { z } from "zod";
import { NotePathSchema } from "../../d1/notes";
import type { ExportedSchedules, ExportedTasks } from "../../protocol";
import {
  ARCHIVE_FILES,
  type ExportedConversation,
  ExportedConversationSchema,
  type ExportedLibrary,
  ExportedLibrarySchema,
  ExportedSchedulesSchema,
  type ExportedSettings,
  ExportedSettingsSchema,
  ExportedTasksSchema,
  type ExportManifest,
  ExportManifestSchema,
  fieldErrors,
  firstFieldError,
  illFormedTextField,
  NOT_UNICODE,
} from "../../protocol";
import { MAX_NOTE_CONTENT } from "../../protocol/notes";
import { type ExportedProjects, ExportedProjectsSchema } from "../../protocol/projects";
import { invalid } from "../errors";
import { type NumberedLog, numberLog } from "./conversation-tree";
import { type ZipEntry, ZipProblem, zipEntries } from "./zip-reader";

export interface CheckedArchive {
  manifest: ExportManifest;
  settings: ExportedSettings | undefined;
  tasks: ExportedTasks["tasks"];
  knowledge: ExportedLibrary["entries"];
  workflows: ExportedLibrary["entries"];
  schedules: ExportedSchedules["schedules"];
  /** Absent from an archive made before projects. */
  projects: ExportedProjects | undefined;
  notes: { path: string; entry: ZipEntry }[];
  /** Each conversation's file; read again, and numbered, as it is imported (readConversation). */
  conversations: ZipEntry[];
}

const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false });
/** All of an archive's files together unpack to at most this: it bounds the work a small zip can ask for. */
const MAX_UNPACKED_TOTAL = 512 * 1024 * 1024;
const CONVERSATION_FILE = /^conversations\/[^/]+\.json$/;
const passedOver = (name: string) => name.startsWith("__MACOSX/") || /(^|\/)\.DS_Store$/.test(name);

export function checkArchive(bytes: Uint8Array): CheckedArchive {
  const files = archiveFiles(bytes);
  const json = <S extends z.ZodType>(name: string, schema: S): z.infer<S> | undefined => {
    const entry = files.get(name);
    return entry ? parseFile(name, entry, schema) : undefined;
  };
  const manifest = json(ARCHIVE_FILES.manifest, ExportManifestSchema);
  if (!manifest) throw notAnExport("it holds no manifest.json");
  const conversations = [...files].filter(([name]) => CONVERSATION_FILE.test(name));
  for (const [name, entry] of conversations) readConversation(entry, name);
  if (conversations.length !== manifest.conversations)
    throw invalid(
      `The archive is not whole: its manifest.json says ${manifest.conversations} conversations, and it holds ${conversations.length}`,
    );
  return {
    manifest,
    settings: json(ARCHIVE_FILES.settings, ExportedSettingsSchema),
    tasks: json(ARCHIVE_FILES.tasks, ExportedTasksSchema)?.tasks ?? [],
    knowledge: json(ARCHIVE_FILES.knowledge, ExportedLibrarySchema)?.entries ?? [],
    workflows: json(ARCHIVE_FILES.workflows, ExportedLibrarySchema)?.entries ?? [],
    schedules: json(ARCHIVE_FILES.schedules, ExportedSchedulesSchema)?.schedules ?? [],
    projects: json(ARCHIVE_FILES.projects, ExportedProjectsSchema),
    notes: [...files]
      .filter(([name]) => name.startsWith(ARCHIVE_FILES.notes))
      .map(([name, entry]) => checkNote(name, entry)),
    conversations: conversations.map(([, entry]) => entry),
  };
}

/** The archive's files by their names under its root (the folder that holds manifest.json). */
function archiveFiles(bytes: Uint8Array): Map<string, ZipEntry> {
  let entries: ZipEntry[];
  try {
    entries = zipEntries(bytes).filter((entry) => !passedOver(entry.name));
  } catch (error) {
    if (error instanceof ZipProblem) throw notAnExport(error.message);
    throw error;
  }
  const manifests = entries
    .filter((entry) => entry.name === ARCHIVE_FILES.manifest || entry.name.endsWith(`/${ARCHIVE_FILES.manifest}`))
    .sort((a, b) => a.name.length - b.name.length);
  const root = (manifests[0]?.name ?? ARCHIVE_FILES.manifest).slice(0, -ARCHIVE_FILES.manifest.length);
  const files = entries.filter((e) => e.name.startsWith(root));
  if (files.reduce((total, e) => total + e.size, 0) > MAX_UNPACKED_TOTAL)
    throw notAnExport(`it unpacks to more than ${MAX_UNPACKED_TOTAL / 1024 / 1024} MiB`);
  return new Map(files.map((e) => [e.name.slice(root.length), e]));
}

/** A conversation's file, checked and numbered as its new log will be. */
export function readConversation(entry: ZipEntry, name = entry.name): ExportedConversation & NumberedLog {
  const exported = parseFile(name, entry, ExportedConversationSchema);
  const numbered = numberLog(exported.messages, exported.leaf_seq);
  if ("problem" in numbered) throw invalid(`${name}: ${numbered.problem}`, { [name]: numbered.problem });
  return { ...exported, ...numbered };
}

function checkNote(name: string, entry: ZipEntry): { path: string; entry: ZipEntry } {
  const path = NotePathSchema.safeParse(name.slice(ARCHIVE_FILES.notes.length));
  if (!path.success) throw fileProblem(name, fieldErrors(path.error)._ ?? "not a note's path");
  const content = text(name, entry);
  if (content.length > MAX_NOTE_CONTENT) throw fileProblem(name, `longer than ${MAX_NOTE_CONTENT} characters`);
  return { path: path.data, entry };
}

/** A note's text, read again as it is imported. */
export const noteText = (entry: ZipEntry) => text(entry.name, entry);

/** A file's text; UTF-8 that is valid cannot hold a lone surrogate (JSON's escapes can: parseFile). */
function text(name: string, entry: ZipEntry): string {
  try {
    return utf8.decode(entry.read());
  } catch (error) {
    if (error instanceof ZipProblem) throw notAnExport(error.message);
    throw fileProblem(name, "not valid UTF-8 text");
  }
}

function parseFile<S extends z.ZodType>(name: string, entry: ZipEntry, schema: S): z.infer<S> {
  let raw: unknown;
  try {
    raw = JSON.parse(text(name, entry));
  } catch (error) {
    if (error instanceof SyntaxError) throw fileProblem(name, "not valid JSON");
    throw error;
  }
  const bad = illFormedTextField(raw);
  if (bad) throw fileProblem(name, `${bad}: ${NOT_UNICODE}`);
  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    const fields = fieldErrors(parsed.error);
    throw invalid(`${name}: ${firstFieldError(fields, "the file")}`, prefixed(name, fields));
  }
  return parsed.data;
}

const prefixed = (name: string, fields: Record<string, string>) =>
  Object.fromEntries(
    Object.entries(fields).map(([field, problem]) => [field === "_" ? name : `${name}: ${field}`, problem]),
  );

const fileProblem = (name: string, problem: string) => invalid(`${name}: ${problem}`, { [name]: problem });

const notAnExport = (why: string) => invalid(`This file is not an Oracle export: ${why}`);
