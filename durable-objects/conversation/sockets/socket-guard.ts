// Revocation reaches open sockets (docs/protocol.md "Identity"). Each socket remembers the credential it
// was opened with. Every frame a client sends re-checks the credentials of all the conversation's
// sockets against D1 before it is handled (one round trip; a chat frame's shares its turn's settings read), so no frame of a revoked socket is acted on
// and no turn starts after a revocation. While the object only sends (a turn runs, a notify
// arrives) it re-checks at most every SWEEP_INTERVAL_MS, so a revoked socket hears at most that long
// (plus one D1 round trip) of a turn it did not start; a turn started by a revoked credential is stopped.

import { database } from "../../../d1/client";
import { type Credential, credentialKey, liveCredentials } from "../../../d1/credentials";
import { REVOKED_CLOSE_CODE } from "../../../protocol/socket-close";
import { SocketHub } from "./socket-hub";

export const SWEEP_INTERVAL_MS = 10_000;

export class SocketGuard {
  private lastSweep = 0;
  private sweeping: Promise<unknown> | undefined;

  constructor(
    private readonly hub: SocketHub,
    private readonly db: D1Database,
    /** Told the keys (credentialKey) of credentials found revoked. */
    private readonly onRevoked: (keys: ReadonlySet<string>) => void,
  ) {}

  /**
   * Checks every socket now and closes those whose credential was revoked (an `unauthorized` error
   * frame, then close code 4401). Returns whether `ws` is still signed in. `checked`: the live keys of
   * `credentials()`, read just now with other D1 work (a chat frame's turn settings, loadTurnStart).
   */
  async admit(ws: WebSocket, checked?: Promise<Set<string>>): Promise<boolean> {
    const live = await this.sweep(checked);
    const credential = SocketHub.state(ws)?.credential;
    return credential !== undefined && live.has(credentialKey(credential));
  }

  /** A sweep when the last one is older than SWEEP_INTERVAL_MS; the caller does not wait for it. */
  sweepSoon(): void {
    if (this.sweeping || Date.now() - this.lastSweep < SWEEP_INTERVAL_MS) return;
    this.sweeping = this.sweep()
      .catch((error) => console.warn("socket credential check failed", error))
      .finally(() => {
        this.sweeping = undefined;
      });
  }

  /** The credentials of every open socket: what a sweep checks. */
  credentials(): Credential[] {
    return this.hub.sockets.flatMap((ws) => SocketHub.state(ws)?.credential ?? []);
  }

  private async sweep(checked?: Promise<Set<string>>): Promise<Set<string>> {
    this.lastSweep = Date.now();
    const sockets = this.hub.sockets.map((ws) => ({ ws, credential: SocketHub.state(ws)?.credential }));
    const live = await (checked ?? liveCredentials(database(this.db), this.credentials()));
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
