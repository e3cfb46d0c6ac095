// What the agent may do with the files of its conversation (docs/protocol.md "Files"): the host (the
// conversation object, over R2 and D1) implements it; the file tools (agent/tools/files.ts) use it.

import type { ExtractedText } from "../../core/file-text";
import type { Attachment } from "../../protocol";

export interface ConversationFiles {
  /**
   * The most one `file_read` returns: what one message may take of the model's window (a longer result
   * would be cut in the middle in the context), at most FILE_READ_MAX_CHARS.
   */
  readChars?: number;
  /** The files the conversation's messages carry (and those the agent made), oldest first. */
  list(): Promise<Attachment[]>;
  /** A file's text by id or by name (the newest of that name); undefined when the conversation has none such. */
  text(ref: string): Promise<{ file: Attachment; text: ExtractedText } | undefined>;
  /** Makes a text file in the conversation (a note attached as a file): kept like an upload, counted in the user's total. */
  create(name: string, text: string): Promise<Attachment>;
}
