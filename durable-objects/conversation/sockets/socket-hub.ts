// Every socket of the conversation, through the hibernation API: per-socket identity lives in the
// socket's attachment, so it survives the object being evicted while sockets stay open.

import type { Credential } from "../../../d1/credentials";
import type { ServerFrame } from "../../../protocol";

export interface SocketMeta {
  conversationId: string;
  userId: string;
  /** The owner's shard (d1/shards.ts), where the object writes the index; absent before shards: 0. */
  shard?: number;
}

/** What a socket's attachment holds. */
export interface SocketState extends SocketMeta {
  /** What the socket was opened with; checked again on every frame (socket-guard.ts). */
  credential?: Credential;
  /**
   * Every message with a seq above this has been sent on the socket: at first the last seq when it
   * was accepted (what follows reaches it live), lowered by each `resume` to what that resume sent.
   */
  sentAfter: number;
}

export class SocketHub {
  constructor(private readonly ctx: DurableObjectState) {}

  /** Accepts a new hibernatable socket; returns the client end to hand back and the server end to talk on. */
  accept(state: SocketState): { client: WebSocket; server: WebSocket } {
    const { 0: client, 1: server } = new WebSocketPair();
    this.ctx.acceptWebSocket(server);
    server.serializeAttachment(state);
    return { client, server };
  }

  static state(ws: WebSocket): SocketState | undefined {
    const state = ws.deserializeAttachment() as SocketState | null;
    return state?.conversationId ? state : undefined;
  }

  /**
   * The seq range (after, through] a `resume {after_seq}` must send on this socket, recorded as sent,
   * so that no socket ever gets a seq twice. Undefined when there is nothing left to send.
   */
  static claimResume(ws: WebSocket, afterSeq: number): { after: number; through: number } | undefined {
    const state = SocketHub.state(ws);
    if (!state || afterSeq >= state.sentAfter) return undefined;
    ws.serializeAttachment({ ...state, sentAfter: afterSeq });
    return { after: afterSeq, through: state.sentAfter };
  }

  get sockets(): WebSocket[] {
    return this.ctx.getWebSockets();
  }

  send(ws: WebSocket, frame: ServerFrame): void {
    try {
      ws.send(JSON.stringify(frame));
    } catch {
      // A socket closing under us is not an error of the turn; it will be cleaned up by its close event.
    }
  }

  broadcast(frame: ServerFrame): void {
    const text = JSON.stringify(frame);
    for (const ws of this.ctx.getWebSockets()) {
      try {
        ws.send(text);
      } catch {
        // see send()
      }
    }
  }

  static close(ws: WebSocket, code: number, reason: string): void {
    try {
      ws.close(code, reason);
    } catch {
      // already closed
    }
  }

  closeAll(code: number, reason: string): void {
    for (const ws of this.ctx.getWebSockets()) SocketHub.close(ws, code, reason);
  }
}
