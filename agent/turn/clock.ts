// A time limit as an AbortSignal that can pause while the agent waits for the user (request_input, a
// call waiting for approval, an MCP server's question), so a wait for the user does not eat the user's
// timeout: the turn's, and a tool call's own (tools/executor.ts). Waits may overlap (parallel calls each
// waiting for approval): the clock runs again when the last ends.
export class TurnClock {
  private readonly controller = new AbortController();
  private timer: ReturnType<typeof setTimeout> | undefined;
  private remainingMs: number;
  private resumedAt: number;
  private waits = 0;

  /** `reason`: the message of the TimeoutError the signal aborts with (an MCP server is told it). */
  constructor(
    limitMs: number,
    private readonly reason = "time limit reached",
  ) {
    this.remainingMs = limitMs;
    this.resumedAt = Date.now();
    this.arm();
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** When the time runs out if the clock is not paused again (epoch ms). */
  get deadline(): number {
    return this.timer === undefined ? Date.now() + this.remainingMs : this.resumedAt + this.remainingMs;
  }

  get expired(): boolean {
    return this.controller.signal.aborted;
  }

  pause(): void {
    this.waits++;
    if (this.timer === undefined) return;
    clearTimeout(this.timer);
    this.timer = undefined;
    this.remainingMs -= Date.now() - this.resumedAt;
  }

  resume(): void {
    this.waits = Math.max(0, this.waits - 1);
    if (this.waits > 0 || this.timer !== undefined || this.expired) return;
    this.resumedAt = Date.now();
    this.arm();
  }

  /** `wait` with the clock paused until it settles. */
  async paused<T>(wait: () => Promise<T>): Promise<T> {
    this.pause();
    try {
      return await wait();
    } finally {
      this.resume();
    }
  }

  dispose(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
  }

  private arm(): void {
    this.timer = setTimeout(
      () => this.controller.abort(new DOMException(this.reason, "TimeoutError")),
      Math.max(0, this.remainingMs),
    );
  }
}
