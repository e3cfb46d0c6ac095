// Admin → Invites: a link for one person (SIGNUP=invite), shown once in full with Copy, and the list of
// links made (unused, used by whom, expired) with Revoke for an unused one.
import { useEffect, useState } from "preact/hooks";
import { type CreatedInvite, CreatedInviteSchema, type Invite, InvitesSchema } from "../../../../protocol";
import { pageStyle } from "../../components/page-frame";
import { requestEmpty, requestJson } from "../../lib/api";
import { COPY_LABELS, useCopy } from "../../lib/use-copy";
import { when } from "./format";
import style from "./style.module.css";

const DAYS = [1, 7, 30];

export function Invites() {
  const [invites, setInvites] = useState<Invite[] | undefined>();
  const [note, setNote] = useState("");
  const [days, setDays] = useState(7);
  const [made, setMade] = useState<CreatedInvite | undefined>();
  const [error, setError] = useState("");
  const load = () =>
    requestJson("/api/admin/invites", InvitesSchema).then((r) => {
      if (r.ok) setInvites(r.data.invites);
      else setError(`Could not load the invites: ${r.error.message}`);
    });
  useEffect(() => {
    void load();
  }, []);

  const create = async (e: Event) => {
    e.preventDefault();
    const r = await requestJson("/api/admin/invites", CreatedInviteSchema, "POST", {
      note,
      expires_in_hours: days * 24,
    });
    if (!r.ok) return setError(r.error.message);
    setError("");
    setMade(r.data);
    setNote("");
    void load();
  };
  const revoke = async (invite: Invite) => {
    const r = await requestEmpty(`/api/admin/invites/${invite.id}`, "DELETE");
    if (!r.ok) setError(r.error.message);
    void load();
  };

  return (
    <section aria-labelledby="admin-invites-title" data-testid="admin-invites">
      <h2 id="admin-invites-title" class={style.heading}>
        Invite links
      </h2>
      <p class={pageStyle.muted}>
        A link lets one person create an account, even when sign-ups need an invitation. It works once and expires.
      </p>
      <form class={style.inviteForm} onSubmit={create}>
        <label>
          Who it is for (optional)
          <input
            value={note}
            maxLength={100}
            onInput={(e) => setNote((e.target as HTMLInputElement).value)}
            data-testid="admin-invite-note"
          />
        </label>
        <label>
          Expires after
          <select value={days} onChange={(e) => setDays(Number((e.target as HTMLSelectElement).value))}>
            {DAYS.map((d) => (
              <option key={d} value={d}>
                {d === 1 ? "1 day" : `${d} days`}
              </option>
            ))}
          </select>
        </label>
        <button type="submit" class={style.primary} data-testid="admin-invite-create">
          Make an invite link
        </button>
      </form>
      {error && (
        <p class={pageStyle.statusError} role="alert">
          {error}
        </p>
      )}
      {made && <MadeLink invite={made} />}
      {invites && invites.length === 0 && <p class={pageStyle.empty}>No invite links yet.</p>}
      {invites && invites.length > 0 && (
        <ul class={style.rows} data-testid="admin-invite-list">
          {invites.map((invite) => {
            const expired = !invite.used_at && Date.parse(invite.expires_at) < Date.now();
            return (
              <li key={invite.id} class={style.row}>
                <div class={style.rowHead}>
                  <strong class={style.name}>{invite.note || "Invite"}</strong>
                  <span class={style.badge}>
                    {invite.used_at ? `used by ${invite.used_by}` : expired ? "expired" : "unused"}
                  </span>
                </div>
                <p class={style.meta}>
                  Made by {invite.created_by} {when(invite.created_at)} ·{" "}
                  {invite.used_at ? `used ${when(invite.used_at)}` : `expires ${when(invite.expires_at)}`}
                </p>
                {!invite.used_at && (
                  <div class={style.actions}>
                    <button type="button" onClick={() => revoke(invite)}>
                      Revoke
                    </button>
                  </div>
                )}
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}

function MadeLink({ invite }: { invite: CreatedInvite }) {
  const url = `${location.origin}${invite.url}`;
  const { state, copy } = useCopy(url);
  return (
    <div class={style.made} role="status">
      <p>The link, shown this once: send it to {invite.note || "the person you invite"}.</p>
      <div class={style.linkRow}>
        <input
          readOnly
          value={url}
          aria-label="Invite link"
          onFocus={(e) => (e.target as HTMLInputElement).select()}
          data-testid="admin-invite-url"
        />
        <button type="button" onClick={copy}>
          {COPY_LABELS[state]}
        </button>
      </div>
    </div>
  );
}
