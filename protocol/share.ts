// Share links of docs/protocol.md ("Share links"): a read-only snapshot of a conversation's current path.
import { z } from "zod";
import { MessageSchema } from "./message";

export const CreateShareSchema = z.strictObject({
  /** Show System messages (notifications, references, reminders…); default false. */
  include_system: z.boolean().default(false),
  /** Show tool calls with their arguments and results; default false. */
  include_tools: z.boolean().default(false),
  /** Show the messages' files (through the share's own URL); default false: their names only. */
  include_files: z.boolean().default(false),
});
export type CreateShare = z.infer<typeof CreateShareSchema>;

export const ShareSchema = z.object({
  /** The link's id: unguessable (144 random bits, base64url). The page is `/s/<id>`. */
  id: z.string(),
  /** The page's path on this origin: `/s/<id>`. */
  url: z.string(),
  conversation_id: z.string(),
  /** The conversation's title when the link was made (the snapshot's). */
  title: z.string(),
  /** The snapshot: the path that ends at this message. */
  leaf_seq: z.number().int(),
  include_system: z.boolean(),
  include_tools: z.boolean(),
  /** Absent from links made before files: false. */
  include_files: z.boolean().optional(),
  created_at: z.string(),
});
export type Share = z.infer<typeof ShareSchema>;
export const SharesResponseSchema = z.object({ shares: z.array(ShareSchema) });

/** `GET /api/shared/:id` (no account): what the link shows, and nothing of its owner. */
export const SharedConversationSchema = z.object({
  share: z.object({
    id: z.string(),
    title: z.string(),
    created_at: z.string(),
    include_system: z.boolean(),
    include_tools: z.boolean(),
    include_files: z.boolean().optional(),
  }),
  messages: z.array(MessageSchema),
});
export type SharedConversation = z.infer<typeof SharedConversationSchema>;

/** Shares created per user per hour, and shared pages read per client address per minute. */
export const SHARE_CREATE_LIMIT = { max: 30, windowSeconds: 3600 };
export const SHARE_READ_LIMIT = { max: 120, windowSeconds: 60 };
export const SHARE_FORK_LIMIT = { max: 20, windowSeconds: 3600 };
