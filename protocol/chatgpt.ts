// One conversation of a ChatGPT data export's `conversations.json` (a JSON array of these), as
// `POST /api/account/import/chatgpt` reads it (docs/protocol.md "Export and import"). Only what the
// import uses is named; the rest of each object is ignored, so the export's many other fields, and the
// ones it gains over time, neither fail nor reach the account.
import { z } from "zod";

/** A message's content: `content_type` says where its text is (`parts`, `text`, `result`, `thoughts`, …). */
export const ChatGptContentSchema = z.looseObject({ content_type: z.string() });
export type ChatGptContent = z.infer<typeof ChatGptContentSchema>;

export const ChatGptMessageSchema = z.object({
  author: z.object({ role: z.string(), name: z.string().nullish() }),
  /** Seconds since the epoch (a float), or null. */
  create_time: z.number().nullish(),
  content: ChatGptContentSchema,
  /** `all` for what is said to the user; a tool's name for a call the model made. */
  recipient: z.string().nullish(),
  metadata: z.looseObject({ is_visually_hidden_from_conversation: z.boolean().nullish() }).nullish(),
});
export type ChatGptMessage = z.infer<typeof ChatGptMessageSchema>;

/** A node of the tree of versions: a message (none for the root), the node it follows, the ones after it. */
export const ChatGptNodeSchema = z.object({
  message: ChatGptMessageSchema.nullish(),
  parent: z.string().nullish(),
  children: z.array(z.string()).default([]),
});
export type ChatGptNode = z.infer<typeof ChatGptNodeSchema>;

export const ChatGptConversationSchema = z.object({
  title: z.string().nullish(),
  create_time: z.number().nullish(),
  update_time: z.number().nullish(),
  mapping: z.record(z.string(), ChatGptNodeSchema),
  /** The last node of the version shown. */
  current_node: z.string().nullish(),
});
export type ChatGptConversation = z.infer<typeof ChatGptConversationSchema>;
