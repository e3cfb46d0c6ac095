// A time limit as an abort signal. The timer is our own and is cleared when the work ends: a pending
// AbortSignal.timeout would keep a Durable Object awake until it fired.

export interface Deadline {
  /** Aborts when the time is up, or when the outer signal aborts. */
  signal: AbortSignal;
  /** The time ran out (not the outer signal). */
  readonly expired: boolean;
  /** Stops the timer: call it when the work is done, whichever way it ended. */
  clear(): void;
}

/** A deadline `ms` from now, its abort reason `why`, joined to `outer` when one is given. */
export function deadline(ms: number, why: string, outer?: AbortSignal): Deadline {
  const own = new AbortController();
  const timer = setTimeout(() => own.abort(new Error(why)), ms);
  return {
    signal: outer ? AbortSignal.any([outer, own.signal]) : own.signal,
    get expired() {
      return own.signal.aborted;
    },
    clear: () => clearTimeout(timer),
  };
}
