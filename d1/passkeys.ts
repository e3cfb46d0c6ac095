// Passkeys (WebAuthn credentials); their ceremonies' challenges are in auth-challenges.ts. A passkey is
// removed only while the account keeps another way in, checked in the removing statement itself
// (sign-in-ways.ts).
import { and, desc, eq, sql } from "drizzle-orm";
import type { Passkey } from "../protocol";
import { type Db, nowIso } from "./client";
import { passkeys } from "./schema";
import { anotherWayIn } from "./sign-in-ways";

export type PasskeyRow = typeof passkeys.$inferSelect;

const listed = {
  id: passkeys.id,
  name: passkeys.name,
  created_at: passkeys.createdAt,
  last_used_at: passkeys.lastUsedAt,
  backed_up: passkeys.backedUp,
  device_type: passkeys.deviceType,
};

/** A user's passkeys, newest first, as Settings shows them. */
export async function listPasskeys(db: Db, userId: string): Promise<Passkey[]> {
  return db.select(listed).from(passkeys).where(eq(passkeys.userId, userId)).orderBy(desc(passkeys.createdAt));
}

/** What a new passkey's ceremony gives for `excludeCredentials` / `allowCredentials`. */
export async function credentialsOf(db: Db, userId: string): Promise<{ id: string; transports: string[] }[]> {
  const rows = await db
    .select({ id: passkeys.id, transports: passkeys.transports })
    .from(passkeys)
    .where(eq(passkeys.userId, userId));
  return rows.map((row) => ({ id: row.id, transports: parseTransports(row.transports) }));
}

export function parseTransports(text: string): string[] {
  try {
    const value: unknown = JSON.parse(text);
    return Array.isArray(value) ? value.filter((t): t is string => typeof t === "string") : [];
  } catch {
    return [];
  }
}

/** The passkey with this credential id, whoever's it is (a sign-in names no user). */
export async function passkeyById(db: Db, id: string): Promise<PasskeyRow | undefined> {
  const [row] = await db.select().from(passkeys).where(eq(passkeys.id, id));
  return row;
}

export type NewPasskey = Omit<PasskeyRow, "createdAt" | "lastUsedAt">;

/** Stores a new passkey; undefined when its credential id is already registered (to anyone). */
export async function addPasskey(db: Db, passkey: NewPasskey): Promise<Passkey | undefined> {
  const [row] = await db.insert(passkeys).values(passkey).onConflictDoNothing().returning(listed);
  return row;
}

/** After a verified assertion: the authenticator's new counter, its backup state, when it was used. */
export async function recordPasskeyUse(db: Db, id: string, use: { counter: number; backedUp: boolean }) {
  await db
    .update(passkeys)
    .set({ counter: use.counter, backedUp: use.backedUp, lastUsedAt: nowIso() })
    .where(eq(passkeys.id, id));
}

export async function renamePasskey(db: Db, userId: string, id: string, name: string): Promise<Passkey | undefined> {
  const [row] = await db
    .update(passkeys)
    .set({ name })
    .where(and(eq(passkeys.id, id), eq(passkeys.userId, userId)))
    .returning(listed);
  return row;
}

/** Removes a passkey of `userId`'s, unless it is the account's last way in. */
export async function removePasskey(db: Db, userId: string, id: string): Promise<"removed" | "last" | "not_found"> {
  const [row] = await db
    .delete(passkeys)
    .where(and(eq(passkeys.id, id), eq(passkeys.userId, userId), anotherWayIn(userId)))
    .returning({ id: passkeys.id });
  if (row) return "removed";
  const [still] = await db
    .select({ one: sql`1` })
    .from(passkeys)
    .where(and(eq(passkeys.id, id), eq(passkeys.userId, userId)));
  return still ? "last" : "not_found";
}
