// The conversation Durable Object: a thin shell over the hibernation API. It keeps no identity of its
// own beyond what the Worker hands it (the Worker has already checked ownership) and delegates to the
// message log (in its own SQLite), the index outbox, the socket hub and the turn runner.
import { DurableObject } from "cloudflare:workers";
import { stampEvent } from "../../agent/events";
import { BusNotifier } from "../../agent/notifications/notifier";
import { findSubscriber, isEnabled } from "../../agent/notifications/subscribers";
import { SCHEDULE } from "../../agent/tools/schedule";
import { type Credential, credentialKey, parseCredentialKey } from "../../d1/credentials";
import type { ClientFrame, Message, MessageDraft, Notify } from "../../protocol";
import { ConversationBranches } from "./branches";
import { parseClientFrame } from "./client-frames";
import { ConversationFrames } from "./frame-port";
import { IndexOutbox } from "./index-outbox";
import { importLegacyMessages } from "./legacy-import";
import { ensureLocalTables } from "./local-tables";
import { MessageLog } from "./message-log";
import { NotifyInbox } from "./notify-inbox";
import { recoverInterruptedTurn } from "./recovery";
import { ScheduleRunner } from "./scheduled-runs";
import { SocketGuard } from "./socket-guard";
import { SocketHub, type SocketMeta } from "./socket-hub";
import type { ChildOutcome, ChildRequest, ParentLink } from "./subagents";
import { ToggleCache } from "./toggle-cache";
import { helloModel, TurnRunner, type TurnSettings } from "./turn-runner";

const META_KEY = "meta";

