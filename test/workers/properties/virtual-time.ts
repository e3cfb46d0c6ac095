// Virtual time for generated runs: vitest's fake clock (Date, setTimeout) moved by a driver. Whatever
// the script says takes time (a model streaming for 8 s, a tool hanging, the user thinking) sleeps on
// this clock; once the system has had a real moment to settle (D1 answers in well under one), the
// driver jumps to the earliest wake-up, firing every fake timer due on the way (the turn's deadline,
// a tool's timeout). A turn with a 600 s limit thus runs in milliseconds, and a limit or a Stop fires
// at its exact virtual moment.
import { vi } from "vitest";

// Captured before any fake clock is installed: the driver runs on real time.
const realSetTimeout = globalThis.setTimeout;
const settle = () => new Promise<void>((resolve) => realSetTimeout(resolve, 1));

const PAST_HORIZON_STEP_MS = 5;
/**
 * Real settles (a millisecond or more each) with no sleeper before the driver moves to the next pending
 * timer: a safety net for a wait on a timer the script does not know of. Long enough that a turn busy
 * with real work (D1) is not mistaken for one that waits.
 */
const QUIET_SETTLES = 200;

interface Sleeper {
  wake: number;
  resolve(): void;
}

export class VirtualClock {
  private sleepers: Sleeper[] = [];
  /** A moment the clock must stop at on its way (the turn's deadline): no jump passes it. */
  horizon: () => number = () => Number.POSITIVE_INFINITY;

  /** Resolves after `ms` of virtual time; rejects with the signal's reason as soon as it trips. */
  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    return new Promise((resolve, reject) => {
      const sleeper: Sleeper = {
        wake: Date.now() + Math.max(0, ms),
        resolve: () => {
          signal?.removeEventListener("abort", abort);
          resolve();
        },
      };
      const abort = () => {
        this.sleepers = this.sleepers.filter((s) => s !== sleeper);
        reject(signal?.reason);
      };
      signal?.addEventListener("abort", abort, { once: true });
      this.sleepers.push(sleeper);
    });
  }

  /** Sleeps `ms`, doing `act` (a Stop) `afterMs` in if that comes first. */
  async spend(ms: number, signal: AbortSignal, at?: { afterMs: number; act: () => void }): Promise<void> {
    if (at && at.afterMs < ms) {
      await this.sleep(at.afterMs, signal);
      at.act();
      return this.sleep(ms - at.afterMs, signal);
    }
    return this.sleep(ms, signal);
  }

  /** Moves time while `work` runs; throws if it has not ended after `hungAfterMs` of real time. */
  async drive<T>(work: Promise<T>, hungAfterMs: number): Promise<T> {
    let done = false;
    const finished = work.finally(() => {
      done = true;
    });
    const started = performance.now();
    let idle = 0;
    const loop = async () => {
      while (!done) {
        await settle();
        if (done) return;
        if (performance.now() - started > hungAfterMs)
          throw new Error(`the run did not end within ${hungAfterMs / 1000} s of real time`);
        // Nothing sleeps on the clock, yet the run waits: it waits on a timer of the code under test
        // (a retry's backoff). Once it has been quiet a while, move to that timer.
        idle = this.sleepers.length ? 0 : idle + 1;
        if (idle >= QUIET_SETTLES) {
          idle = 0;
          vi.advanceTimersToNextTimer();
        } else this.advance();
      }
    };
    const [result] = await Promise.all([finished, loop()]);
    return result;
  }

  private advance(): void {
    const now = Date.now();
    const earliest = Math.min(...this.sleepers.map((s) => s.wake));
    if (!Number.isFinite(earliest)) return;
    // Up to the horizon in one jump; past it (the loop's clock may be a hair later), in small steps.
    const horizon = this.horizon();
    const to = Math.min(earliest, horizon > now ? horizon : now + PAST_HORIZON_STEP_MS);
    if (to > now) vi.advanceTimersByTime(to - now);
    const due = this.sleepers.filter((s) => s.wake <= Date.now());
    this.sleepers = this.sleepers.filter((s) => s.wake > Date.now());
    for (const s of due) s.resolve();
  }
}

/** Runs `body` with the fake clock installed, driven by a VirtualClock. */
export async function withVirtualTime<T>(
  body: (clock: VirtualClock) => Promise<T>,
  { start = Date.parse("2026-11-23T12:00:00Z"), hungAfterMs = 15_000 } = {},
): Promise<T> {
  vi.useFakeTimers({ toFake: ["Date", "setTimeout", "clearTimeout"], now: start });
  const clock = new VirtualClock();
  try {
    return await clock.drive(body(clock), hungAfterMs);
  } finally {
    vi.useRealTimers();
  }
}
