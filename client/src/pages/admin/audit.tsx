// Admin → Audit log: every admin action, newest first (who, what, whom, when), a page at a time.
import { useEffect, useState } from "preact/hooks";
import { type AuditEntry, AuditLogSchema } from "../../../../protocol";
import { pageStyle } from "../../components/page-frame";
import { requestJson } from "../../lib/api";
import { when } from "./format";
import style from "./style.module.css";

const PAGE = 50;

const VERBS: Record<AuditEntry["action"], string> = {
  approve: "approved",
  disable: "disabled",
  enable: "enabled",
  promote: "made an admin:",
  demote: "removed as admin:",
  set_quota: "set the quota of",
  create_invite: "made an invite link",
  revoke_invite: "revoked an invite link",
  reset_link: "made a password reset link for",
};

function detailWords(entry: AuditEntry): string {
  const d = entry.detail;
  if (entry.action === "set_quota") {
    const parts = Object.entries(d).map(([k, v]) => `${k.replace("_", " ")} ${v === null ? "no limit" : String(v)}`);
    return parts.length ? ` (${parts.join(", ")})` : " (back to the defaults)";
  }
  if ((entry.action === "create_invite" || entry.action === "revoke_invite") && typeof d.note === "string" && d.note)
    return ` for “${d.note}”`;
  return "";
}

export function AuditLog() {
  const [entries, setEntries] = useState<AuditEntry[] | undefined>();
  const [more, setMore] = useState(false);
  const [error, setError] = useState("");
  const load = async (before?: number) => {
    const r = await requestJson(`/api/admin/audit?limit=${PAGE}${before ? `&before=${before}` : ""}`, AuditLogSchema);
    if (!r.ok) return setError(`Could not load the audit log: ${r.error.message}`);
    setEntries((old) => [...(before ? (old ?? []) : []), ...r.data.entries]);
    setMore(r.data.entries.length === PAGE);
  };
  useEffect(() => {
    void load();
  }, []);
  return (
    <section aria-labelledby="admin-audit-title" data-testid="admin-audit">
      <h2 id="admin-audit-title" class={style.heading}>
        Audit log
      </h2>
      {error && (
        <p class={pageStyle.statusError} role="alert">
          {error}
        </p>
      )}
      {entries && entries.length === 0 && <p class={pageStyle.empty}>No admin action yet.</p>}
      {entries && entries.length > 0 && (
        <ul class={style.rows}>
          {entries.map((entry) => (
            <li key={entry.id} class={style.auditRow} data-testid="admin-audit-entry">
              <time dateTime={entry.at} class={style.meta}>
                {when(entry.at)}
              </time>
              <span>
                <strong>{entry.actor}</strong> {VERBS[entry.action]}
                {entry.target ? <strong> {entry.target}</strong> : ""}
                {detailWords(entry)}
              </span>
            </li>
          ))}
        </ul>
      )}
      {more && entries && (
        <button type="button" onClick={() => load(entries.at(-1)?.id)}>
          Load more
        </button>
      )}
    </section>
  );
}
