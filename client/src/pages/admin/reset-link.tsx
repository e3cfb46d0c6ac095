// Admin → Users: a single-use link that lets someone who forgot their password set a new one (docs/
// protocol.md "Sessions and password"). Shown this once with Copy; a new link replaces the older one.
import { useState } from "preact/hooks";
import { type AdminUser, type ResetLink, ResetLinkSchema } from "../../../../protocol";
import { requestJson } from "../../lib/api";
import { COPY_LABELS, useCopy } from "../../lib/use-copy";
import { when } from "./format";
import style from "./style.module.css";

export function ResetLinkButton({ user }: { user: AdminUser }) {
  const [link, setLink] = useState<ResetLink | null>(null);
  const [problem, setProblem] = useState("");
  const make = async () => {
    setProblem("");
    const result = await requestJson(
      `/api/admin/users/${encodeURIComponent(user.id)}/reset-link`,
      ResetLinkSchema,
      "POST",
    );
    if (!result.ok) return setProblem(`Could not make a reset link: ${result.error.message}`);
    setLink(result.data);
  };
  return (
    <>
      <button type="button" onClick={() => void make()} data-testid="admin-reset-link">
        Password reset link
      </button>
      {problem && (
        <p class={style.meta} role="alert">
          {problem}
        </p>
      )}
      {link && <MadeResetLink link={link} username={user.username} />}
    </>
  );
}

function MadeResetLink({ link, username }: { link: ResetLink; username: string }) {
  const url = `${location.origin}${link.url}`;
  const { state, copy } = useCopy(url);
  return (
    <div class={style.made} role="status">
      <p>
        Send this link to {username} only: it sets a new password once, signs them out everywhere and works until{" "}
        {when(link.expires_at)}.
      </p>
      <div class={style.linkRow}>
        <input
          readOnly
          value={url}
          aria-label={`Password reset link for ${username}`}
          onFocus={(e) => (e.target as HTMLInputElement).select()}
          data-testid="admin-reset-url"
        />
        <button type="button" onClick={copy}>
          {COPY_LABELS[state]}
        </button>
      </div>
    </div>
  );
}
