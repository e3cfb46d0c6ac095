// Revocation reaches open sockets (docs/protocol.md "Identity"). Each socket remembers the credential it
// was opened with. A revocation through the API (logout, a token deleted) reaches the object before the
// route answers (durable-objects/user-changes.ts) and every socket is checked at once (`recheck`). Every
// frame a client sends is admitted against the live credentials of all the conversation's sockets,
// from the object's copy (user-cache.ts, dropped at each revocation) or one D1 round trip shared with a
// turn's settings, so no frame of a revoked socket is acted on and no turn starts after a revocation.
// While the object only sends (a turn runs, a notify arrives) it re-checks D1 at most every
// SWEEP_INTERVAL_MS, a backstop for what no route announced (an expiry, a row removed by hand); a
// turn started by a revoked credential is stopped.

import { database } from "../../../d1/client";
import { type Credential, credentialKey, liveCredentials } from "../../../d1/credentials";
import { REVOKED_CLOSE_CODE } from "../../../protocol/socket-close";
import type { UserCache } from "../user-cache";
import { SocketHub } from "./socket-hub";

export const SWEEP_INTERVAL_MS = 10_000;

export class SocketGuard {
  private lastSweep = 0;
  private sweeping: Promise<unknown> | undefined;

  constructor(
    private readonly hub: SocketHub,
    private readonly db: () => D1Database,
    /** Its reads check the credentials too: the backstop counts from the last of either. */
    private readonly user: Pick<UserCache, "checkedAt">,
    /** Told the keys (credentialKey) of credentials found revoked. */
    private readonly onRevoked: (keys: ReadonlySet<string>) => void,
  ) {}

  /**
   * Checks every socket now and closes those whose credential was revoked (an `unauthorized` error
   * frame, then close code 4401). Returns whether `ws` is still signed in. `checked`: the live keys of
   * `credentials()` as the object's copy holds them or as read just now (user-cache.ts).
   */
  async admit(ws: WebSocket, checked: Promise<Set<string>>): Promise<boolean> {
    const live = await this.sweep(checked);
    const credential = SocketHub.state(ws)?.credential;
    return credential !== undefined && live.has(credentialKey(credential));
  }

  /** A sweep when the last one is older than SWEEP_INTERVAL_MS; the caller does not wait for it. */
  sweepSoon(): void {
    const last = Math.max(this.lastSweep, this.user.checkedAt);
    if (this.sweeping || Date.now() - last < SWEEP_INTERVAL_MS) return;
    this.sweeping = this.sweep()
      .catch((error) => console.warn("socket credential check failed", error))
      .finally(() => {
        this.sweeping = undefined;
      });
  }

  /** A credential was revoked: every socket is checked against D1 now. */
  async recheck(): Promise<void> {
    await this.sweep();
  }

  /** The credentials of every open socket: what a sweep checks. */
  credentials(): Credential[] {
    return this.hub.sockets.flatMap((ws) => SocketHub.state(ws)?.credential ?? []);
  }

  private async sweep(checked?: Promise<Set<string>>): Promise<Set<string>> {
    // Live keys from the user's copy (checked) are timed by the copy's read (user.checkedAt).
    if (!checked) this.lastSweep = Date.now();
    const sockets = this.hub.sockets.map((ws) => ({ ws, credential: SocketHub.state(ws)?.credential }));
    const live = await (checked ?? liveCredentials(database(this.db()), this.credentials()));
    const revoked = new Set<string>();
    for (const { ws, credential } of sockets) {
      if (credential && live.has(credentialKey(credential))) continue;
      // A socket with no credential predates this check: it is treated as signed out and reconnects.
      if (credential) revoked.add(credentialKey(credential));
      this.hub.send(ws, {
        type: "error",
        code: "unauthorized",
        message: "Signed out: this session or token was revoked",
      });
      SocketHub.close(ws, REVOKED_CLOSE_CODE, "signed out");
    }
    if (revoked.size) this.onRevoked(revoked);
    return live;
  }
}
