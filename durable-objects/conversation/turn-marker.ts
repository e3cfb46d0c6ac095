// The running-turn marker in Durable Object storage: written when a turn starts, updated as tool
// calls start and finish, removed when the turn ends. Finding it in a fresh instance means the turn
// was cut short (the object restarted), and its open calls are the ones left without a result.
// The record that a call started is durable before the call runs (the output gate holds the call's
// requests until the write commits), so a call with effects is never lost from the record. Read-only
// calls are not recorded: cut short, they changed nothing.
export const RUNNING_TURN_KEY = "running-turn";

export interface OpenCall {
  tool: string;
  args: unknown;
  step: number;
}

export interface TurnMarker {
  started_at: string;
  calls: Record<string, OpenCall>;
}

export class TurnMarkerStore {
  private marker: TurnMarker | undefined;

  constructor(private readonly storage: DurableObjectStorage) {}

  async begin(): Promise<void> {
    this.marker = { started_at: new Date().toISOString(), calls: {} };
    await this.storage.put(RUNNING_TURN_KEY, this.marker);
  }

  callStarted(callId: string, call: OpenCall, opts: { readOnly?: boolean } = {}): void {
    // A read-only call is not recorded: cut short, it changed nothing, and its record would cost a
    // storage commit on the call's path.
    if (!this.marker || opts.readOnly) return;
    this.marker.calls[callId] = call;
    void this.storage.put(RUNNING_TURN_KEY, this.marker);
  }

  callEnded(callId: string): void {
    if (!this.marker?.calls[callId]) return;
    delete this.marker.calls[callId];
    void this.storage.put(RUNNING_TURN_KEY, this.marker);
  }

  async end(): Promise<void> {
    this.marker = undefined;
    await this.storage.delete(RUNNING_TURN_KEY);
  }

  /** The marker a previous instance left behind, if any. */
  stored(): Promise<TurnMarker | undefined> {
    return this.storage.get<TurnMarker>(RUNNING_TURN_KEY);
  }
}
