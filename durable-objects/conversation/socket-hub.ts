// Every socket of the conversation, through the hibernation API: per-socket identity lives in the
// socket's attachment, so it survives the object being evicted while sockets stay open.
import type { ServerFrame } from "../../protocol";

export interface SocketMeta {
  conversationId: string;
  userId: string;
}

export class SocketHub {
  constructor(private readonly ctx: DurableObjectState) {}

  /** Accepts a new hibernatable socket; returns the client end to hand back and the server end to talk on. */
  accept(meta: SocketMeta): { client: WebSocket; server: WebSocket } {
    const { 0: client, 1: server } = new WebSocketPair();
    this.ctx.acceptWebSocket(server);
    server.serializeAttachment(meta);
    return { client, server };
  }

  static meta(ws: WebSocket): SocketMeta | undefined {
    const meta = ws.deserializeAttachment() as SocketMeta | null;
    return meta?.conversationId ? meta : undefined;
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

  closeAll(code: number, reason: string): void {
    for (const ws of this.ctx.getWebSockets()) {
      try {
        ws.close(code, reason);
      } catch {
        // already closed
      }
    }
  }
}
