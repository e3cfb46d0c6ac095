// An admin's quota for one user over the operator's defaults (protocol QuotaOverride, stored as JSON).
import { type QuotaOverride, QuotaOverrideSchema } from "../protocol";

/** A stored override (parsed JSON) that no longer passes counts as none. */
export function overrideOf(limits: unknown): QuotaOverride {
  const parsed = QuotaOverrideSchema.safeParse(limits ?? {});
  return parsed.success ? parsed.data : {};
}

export async function readOverride(d1: D1Database, userId: string): Promise<QuotaOverride> {
  const row = await d1
    .prepare("SELECT limits FROM user_quotas WHERE user_id = ?")
    .bind(userId)
    .first<{ limits: string }>();
  return overrideOf(row ? JSON.parse(row.limits) : undefined);
}

/** `{}` deletes the override (the defaults hold again). */
export async function writeOverride(d1: D1Database, userId: string, override: QuotaOverride): Promise<void> {
  if (!Object.keys(override).length) {
    await d1.prepare("DELETE FROM user_quotas WHERE user_id = ?").bind(userId).run();
    return;
  }
  await d1
    .prepare("INSERT INTO user_quotas (user_id, limits) VALUES (?1, ?2) ON CONFLICT(user_id) DO UPDATE SET limits = ?2")
    .bind(userId, JSON.stringify(override))
    .run();
}
