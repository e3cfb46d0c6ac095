// The file tools (docs/protocol.md "Files"): the model reads and searches the documents of its
// conversation (agent/files/conversation-files.ts is how it reaches them), saves one's text as a note,
// and attaches a note as a Markdown file. What a range or a search is lives in core/file-text.ts.
import { z } from "zod";
import { type ExtractedText, FILE_READ_MAX_CHARS, readFile, searchFile } from "../../core/file-text";
import { NotePathSchema, readNote, writeNote } from "../../d1/notes";
import { ALREADY_DONE } from "../../d1/tool-effects";
import { type Attachment, MAX_NOTE_CONTENT, type Message } from "../../protocol";
import type { ConversationFiles } from "../files/conversation-files";
import { type AgentTool, defineTool, effectKey, type ToolContext, ToolError } from "./tool";

const FileRefSchema = z
  .string()
  .trim()
  .min(1)
  .max(300)
  .describe('A file of this conversation, by its id ("f_…") or its name ("report.pdf")');

function filesOf(ctx: ToolContext): ConversationFiles {
  if (!ctx.files) throw new ToolError("Files are not available in this conversation");
  return ctx.files;
}

/** A file's text, or a ToolError naming the conversation's files so the model can ask again. */
async function fileText(ctx: ToolContext, ref: string): Promise<{ file: Attachment; text: ExtractedText }> {
  const files = filesOf(ctx);
  const found = await files.text(ref);
  if (found) return found;
  const all = await files.list();
  const image = all.find((f) => (f.id === ref || f.name === ref) && f.kind === "image");
  if (image) throw new ToolError(`${image.name} is an image: it has no text to read`);
  if (!all.length) throw new ToolError(`No file "${ref}": this conversation has no files`);
  const names = all.map((f) => `${f.name} (${f.id})`).join(", ");
  throw new ToolError(`No file "${ref}" in this conversation. Its files: ${names}`);
}

const named = (file: Attachment) => ({ id: file.id, name: file.name });

/** A RangeError from core/file-text.ts is the model's to read; anything else is a crash. */
function asToolError<T>(run: () => T): T {
  try {
    return run();
  } catch (error) {
    if (error instanceof RangeError) throw new ToolError(error.message);
    throw error;
  }
}

const RangeSchema = z.string().trim().min(1).max(40);

export const fileRead = defineTool({
  name: "file_read",
  readOnly: true,
  description:
    `Reads part of a file of this conversation, at most about ${FILE_READ_MAX_CHARS.toLocaleString("en-US")} characters a call: ` +
    'by pages (a PDF: "3" or "3-5") or by lines ("120-240"), or from the start. Each page comes after a ' +
    '"[Page N]" line. When more was asked than one call returns, `next` is what to ask for next ({pages} or {lines}).',
  args: z.object({
    file: FileRefSchema,
    pages: RangeSchema.optional().describe('Pages of a PDF, 1-based and inclusive, like "3" or "3-5"'),
    lines: RangeSchema.optional().describe('Lines, 1-based and inclusive, like "120-240"'),
  }),
  async execute({ file: ref, pages, lines }, ctx) {
    const { file, text } = await fileText(ctx, ref);
    const read = asToolError(() => readFile(text, { pages, lines }, filesOf(ctx).readChars));
    return {
      file: named(file),
      range: { [read.unit]: read.range },
      ...(read.next ? { next: { [read.unit]: read.next } } : {}),
      ...(read.total_pages !== undefined ? { total_pages: read.total_pages } : {}),
      total_lines: read.total_lines,
      text: read.text,
    };
  },
});

export const fileSearch = defineTool({
  name: "file_search",
  readOnly: true,
  description:
    "Finds the lines of a file of this conversation that hold every word of a query (ignoring case), with " +
    "their line and page numbers. Read around a hit with file_read.",
  args: z.object({
    file: FileRefSchema,
    query: z.string().trim().min(1).max(200).describe('Words the line must all hold, like "net revenue 2024"'),
    limit: z.number().int().min(1).max(50).default(20).describe("How many lines at most (1-50, default 20)"),
  }),
  async execute({ file: ref, query, limit }, ctx) {
    const { file, text } = await fileText(ctx, ref);
    const { hits, total } = searchFile(text, query, limit);
    return { file: named(file), total, hits };
  },
});

export const fileToNote = defineTool({
  name: "file_to_note",
  description:
    "Saves the whole text of a file of this conversation as a note in the user's vault (replacing a note at that path).",
  args: z.object({ file: FileRefSchema, path: NotePathSchema }),
  idempotent: true,
  async execute({ file: ref, path }, ctx) {
    const { file, text } = await fileText(ctx, ref);
    const content = text.text;
    if (content.length > MAX_NOTE_CONTENT)
      throw new ToolError(
        `${file.name} has ${content.length.toLocaleString("en-US")} characters; a note holds at most ` +
          `${MAX_NOTE_CONTENT.toLocaleString("en-US")}. Read it in parts with file_read and save what matters with vault_write.`,
      );
    const { note, repeated } = await writeNote(ctx.db, ctx.userId, path, content, effectKey(ctx));
    const result = { path: note.path, chars: content.length };
    return repeated ? { ...result, already_done: ALREADY_DONE } : result;
  },
});

/** The file a note becomes: its last path segment, as Markdown. */
const fileNameOf = (path: string) => {
  const name = path.slice(path.lastIndexOf("/") + 1);
  return /\.(md|markdown)$/i.test(name) ? name : `${name}.md`;
};

export const noteToFile = defineTool({
  name: "note_to_file",
  description:
    "Attaches a note of the user's vault to this conversation as a Markdown file (the user can open and " +
    "download it). The result is the file.",
  args: z.object({ path: NotePathSchema }),
  async execute({ path }, ctx) {
    const files = filesOf(ctx);
    const note = await readNote(ctx.db, ctx.userId, path);
    if (!note) throw new ToolError(`No note at ${path}`);
    let file: Attachment;
    try {
      file = await files.create(fileNameOf(note.path), note.content);
    } catch (error) {
      // The host's refusals (the user's files are full) are sentences for the model.
      throw new ToolError(error instanceof Error ? error.message : String(error));
    }
    return { file };
  },
});

export const fileTools: AgentTool[] = [fileRead, fileSearch, fileToNote, noteToFile];

const FILE_TOOLS: ReadonlySet<string> = new Set(fileTools.map((t) => t.name));

/** Whether a message of the conversation's path carries a file, or its project has one (its context item). */
export const hasFiles = (messages: readonly Message[]): boolean =>
  messages.some(
    (m) =>
      (m.role === "user" && (m.attachments?.length ?? 0) > 0) ||
      (m.role === "system" && m.item.kind === "context" && (m.item.files ?? 0) > 0),
  );

/**
 * The tools a turn offers: the file tools only once the conversation has a file. Every request of the
 * others would carry their declarations for nothing (a small model is also more easily led astray by
 * tools it cannot use); the tool list grows once, at the conversation's first file.
 */
export const offeredTools = (tools: readonly AgentTool[], messages: readonly Message[]): AgentTool[] =>
  hasFiles(messages) ? [...tools] : tools.filter((t) => !FILE_TOOLS.has(t.name));
