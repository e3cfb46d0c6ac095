// Files in the conversation (docs/protocol.md "Files"): what an upload answers, what a user message
// carries of its files, and the limits a client checks before it uploads anything.
import { z } from "zod";

/** What the server decided a file is, from its bytes (never from its name or the client's type). */
export const FileKindSchema = z.enum(["image", "pdf", "text"]);
export type FileKind = z.infer<typeof FileKindSchema>;

/** The types the server keeps: images the model may see, PDFs and text it reads. */
export const IMAGE_TYPES = ["image/png", "image/jpeg", "image/gif", "image/webp"] as const;
/**
 * What a file picker offers (`accept`) and a client checks before an upload: by extension, since that is
 * all a browser knows before it reads the bytes; the server decides again from the bytes.
 */
export const ACCEPTED_EXTENSIONS = [
  ".png",
  ".jpg",
  ".jpeg",
  ".gif",
  ".webp",
  ".pdf",
  ".txt",
  ".md",
  ".markdown",
  ".csv",
  ".tsv",
  ".json",
  ".jsonl",
  ".xml",
  ".yaml",
  ".yml",
  ".toml",
  ".ini",
  ".log",
  ".html",
  ".htm",
  ".css",
  ".svg",
  ".js",
  ".mjs",
  ".ts",
  ".tsx",
  ".jsx",
  ".py",
  ".rb",
  ".go",
  ".rs",
  ".java",
  ".kt",
  ".c",
  ".h",
  ".cpp",
  ".hpp",
  ".cs",
  ".php",
  ".sh",
  ".sql",
  ".swift",
  ".r",
  ".tex",
] as const;

/** A file name as shown and downloaded: no path, no control characters. */
export const FileNameSchema = z
  .string()
  .trim()
  .min(1, "a file name is required")
  .max(255, "a file name of at most 255 characters")
  .refine(
    (n) => ![...n].some((ch) => ch === "/" || ch === "\\" || ch.charCodeAt(0) < 0x20 || ch.charCodeAt(0) === 0x7f),
    "a file name without slashes or control characters",
  );

/** `POST /api/files?name=…`: the query; the body is the file's bytes. */
export const FileUploadQuerySchema = z.object({ name: FileNameSchema });

/** One file as the API answers it. */
export const FileObjectSchema = z.object({
  id: z.string(),
  name: z.string(),
  /** Decided by the server from the bytes: an image type, `application/pdf`, or a `text/*` type. */
  content_type: z.string(),
  kind: FileKindSchema,
  size: z.number().int().nonnegative(),
  /** A PDF's pages. */
  pages: z.number().int().positive().optional(),
  /** A text's lines (a PDF's text's, for `file_read` by lines). */
  lines: z.number().int().nonnegative().optional(),
  /** An image's size in pixels, when its header says. */
  width: z.number().int().positive().optional(),
  height: z.number().int().positive().optional(),
  /** The conversation whose message carries it; null until a message is sent with it. */
  conversation_id: z.string().nullable(),
  created_at: z.string(),
  /** Where its bytes are: the owner's URL (`/api/files/<id>/content`). */
  url: z.string(),
});
export type FileObject = z.infer<typeof FileObjectSchema>;

/**
 * A file as a user message carries it (`attachments`): what it was when the message was sent, so the
 * message shows and replays the same without asking for the file.
 */
export const AttachmentSchema = FileObjectSchema.pick({
  id: true,
  name: true,
  content_type: true,
  kind: true,
  size: true,
  pages: true,
  lines: true,
  width: true,
  height: true,
});
export type Attachment = z.infer<typeof AttachmentSchema>;

/** Uploads per user per hour (each is read whole, a PDF parsed): a client past it gets 429 `rate_limited`. */
export const FILE_UPLOAD_LIMIT = { max: 300, windowSeconds: 3600 };

/** At most this many files in one message. */
export const MAX_ATTACHMENTS = 10;
export const AttachmentIdsSchema = z
  .array(z.string().min(1).max(64))
  .max(MAX_ATTACHMENTS, `at most ${MAX_ATTACHMENTS} files in one message`)
  .refine((ids) => new Set(ids).size === ids.length, "each file once");

/** `GET /api/files`: the user's files and what they may still upload. */
export const FileListResponseSchema = z.object({
  files: z.array(FileObjectSchema),
  used_bytes: z.number().int().nonnegative(),
  max_file_bytes: z.number().int().positive(),
  max_total_bytes: z.number().int().positive(),
  max_attachments: z.number().int().positive(),
  accepted_extensions: z.array(z.string()),
});
export type FileListResponse = z.infer<typeof FileListResponseSchema>;

/** Whether a file name's extension is one a client may offer for upload. */
export function acceptedExtension(name: string): boolean {
  const dot = name.lastIndexOf(".");
  if (dot < 0) return false;
  return (ACCEPTED_EXTENSIONS as readonly string[]).includes(name.slice(dot).toLowerCase());
}

/** A size for people: "912 B", "14 KB", "3.2 MB". */
export function fileSizeWords(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  const mb = bytes / (1024 * 1024);
  return `${mb < 10 ? mb.toFixed(1) : Math.round(mb)} MB`;
}
