// The one way a frame leaves the conversation object: to every open tab, with the revocation sweep
// that follows sending (socket-guard.ts), after the watchers have seen it. The turn runner watches
// the stream to keep the mid-turn text, the running-turn marker's open calls and a subagent's parent
// current (turn/live-step.ts); the schedule runner, for a turn that changed its schedules. The agent loop is handed this port as its FramePort (agent/turn/io.ts).
import type { FramePort } from "../../../agent/turn/io";
import type { ServerFrame } from "../../../protocol";
import type { SocketGuard } from "./socket-guard";
import type { SocketHub } from "./socket-hub";

export class ConversationFrames implements FramePort {
  private readonly watchers: ((frame: ServerFrame) => void)[] = [];

  constructor(
    private readonly hub: SocketHub,
    private readonly guard: SocketGuard,
  ) {}

  watch(watcher: (frame: ServerFrame) => void): void {
    this.watchers.push(watcher);
  }

  send(frame: ServerFrame): void {
    for (const watcher of this.watchers) watcher(frame);
    this.hub.broadcast(frame);
    this.guard.sweepSoon();
  }
}
