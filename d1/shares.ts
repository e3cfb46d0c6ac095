// Share links in D1 (docs/protocol.md "Share links"). The owner's statements are scoped by user id, so
// another user's link is indistinguishable from a missing one; the public read looks a link up by its id
// alone, the id being the secret.
import { and, desc, eq } from "drizzle-orm";
import { toBase64Url } from "../core/base64";
import type { Share } from "../protocol";
import type { Db } from "./client";
import { nowIso } from "./client";
import { shares } from "./schema";
import { idInShard } from "./shards";

export type ShareRow = typeof shares.$inferSelect;

/** 18 random bytes: 144 bits, 24 base64url characters. */
const ID_BYTES = 18;

/** A new link's id: its shard, then the secret (`2.<24 base64url>`), so the public read finds it (d1/shards.ts). */
export function newShareId(shard: number): string {
  const bytes = crypto.getRandomValues(new Uint8Array(ID_BYTES));
  return idInShard(shard, toBase64Url(bytes));
}

export const toShare = (row: ShareRow): Share => ({
  id: row.id,
  url: `/s/${row.id}`,
  conversation_id: row.conversationId,
  title: row.title,
  leaf_seq: row.leafSeq,
  include_system: row.includeSystem,
  include_tools: row.includeTools,
  include_files: row.includeFiles,
  created_at: row.createdAt,
});

export async function insertShare(
  db: Db,
  shard: number,
  share: Pick<
    ShareRow,
    "userId" | "conversationId" | "title" | "leafSeq" | "includeSystem" | "includeTools" | "includeFiles"
  >,
): Promise<ShareRow> {
  const row = { ...share, id: newShareId(shard), createdAt: nowIso() };
  await db.insert(shares).values(row);
  return row;
}

export async function listShares(db: Db, userId: string): Promise<ShareRow[]> {
  return db.select().from(shares).where(eq(shares.userId, userId)).orderBy(desc(shares.createdAt), desc(shares.id));
}

/** Deletes the user's own link; false when they have no such link. */
export async function deleteShare(db: Db, userId: string, id: string): Promise<boolean> {
  const rows = await db
    .delete(shares)
    .where(and(eq(shares.id, id), eq(shares.userId, userId)))
    .returning({ id: shares.id });
  return rows.length > 0;
}

/** The link for its public page, whoever asks. */
export async function findShare(db: Db, id: string): Promise<ShareRow | undefined> {
  return (await db.select().from(shares).where(eq(shares.id, id)).limit(1))[0];
}
