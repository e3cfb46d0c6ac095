// Device cookies (OWASP "Slow Down Online Guessing Attacks with Device Cookies"): a browser that has
// signed in as a user gets a long-lived random token, stored hashed. Sign-in attempts for that user
// from that browser are throttled under the device's own key, so nobody else's failures lock it out.
import { and, eq, gt, lt } from "drizzle-orm";
import type { Db } from "../../d1/client";
import { nowIso } from "../../d1/client";
import { loginDevices } from "../../d1/schema";
import { randomToken, sha256Hex } from "./crypto";

export const DEVICE_COOKIE = "oracle_device";
export const DEVICE_TTL_SECONDS = 365 * 24 * 3600;

/** The device's key when `token` is a live device cookie of `userId`; undefined otherwise. */
export async function trustedDevice(db: Db, token: string | undefined, userId: string | undefined) {
  if (!token || !userId) return undefined;
  const hash = await sha256Hex(token);
  const rows = await db
    .select({ hash: loginDevices.tokenHash })
    .from(loginDevices)
    .where(and(eq(loginDevices.tokenHash, hash), eq(loginDevices.userId, userId), gt(loginDevices.expiresAt, nowIso())))
    .limit(1);
  return rows[0]?.hash;
}

/** A new device token for `userId`; expired devices of every user are pruned on the way. */
export async function issueDevice(db: Db, userId: string): Promise<string> {
  const token = randomToken("od");
  const expiresAt = new Date(Date.now() + DEVICE_TTL_SECONDS * 1000).toISOString();
  await db.batch([
    db.delete(loginDevices).where(lt(loginDevices.expiresAt, nowIso())),
    db.insert(loginDevices).values({ tokenHash: await sha256Hex(token), userId, expiresAt }),
  ]);
  return token;
}
