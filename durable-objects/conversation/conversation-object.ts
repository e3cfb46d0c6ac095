// The conversation Durable Object: a thin shell over the hibernation API and the RPC surface. It keeps
// no identity of its own beyond what the Worker hands it (the Worker has already checked ownership);
// each handler opens the conversation (opened-conversation.ts) and hands the event to it
// (conversation.ts), which delegates to the log, the turn's host and the triggers.
import { conversationGone } from "../../d1/conversations";
import { credentialKey, parseCredentialKey } from "../../d1/credentials";
import { ownerShard } from "../../d1/shards";
import type { Message, Notify } from "../../protocol";
import type { UserChange } from "../user-changes";
import { importTree } from "./log/log-import";
import { META_KEY } from "./open-conversation";
import { OpenedConversation } from "./opened-conversation";
import { parseClientFrame } from "./sockets/client-frames";
import { finalFramesLeft } from "./sockets/final-frames";
import { SocketHub, type SocketMeta } from "./sockets/socket-hub";
import type { ScheduledRun } from "./triggers/scheduled-runs";
import type { ChildOutcome, ChildRequest, ParentLink } from "./turn/subagents";

export class ConversationObject extends OpenedConversation {
  override async fetch(request: Request): Promise<Response> {
    const conversationId = request.headers.get("X-Conversation-Id");
    const userId = request.headers.get("X-User-Id");
    if (request.headers.get("Upgrade")?.toLowerCase() !== "websocket" || !conversationId || !userId) {
      return new Response("expected a WebSocket upgrade from the Worker", { status: 400 });
    }
    const meta = { conversationId, userId, shard: Number(request.headers.get("X-Shard") ?? 0) };
    const conversation = await this.open(meta);
    const credential = parseCredentialKey(request.headers.get("X-Credential"));
    const { client, server } = this.sockets.hub.accept({ ...meta, credential, sentAfter: conversation.log.lastSeq });
    await conversation.join(server, conversationId);
    // The copy of the user's settings is read as the socket opens: its first chat frame need not wait
    // for D1, and a revocation reaches it even before it sends one (user-cache.ts).
    this.sockets.user.read(meta, this.sockets.guard.credentials());
    return new Response(null, { status: 101, webSocket: client });
  }

  override async webSocketMessage(ws: WebSocket, data: string | ArrayBuffer): Promise<void> {
    const { hub, guard, user } = this.sockets;
    try {
      const state = SocketHub.state(ws);
      if (!state) return ws.close(1008, "unknown socket");
      const meta = { conversationId: state.conversationId, userId: state.userId, shard: state.shard };
      const conversation = await this.open(meta);
      const parsed = parseClientFrame(data);
      // A Stop from the credential that started the running turn stops it before the check: were that
      // credential revoked, the check would stop the turn all the same (stopIfStartedBy). The check then
      // waits for the turn's end and its final frames, so a D1 query it may need does not hold them back.
      const stopped =
        parsed.ok && parsed.frame.type === "agent_control" && state.credential
          ? conversation.turns.lifecycle.stopIfStartedBy(new Set([credentialKey(state.credential)]))
          : undefined;
      if (stopped) await stopped.then(() => finalFramesLeft(this.ctx.storage));
      // The credential check and a turn's settings: the object's copy of them, or one D1 round trip (user-cache.ts).
      const read = user.read(meta, guard.credentials());
      if (!(await guard.admit(ws, read.live)) || stopped) return;
      if (!parsed.ok) return hub.send(ws, { type: "error", code: parsed.code, message: parsed.message });
      await conversation.handle(ws, parsed.frame, state.credential, read.settings);
    } catch (error) {
      console.error("ConversationObject", this.ctx.id.toString(), "webSocketMessage", error);
      hub.send(ws, { type: "error", code: "internal", message: "Something went wrong handling that frame" });
    }
  }

  override async webSocketClose(ws: WebSocket, code: number, reason: string): Promise<void> {
    try {
      ws.close(code, reason);
    } catch {
      // already closed
    }
    // With no socket left, no frame will use the copy of the user's settings: it and its registration go.
    const { hub, user } = this.sockets;
    if (!hub.sockets.some((other) => other !== ws && other.readyState === WebSocket.OPEN)) await user.release();
  }

  override async webSocketError(_ws: WebSocket, error: unknown): Promise<void> {
    console.warn("ConversationObject", this.ctx.id.toString(), "socket error", error);
  }

