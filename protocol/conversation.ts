// Conversation routes of docs/protocol.md ("Conversations").
import { z } from "zod";
import { SeveritySchema } from "./message";
import { ModelRefSchema } from "./models";

export const ConversationSchema = z.object({
  id: z.string(),
  title: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
  /** The start of the latest user or agent text (an extension of docs/protocol.md's list item). */
  preview: z.string().optional(),
  /** Kept at the top of the sidebar (PATCH `pinned`); absent from older servers, meaning false. */
  pinned: z.boolean().optional(),
  /** Who named it: the default, the first message, the model after the first answer, or the user. */
  title_source: z.enum(["default", "first_message", "model", "user"]).optional(),
  /** The model its turns use (PATCH `model`); absent: the user's default model. */
  model: ModelRefSchema.optional(),
  /** The project it belongs to (protocol/projects.ts); absent: none. */
  project_id: z.string().optional(),
});
export type Conversation = z.infer<typeof ConversationSchema>;

/** `project_id`: started in that project (its model, if set, becomes the conversation's). */
export const CreateConversationSchema = z
  .object({ title: z.string().trim().max(200).optional(), project_id: z.string().min(1).max(100).optional() })
  .strict();
export const RenameConversationSchema = z.object({ title: z.string().trim().min(1).max(200) }).strict();
/**
 * PATCH /api/conversations/:id: a rename, a pin, a model (null: the user's default), a move into a
 * project (null: out of it), or several; at least one.
 */
export const UpdateConversationSchema = z
  .object({
    title: z.string().trim().min(1).max(200).optional(),
    pinned: z.boolean().optional(),
    model: ModelRefSchema.nullable().optional(),
    project_id: z.string().min(1).max(100).nullable().optional(),
  })
  .strict()
  .refine(
    (b) => b.title !== undefined || b.pinned !== undefined || b.model !== undefined || b.project_id !== undefined,
    {
      message: "expected title, pinned, model or project_id",
    },
  );

export const MessagesQuerySchema = z.object({
  after: z.coerce.number().int().min(0).default(0),
  limit: z.coerce.number().int().min(1).max(1000).default(200),
  /** `path` (default): the current path, or the path ending at `leaf`; `tree`: every branch. */
  view: z.enum(["path", "tree"]).default("path"),
  leaf: z.coerce.number().int().min(1).optional(),
});
export type MessagesQuery = z.infer<typeof MessagesQuerySchema>;

export const NotifySchema = z
  .object({ message: z.string().min(1).max(8000), severity: SeveritySchema.default("info") })
  .strict();
export type Notify = z.infer<typeof NotifySchema>;

/** `project`: only that project's conversations. */
export const SearchQuerySchema = z.object({
  q: z.string().trim().min(1).max(200),
  project: z.string().min(1).max(100).optional(),
});
/**
 * A search takes a query's first this many distinct words (case-insensitive) and ignores the rest:
 * every word is a term of the match and of the title filter, and SQLite bounds both.
 */
export const MAX_SEARCH_WORDS = 16;

export const SearchResultSchema = z.object({
  conversation_id: z.string(),
  title: z.string(),
  /** The matching message; absent when only the title matched. */
  seq: z.number().int().optional(),
  /** What the matching message is: the user's words, an answer, or a step's narration (ranked in that order). */
  kind: z.enum(["user", "answer", "step"]).optional(),
  snippet: z.string(),
});
export type SearchResult = z.infer<typeof SearchResultSchema>;
export const SearchResponseSchema = z.object({ results: z.array(SearchResultSchema) });
