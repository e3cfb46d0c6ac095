// Settings → Shared links: every read-only link the user has made (newest first), each with its
// conversation's title, date and what it includes, and Open, Copy and Revoke (share-row/). Links are
// made from a conversation's ⋯ menu, as the empty state says.
import { useState } from "preact/hooks";
import { ListView, pageStyle } from "../../../components/page-frame";
import { ShareRow } from "../../../components/share-row";
import type { Share } from "../../../lib/shares";
import { useShares } from "../../../lib/use-shares";
import style from "./style.module.css";

export function SharedLinks() {
  const { list, revoke } = useShares();
  const [revoked, setRevoked] = useState<string | null>(null);

  const onRevoke = async (share: Share) => {
    const result = await revoke(share);
    if (result.ok || result.error.status === 404) setRevoked(share.title || "Untitled conversation");
    return result;
  };

  return (
    <section class={style.links} aria-labelledby="shared-links-title" data-testid="shared-links">
      <h2 id="shared-links-title" class={style.title}>
        Shared links
      </h2>
      <p class={pageStyle.muted}>
        Anyone with one of these links can read that conversation as it was when the link was made. Revoke a link to
        stop it working at once.
      </p>
      <p class={pageStyle.status} role="status" data-testid="shared-links-status">
        {revoked ? `Revoked the link to “${revoked}”.` : ""}
      </p>
      <ListView
        list={list}
        empty="No shared links. To share a conversation, open it and choose Share… in its ⋯ menu."
        emptyTestId="shared-links-empty"
        listTestId="shared-links-list"
      >
        {(share) => <ShareRow key={share.id} share={share} withTitle onRevoke={onRevoke} />}
      </ListView>
    </section>
  );
}
