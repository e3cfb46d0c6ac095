// The rules for knowledge entries and workflows (seed 002 `#slug` and `/slug`), as zod schemas with
// no Worker types, so the client can import this file by relative path and validate as the server does.
import { z } from "zod";

export const SLUG_PATTERN = /^[a-z][a-z0-9-]{0,39}$/;
export const MAX_SLUG = 40;
export const MAX_TITLE = 120;
export const MAX_BODY = 20_000;

export const SlugSchema = z
  .string()
  .regex(SLUG_PATTERN, "slug must start with a-z and hold only a-z, 0-9 and -, at most 40 characters")
  .describe('Like "writing-style": a lowercase letter, then lowercase letters, digits and -');

export const EntryTitleSchema = z
  .string()
  .trim()
  .min(1, "title is empty")
  .max(MAX_TITLE, `title is longer than ${MAX_TITLE} characters`);

export const EntryBodySchema = z
  .string()
  .max(MAX_BODY, `body is longer than ${MAX_BODY} characters`)
  .refine((body) => body.trim() !== "", "body is empty");

/** PUT /api/knowledge/:slug and PUT /api/workflows/:slug. */
export const EntryInputSchema = z.object({ title: EntryTitleSchema, body: EntryBodySchema });
export type EntryInput = z.infer<typeof EntryInputSchema>;

/** One entry as GET /api/{knowledge,workflows}/:slug and PUT answer it. */
export const LibraryEntrySchema = z.object({
  slug: z.string(),
  title: z.string(),
  body: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type LibraryEntry = z.infer<typeof LibraryEntrySchema>;

/** GET /api/knowledge and GET /api/workflows. */
export const LibraryEntryListSchema = z.object({
  entries: z.array(LibraryEntrySchema.omit({ created_at: true })),
});
export type LibraryEntrySummary = z.infer<typeof LibraryEntryListSchema>["entries"][number];

export type LibraryKind = "knowledge" | "workflows";