  /**
   * A request_input question's or an approval's deadline passed, an index flush that failed is due
   * again, a schedule's run is due, or the running turn's watchdog (which wakes an object that restarted
   * with no client to wake it: opening it resumes the turn). The alarm survives eviction and restarts.
   */
  override async alarm(): Promise<void> {
    try {
      const meta = await this.ctx.storage.get<SocketMeta>(META_KEY);
      if (!meta) return;
      // Its conversation deleted while it slept (with its account, say): it erases itself and runs nothing.
      if (!this.opened && (await conversationGone(ownerShard(this.env, meta), meta.conversationId))) {
        await this.ctx.storage.deleteAlarm();
        return await this.ctx.storage.deleteAll();
      }
      await (await this.open(meta)).alarm();
    } catch (error) {
      console.error("ConversationObject", this.ctx.id.toString(), "alarm", error);
    }
  }

  /** RPC from a parent conversation's object: run a subagent's task here and return its outcome. */
  async runSubagent(meta: SocketMeta, request: ChildRequest, parent: ParentLink): Promise<ChildOutcome> {
    return (await this.open(meta)).turns.subagents.run(request, parent);
  }

  /**
   * RPC from a parent conversation's object that restarted while this subagent ran: the parent waits
   * again for the subagent's turn (which resumed when this object woke) or for the outcome it saved.
   */
  async reattachSubagent(meta: SocketMeta, parent: ParentLink): Promise<ChildOutcome> {
    return (await this.open(meta)).turns.subagents.reattach(parent);
  }

  /** RPC from a parent conversation's object: its delegate call was stopped, so stop this subagent. */
  async stopSubagent(): Promise<void> {
    this.opened?.turns.lifecycle.stop();
  }

  /** RPC from the Worker (docs/protocol.md `GET …/messages`): a page of the log, read from this object's SQLite. */
  async messages(
    meta: SocketMeta,
    query: { after: number; limit: number; view: "path" | "tree"; leaf?: number },
  ): Promise<{ messages: Message[]; leaf_seq: number } | undefined> {
    return (await this.open(meta)).page(query);
  }

  /** RPC from the Worker (share links): the whole path that ends at `leaf` (default: the current one). */
  async snapshot(meta: SocketMeta, leaf?: number): Promise<{ messages: Message[]; leaf_seq: number }> {
    return (await this.open(meta)).snapshot(leaf);
  }

  /** RPC from the Worker (a fork of a shared conversation): copies of `messages` as this new conversation's path. */
  async importMessages(meta: SocketMeta, messages: Message[]): Promise<number> {
    return (await this.open(meta)).importMessages(messages);
  }

  /**
   * RPC from the Worker (an account import): a part of a whole log, every branch, each message with its
   * own time, into this new conversation; `leafSeq` (with the last part) is the version shown.
   */
  async importLog(meta: SocketMeta, messages: Message[], leafSeq?: number): Promise<number> {
    return importTree((await this.open(meta)).log, messages, leafSeq);
  }

  /** RPC from the Worker: whether a turn runs now. */
  async status(meta: SocketMeta): Promise<{ running: boolean }> {
    return { running: (await this.open(meta)).turns.lifecycle.running };
  }

  /** RPC from the Worker: an external trigger (docs/protocol.md `notify`), delivered at the next injection point. */
  async notify(meta: SocketMeta, notify: Notify): Promise<void> {
    await (await this.open(meta)).notify(notify);
  }

  /** RPC from the Worker before the conversation is deleted: stop, disconnect, forget. */
  async erase(meta: SocketMeta): Promise<void> {
    await (await this.open(meta)).erase();
    await this.sockets.user.release();
    this.forget();
  }

  /**
   * RPC (durable-objects/user-changes.ts): the user's settings changed, or a credential was revoked (the
   * sockets are checked now, and the revoked ones closed). Returns whether this object still needs
   * telling: it holds a copy, or has sockets that a revocation must reach.
   */
  async userChanged(change: UserChange): Promise<boolean> {
    const { hub, guard, user } = this.sockets;
    const needed = user.holding || hub.sockets.length > 0;
    user.changed();
    if (change === "credentials" && hub.sockets.length) await guard.recheck();
    return needed;
  }

  /** RPC from the Worker: the conversation's schedules changed; run what is due and re-arm the alarm. */
  async schedulesChanged(meta: SocketMeta): Promise<void> {
    await (await this.open(meta)).schedules.onAlarm();
  }

  /** RPC from another conversation's object: a project's schedule's run, which goes on in this new conversation. */
  async acceptScheduledRun(meta: SocketMeta, run: ScheduledRun): Promise<void> {
    await (await this.open(meta)).schedules.accept(run);
  }
}
