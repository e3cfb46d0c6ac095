// Conversation titles (docs/protocol.md "Conversations", `title_source`). A conversation is named in up to
// three ways, and the later ones win only where the rules below allow:
//   default        "New conversation", until the first user message is indexed;
//   first_message  the start of that message, markdown stripped (index-outbox.ts, as the turn starts);
//   model          a short title the model writes after the first answer (conversation-titles.ts), once;
//   user           a rename (PATCH) or a title given at creation: never replaced by anything.
// Each rule is a guarded UPDATE, so a late writer can never undo an earlier one that outranks it.

import type { TitleSource } from "../core/title-text";

export { DEFAULT_TITLE, type TitleSource } from "../core/title-text";

/** The first message's title: only over the default one. */
export function firstMessageTitleStatement(d1: D1Database, conversationId: string, title: string): D1PreparedStatement {
  return d1
    .prepare(
      "UPDATE conversations SET title = ?2, title_source = 'first_message' WHERE id = ?1 AND title_source = 'default'",
    )
    .bind(conversationId, title);
}

/** The model's title: over the default or the first message's, never over a user's (or an earlier model's). */
export async function writeModelTitle(
  d1: D1Database,
  conversationId: string,
  userId: string,
  title: string,
): Promise<boolean> {
  const result = await d1
    .prepare(
      `UPDATE conversations SET title = ?3, title_source = 'model'
       WHERE id = ?1 AND user_id = ?2 AND title_source IN ('default', 'first_message')`,
    )
    .bind(conversationId, userId, title)
    .run();
  return result.meta.changes > 0;
}

/** Where the title came from, or undefined when the conversation is gone. */
export async function titleSourceOf(
  d1: D1Database,
  conversationId: string,
  userId: string,
): Promise<TitleSource | undefined> {
  const row = await d1
    .prepare("SELECT title_source FROM conversations WHERE id = ?1 AND user_id = ?2")
    .bind(conversationId, userId)
    .first<{ title_source: TitleSource }>();
  return row?.title_source;
}
