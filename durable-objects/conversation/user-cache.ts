// What the object read of its user in D1 (the settings a turn starts from, which of its sockets'
// credentials are live), kept while a socket is open so that a chat frame on a warm object starts its
// turn without a D1 round trip. Every fill registers this conversation in D1 (live-conversations.ts)
// in the same batch; a route that writes what the copy holds, or revokes a credential, tells each
// registered object before it answers (durable-objects/user-changes.ts), and the copy is dropped. A
// read begun before such a change is used by the frame that asked but not kept. Out-of-band changes
// (a session's expiry, a row edited by hand) are bounded by the copy's age: at most COPY_TTL_MS, and
// never past the first live session's expiry.
import type { Credential } from "../../d1/credentials";
import { credentialKey } from "../../d1/credentials";
import { forgetLive } from "../../d1/live-conversations";
import { loadTurnStart, type TurnSettingsRead } from "../../d1/user-settings";
import type { SocketMeta } from "./sockets/socket-hub";

export const COPY_TTL_MS = 60_000;

/** What a frame's checks and its turn read: from the copy, or from D1. */
export interface UserRead {
  settings: Promise<TurnSettingsRead>;
  live: Promise<Set<string>>;
}

interface Copy {
  settings: TurnSettingsRead;
  live: Set<string>;
  /** The keys asked about: a socket opened since with another credential needs a fresh read. */
  asked: Set<string>;
  until: number;
  epoch: string;
  meta: SocketMeta;
}

export class UserCache {
  private copy: Copy | undefined;
  private generation = 0;
  /** A read under way, which a frame arriving meanwhile shares. */
  private pending: { generation: number; asked: Set<string>; read: UserRead } | undefined;
  /** When the last read of the credentials from D1 began (socket-guard.ts times its backstop from it). */
  checkedAt = 0;

  /** `db`: the owner's shard, known once the conversation is opened. */
  constructor(private readonly db: () => D1Database) {}

  /** The settings and the live keys of `credentials`: from the copy if it holds them, else one D1 round trip. */
  read(meta: SocketMeta, credentials: readonly Credential[]): UserRead {
    const now = Date.now();
    const covers = (asked: Set<string>) => credentials.every((c) => asked.has(credentialKey(c)));
    const copy = this.copy;
    if (copy && now < copy.until && covers(copy.asked)) {
      return { settings: Promise.resolve(copy.settings), live: Promise.resolve(copy.live) };
    }
    const pending = this.pending;
    if (pending && pending.generation === this.generation && covers(pending.asked)) return pending.read;
    return this.fill(meta, credentials, now);
  }

  private fill(meta: SocketMeta, credentials: readonly Credential[], now: number): UserRead {
    const generation = this.generation;
    const asked = new Set(credentials.map(credentialKey));
    const epoch = crypto.randomUUID();
    const loaded = loadTurnStart(this.db(), meta.userId, meta.conversationId, credentials, epoch).then((r) => {
      // A change told while this read was under way may have come after it: not kept.
      if (generation === this.generation) {
        const expires = r.expires ? Date.parse(r.expires) : Number.POSITIVE_INFINITY;
        this.copy = { ...r, asked, until: Math.min(now + COPY_TTL_MS, expires), epoch, meta };
      }
      return r;
    });
    this.checkedAt = now;
    const read: UserRead = { settings: loaded.then((r) => r.settings), live: loaded.then((r) => r.live) };
    const pending = { generation, asked, read };
    this.pending = pending;
    const done = () => {
      if (this.pending === pending) this.pending = undefined;
    };
    loaded.then(done, done);
    // Never an unhandled rejection when the frame is not acted on; who uses it still sees the error.
    read.settings.catch(() => undefined);
    read.live.catch(() => undefined);
    return read;
  }

  /** Holds a copy, or is reading one: what a change must reach. */
  get holding(): boolean {
    return this.copy !== undefined || this.pending !== undefined;
  }

  /** What the copy holds changed (or may have): the next frame reads D1, and a read under way is not kept. */
  changed(): void {
    this.generation++;
    this.copy = undefined;
  }

  /** The last socket closed: the copy goes, and so does its registration. */
  async release(): Promise<void> {
    const copy = this.copy;
    this.changed();
    if (copy) await forgetLive(this.db(), copy.meta.userId, copy.meta.conversationId, copy.epoch);
  }
}