export class ConversationObject extends DurableObject<Env> {
  private readonly hub: SocketHub;
  private readonly guard: SocketGuard;
  private log: MessageLog | undefined;
  private outbox: IndexOutbox | undefined;
  private turns: TurnRunner | undefined;
  private notifier: BusNotifier | undefined;
  private schedules: ScheduleRunner | undefined;
  private readonly inbox: NotifyInbox;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.hub = new SocketHub(ctx);
    this.inbox = new NotifyInbox(ctx.storage);
    this.guard = new SocketGuard(this.hub, env.DB, (revoked) => this.turns?.stopIfStartedBy(revoked));
    // Answered by the runtime itself, without waking a hibernated object.
    ctx.setWebSocketAutoResponse(new WebSocketRequestResponsePair('{"type":"ping"}', '{"type":"pong"}'));
  }

  /** Binds this instance to its conversation the first time it learns who it is. */
  private async open(meta: SocketMeta): Promise<MessageLog> {
    // No other event may run while a fresh instance loads its log and recovers a dead turn.
    if (!this.log) await this.ctx.blockConcurrencyWhile(() => this.init(meta));
    return this.requireLog();
  }

  private async init(meta: SocketMeta): Promise<void> {
    if (this.log) return;
    ensureLocalTables(this.ctx.storage.sql);
    // A conversation from before the log lived here brings its D1 rows along, once (legacy-import.ts).
    await importLegacyMessages(this.ctx.storage, this.env.DB, meta.conversationId);
    const outbox = new IndexOutbox(
      this.ctx.storage,
      this.env.DB,
      meta,
      () => log.lastSeq,
      (work) => this.ctx.waitUntil(work),
    );
    const frames = new ConversationFrames(this.hub, this.guard);
    const log = new MessageLog(this.ctx.storage.sql, (message) => {
      frames.send({ type: "message", message });
      outbox.appended();
    });
    const toggles = new ToggleCache(this.env.DB, meta.userId);
    const notifier = new BusNotifier({
      append: (draft) => log.append(draft),
      enabledFilter: async () => {
        const current = await toggles.current(this.turns?.running ?? false);
        return (id) => isEnabled(findSubscriber(id ?? ""), current);
      },
      delivered: (ids) => this.inbox.remove(ids),
    });
    const turns = new TurnRunner(this.ctx, this.env, meta, {
      messages: () => log.path(),
      branches: new ConversationBranches(log, (frame) => frames.send(frame)),
      append: (draft) => log.append(draft),
      frames,
      notifier,
      toggles,
      index: outbox,
      idle: () => this.afterTurn(),
    });
    const schedules = new ScheduleRunner(this.ctx.storage, this.env.DB, meta, {
      busy: async () => turns.running || (await turns.pending.current()) !== undefined,
      start: (text, origin) => turns.start({ type: "chat", content: text }, undefined, undefined, origin),
    });
    // A turn that used the schedule tool changed this conversation's schedules: re-read at its end.
    frames.watch((frame) => {
      if (frame.type === "tool_start" && frame.tool === SCHEDULE) schedules.changed();
    });
    await this.ctx.storage.put(META_KEY, meta);
    // A turn that a previous instance was running was cut short: it goes on, or ends (recovery.ts).
    await recoverInterruptedTurn({
      marker: turns.marker,
      pending: turns.pending,
      approvals: turns.approvals,
      messages: () => log.path(),
      append: (draft) => log.append(draft),
      frames,
      enabled: turns.recovery,
      resume: (record, point) => turns.resume(record, point),
      ended: (record, outcome) => turns.endedByRecovery(record, outcome),
    });
    // Triggers accepted before the previous instance died: no turn runs now, so they are due at once.
    const undelivered = await this.inbox.undelivered(() => log.deliveredTriggerIds());
    for (const event of undelivered) notifier.emitTrigger(event);
    if (undelivered.length) await notifier.flush("all");
    // Index updates a previous instance did not get to send.
    if (outbox.pending) outbox.soon();
    this.log = log;
    this.outbox = outbox;
    this.notifier = notifier;
    this.turns = turns;
    this.schedules = schedules;
  }

  /** A turn ended: a scheduled run waiting for it starts, and the alarm is re-armed (scheduled-runs.ts). */
  private afterTurn(): void {
    const work = this.schedules?.afterTurn();
    if (work)
      this.ctx.waitUntil(
        work.catch((error) => console.error("ConversationObject", this.ctx.id.toString(), "scheduled run", error)),
      );
  }

  private requireLog(): MessageLog {
    if (!this.log) throw new Error("conversation used before it was opened");
    return this.log;
  }

  override async fetch(request: Request): Promise<Response> {
    const conversationId = request.headers.get("X-Conversation-Id");
    const userId = request.headers.get("X-User-Id");
    if (request.headers.get("Upgrade")?.toLowerCase() !== "websocket" || !conversationId || !userId) {
      return new Response("expected a WebSocket upgrade from the Worker", { status: 400 });
    }
    const meta = { conversationId, userId };
    const log = await this.open(meta);
    const credential = parseCredentialKey(request.headers.get("X-Credential"));
    const { client, server } = this.hub.accept({ ...meta, credential, sentAfter: log.lastSeq });
    const pending = await this.turns?.pending.current();
    const approvals = await this.turns?.approvals.waiting();
    this.hub.send(server, {
      type: "hello",
      conversation_id: conversationId,
      last_seq: log.lastSeq,
      leaf_seq: log.leafSeq,
      running: this.turns?.running ?? false,
      ...(this.turns?.resuming ? { resuming: true } : {}),
      ...(pending ? { pending_input: pending } : {}),
      ...(approvals?.length ? { pending_approvals: approvals } : {}),
      model: helloModel(this.ctx.storage.sql, this.env),
    });
    // A tab that joins mid-step first gets the reasoning and text streamed so far, then the live stream.
    const live = this.turns?.liveStep;
    if (live?.reasoning) this.hub.send(server, { type: "reasoning_delta", step: live.step, delta: live.reasoning });
    if (live?.text) this.hub.send(server, { type: "text_delta", step: live.step, delta: live.text });
    return new Response(null, { status: 101, webSocket: client });
  }

  override async webSocketMessage(ws: WebSocket, data: string | ArrayBuffer): Promise<void> {
    try {
      const state = SocketHub.state(ws);
      if (!state) return ws.close(1008, "unknown socket");
      await this.open({ conversationId: state.conversationId, userId: state.userId });
      const parsed = parseClientFrame(data);
      // A chat frame's turn settings are read while the credential is checked; used only once admitted.
      const startsTurn = parsed.ok && (parsed.frame.type === "chat" || parsed.frame.type === "regenerate");
      const settings = startsTurn ? this.turns?.prefetchSettings() : undefined;
      // A Stop from the credential that started the running turn stops it before the check: were that
      // credential revoked, the check would stop the turn all the same (stopIfStartedBy). The check then
      // waits for the turn's end, so its D1 query (local D1 shares the object's thread) does not hold
      // the final frames back.
      const stopped =
        parsed.ok && parsed.frame.type === "agent_control" && state.credential
          ? this.turns?.stopIfStartedBy(new Set([credentialKey(state.credential)]))
          : undefined;
      if (stopped) await stopped;
      if (!(await this.guard.admit(ws)) || stopped) return;
      if (!parsed.ok) return this.hub.send(ws, { type: "error", code: parsed.code, message: parsed.message });
      await this.handle(ws, parsed.frame, state.credential, settings);
    } catch (error) {
      console.error("ConversationObject", this.ctx.id.toString(), "webSocketMessage", error);
      this.hub.send(ws, { type: "error", code: "internal", message: "Something went wrong handling that frame" });
    }
  }

  /** One valid frame from a socket opened with `credential` (which turns it starts remember). */
  private async handle(
    ws: WebSocket,
    frame: ClientFrame,
    credential: Credential | undefined,
    settings?: Promise<TurnSettings>,
  ): Promise<void> {
    const turns = this.turns;
    const log = this.requireLog();
    // A frame the turn runner refused is answered with why, on this socket only.
    const answer = (refused: { code: string; message: string } | undefined) => {
      if (refused) this.hub.send(ws, { type: "error", ...refused });
    };
    switch (frame.type) {
      case "ping":
        return this.hub.send(ws, { type: "pong" });
      case "resume": {
        const range = SocketHub.claimResume(ws, frame.after_seq);
        if (!range) return;
        // Without `tree`, a client reads one linear conversation: the current path.
        const view = frame.tree ? { view: "tree" as const } : { view: "path" as const };
        for (const message of log.range(range.after, range.through, view))
          this.hub.send(ws, { type: "message", message });
        return;
      }
      case "chat":
        return answer(await turns?.start(frame, credential, settings));
      case "regenerate":
        return answer(await turns?.regenerate(frame, credential, settings));
      case "switch_branch":
        return answer(await turns?.switchBranch(frame.seq));
      case "agent_control":
        if (!turns?.stop()) this.hub.send(ws, { type: "error", code: "not_running", message: "No turn is running" });
        return;
      case "agent_user_input": {
        if (!turns || turns.pending.answer(frame.content)) return;
        // The question outlived its turn (the object restarted while it waited): the resumed turn takes
        // the answer when it reaches its question, or (recovery off) the answer carries the turn on.
        return answer(await turns.answerAfterRestart(frame.content, credential));
      }
      case "tool_approval":
        if (!turns) return;
        return answer(await turns.decideApproval(frame));
    }
  }

  override async webSocketClose(ws: WebSocket, code: number, reason: string): Promise<void> {
    try {
      ws.close(code, reason);
    } catch {
      // already closed
    }
  }

  override async webSocketError(_ws: WebSocket, error: unknown): Promise<void> {
    console.warn("ConversationObject", this.ctx.id.toString(), "socket error", error);
  }

  /** RPC from a parent conversation's object: run a subagent's task here and return its outcome. */
  async runSubagent(meta: SocketMeta, request: ChildRequest, parent: ParentLink): Promise<ChildOutcome> {
    await this.open(meta);
    const turns = this.turns;
    if (!turns) throw new Error("conversation not open");
    return turns.runAsSubagent(request, parent);
  }

  /**
   * RPC from a parent conversation's object that restarted while this subagent ran: the parent waits
   * again for the subagent's turn (which resumed when this object woke) or for the outcome it saved.
   */
  async reattachSubagent(meta: SocketMeta, parent: ParentLink): Promise<ChildOutcome> {
    await this.open(meta);
    const turns = this.turns;
    if (!turns) throw new Error("conversation not open");
    return turns.reattachAsSubagent(parent);
  }

  /** RPC from a parent conversation's object: its delegate call was stopped, so stop this subagent. */
  async stopSubagent(): Promise<void> {
    this.turns?.stop();
  }

  /**
   * RPC from the Worker (docs/protocol.md `GET …/messages`): a page of the current path (or of the path
   * to `leaf`, or of every branch), read from this object's SQLite. Undefined for a `leaf` it lacks.
   */
  async messages(
    meta: SocketMeta,
    query: { after: number; limit: number; view: "path" | "tree"; leaf?: number },
  ): Promise<{ messages: Message[]; leaf_seq: number } | undefined> {
    const log = await this.open(meta);
    if (query.leaf !== undefined && !log.has(query.leaf)) return undefined;
    const view = query.view === "tree" ? { view: "tree" as const } : { view: "path" as const, leaf: query.leaf };
    return { messages: log.page(query.after, query.limit, undefined, view), leaf_seq: log.leafSeq };
  }

  /** RPC from the Worker (share links): the whole path that ends at `leaf` (default: the current one). */
  async snapshot(meta: SocketMeta, leaf?: number): Promise<{ messages: Message[]; leaf_seq: number }> {
    const log = await this.open(meta);
    const end = leaf ?? log.leafSeq;
    return { messages: log.pathTo(end), leaf_seq: end };
  }

  /**
   * RPC from the Worker (a fork of a shared conversation): copies of `messages`, in order, as this new
   * conversation's one path. Seqs are new, so a compaction's `through_seq` is carried over to the copy of
   * the last message it covered. Refused on a conversation that already has messages.
   */
  async importMessages(meta: SocketMeta, messages: Message[]): Promise<number> {
    const log = await this.open(meta);
    if (log.lastSeq > 0) throw new Error("messages are imported only into a new conversation");
    const seqs = new Map<number, number>();
    for (const message of messages) {
      const { seq, id: _id, created_at: _at, parent_seq: _parent, ...draft } = message;
      const copy =
        draft.role === "system" && draft.item.kind === "compaction"
          ? { ...draft, item: { ...draft.item, through_seq: copiedThrough(seqs, draft.item.through_seq) } }
          : draft;
      seqs.set(seq, (await log.append(copy as MessageDraft)).seq);
    }
    return log.lastSeq;
  }

  /** RPC from the Worker: whether a turn runs now. */
  async status(meta: SocketMeta): Promise<{ running: boolean }> {
    await this.open(meta);
    return { running: this.turns?.running ?? false };
  }

  /** RPC from the Worker: an external trigger (docs/protocol.md `notify`), delivered at the next injection point. */
  async notify(meta: SocketMeta, notify: Notify): Promise<void> {
    await this.open(meta);
    const event = stampEvent({
      type: "external.notify",
      severity: notify.severity,
      source: "External",
      payload: { message: notify.message },
    });
    // Persisted before the Worker answers 202 (notify-inbox.ts); delivered from the bus as usual.
    await this.inbox.add(event);
    this.notifier?.emitTrigger(event);
    // With no turn running there is no injection point to wait for: persist and broadcast now.
    if (!this.turns?.running) await this.notifier?.flush("all");
  }

  /**
   * The deadline of a request_input question passed, an index flush that failed is due again, or the
   * running turn's watchdog (which wakes an object that restarted with no client to wake it: opening it
   * resumes the turn). The alarm survives eviction and restarts.
   */
  override async alarm(): Promise<void> {
    try {
      const meta = await this.ctx.storage.get<SocketMeta>(META_KEY);
      if (!meta) return;
      await this.open(meta);
      if (this.outbox?.pending) await this.outbox.flush();
      await this.turns?.onAlarm();
      await this.schedules?.onAlarm();
    } catch (error) {
      console.error("ConversationObject", this.ctx.id.toString(), "alarm", error);
    }
  }

  /** RPC from the Worker before the conversation is deleted: stop, disconnect, forget. */
  async erase(meta: SocketMeta): Promise<void> {
    await this.open(meta);
    this.schedules?.close();
    await this.turns?.stopAndWait();
    this.hub.closeAll(1000, "conversation deleted");
    // No index update may land after the Worker deletes the conversation's D1 rows.
    await this.outbox?.close();
    await this.ctx.storage.deleteAlarm();
    await this.ctx.storage.deleteAll();
    this.log = undefined;
    this.outbox = undefined;
    this.turns = undefined;
    this.schedules = undefined;
  }

  /** RPC from the Worker: the conversation's schedules changed; run what is due and re-arm the alarm. */
  async schedulesChanged(meta: SocketMeta): Promise<void> {
    await this.open(meta);
    await this.schedules?.onAlarm();
  }
}

/** The copy's seq of the last copied message at or before `through` (0 when none was copied). */
function copiedThrough(seqs: ReadonlyMap<number, number>, through: number): number {
  let best = 0;
  for (const [from, to] of seqs) if (from <= through) best = Math.max(best, to);
  return best;
}
