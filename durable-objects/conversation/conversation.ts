// The conversation once open (open-conversation.ts builds it): its log, the index outbox, the event
// bus, the turn's host, the schedules and the notify inbox, all of which exist as long as it does.
// The object (conversation-object.ts) opens it on its first event and hands every event to it.
import { stampEvent } from "../../agent/events";
import type { BusNotifier } from "../../agent/notifications/notifier";
import type { Credential } from "../../d1/credentials";
import type { ClientFrame, Message, MessageDraft, Notify } from "../../protocol";
import type { IndexOutbox } from "./log/index-outbox";
import type { MessageLog } from "./log/message-log";
import { SocketHub } from "./sockets/socket-hub";
import type { NotifyInbox } from "./triggers/notify-inbox";
import type { ScheduleRunner } from "./triggers/scheduled-runs";
import { helloModel } from "./turn/hello-model";
import { liveStepOf } from "./turn/live-step";
import type { TurnSettings } from "./turn/plans";
import type { TurnHost } from "./turn/turn-host";

export interface ConversationParts {
  log: MessageLog;
  outbox: IndexOutbox;
  notifier: BusNotifier;
  turns: TurnHost;
  schedules: ScheduleRunner;
  inbox: NotifyInbox;
}

export class Conversation {
  readonly log: MessageLog;
  readonly outbox: IndexOutbox;
  readonly notifier: BusNotifier;
  readonly turns: TurnHost;
  readonly schedules: ScheduleRunner;
  readonly inbox: NotifyInbox;

  constructor(
    private readonly ctx: DurableObjectState,
    private readonly env: Env,
    private readonly hub: SocketHub,
    parts: ConversationParts,
  ) {
    ({ log: this.log, outbox: this.outbox, notifier: this.notifier } = parts);
    ({ turns: this.turns, schedules: this.schedules, inbox: this.inbox } = parts);
  }

  /** A tab joined on `server`: hello, then the reasoning and text the running step has streamed so far. */
  async join(server: WebSocket, conversationId: string): Promise<void> {
    const { lifecycle, waits } = this.turns;
    const waiting = {};
    for (const wait of waits) Object.assign(waiting, await wait.hello());
    this.hub.send(server, {
      type: "hello",
      conversation_id: conversationId,
      last_seq: this.log.lastSeq,
      leaf_seq: this.log.leafSeq,
      running: lifecycle.running,
      ...(lifecycle.current?.resuming ? { resuming: true } : {}),
      ...waiting,
      model: helloModel(this.ctx.storage.sql, this.env),
    });
    const live = liveStepOf(lifecycle.current);
    if (live?.reasoning) this.hub.send(server, { type: "reasoning_delta", step: live.step, delta: live.reasoning });
    if (live?.text) this.hub.send(server, { type: "text_delta", step: live.step, delta: live.text });
  }

  /** One valid frame from a socket opened with `credential` (which turns it starts remember). */
  async handle(
    ws: WebSocket,
    frame: ClientFrame,
    credential: Credential | undefined,
    prefetched?: Promise<TurnSettings>,
  ): Promise<void> {
    const { starts, lifecycle, approvals, elicitations } = this.turns;
    // A frame the turn's host refused is answered with why, on this socket only (a chat's with its client_id).
    const answer = (refused: { code: string; message: string } | undefined, client_id?: string) => {
      if (refused) this.hub.send(ws, { type: "error", ...refused, ...(client_id ? { client_id } : {}) });
    };
    switch (frame.type) {
      case "ping":
        return this.hub.send(ws, { type: "pong" });
      case "resume":
        return this.resume(ws, frame.after_seq, frame.tree);
      case "chat": {
        // Sent again (the client did not see it arrive): answered, never started twice. Nothing is awaited
        // between this lookup and the start, which persists the message or refuses while a turn runs.
        const { client_id } = frame;
        const sent = client_id === undefined ? undefined : this.log.queries.userMessageSent(client_id);
        if (client_id !== undefined && sent !== undefined)
          return this.hub.send(ws, { type: "chat_duplicate", client_id, seq: sent });
        return answer(await starts.start({ frame, credential, prefetched }), client_id);
      }
      case "regenerate":
        return answer(await starts.regenerate(frame, credential, prefetched));
      case "switch_branch":
        return answer(await starts.switchBranch(frame.seq));
      case "agent_control":
        if (!lifecycle.stop()) this.hub.send(ws, { type: "error", code: "not_running", message: "No turn is running" });
        return;
      case "agent_user_input":
        return answer(await starts.answer(frame.content, credential));
      case "tool_approval":
        return answer(await approvals.decide(frame, credential));
      case "elicitation_response":
        return answer(elicitations.respond(frame));
    }
  }

  /** What a socket has not had yet after `afterSeq`: without `tree`, one linear conversation (the current path). */
  private resume(ws: WebSocket, afterSeq: number, tree: boolean | undefined): void {
    const range = SocketHub.claimResume(ws, afterSeq);
    if (!range) return;
    const view = tree ? { view: "tree" as const } : { view: "path" as const };
    for (const message of this.log.range(range.after, range.through, view))
      this.hub.send(ws, { type: "message", message });
  }

  /** A page of the current path (or of the path to `leaf`, or of every branch); undefined for a `leaf` it lacks. */
  page(query: { after: number; limit: number; view: "path" | "tree"; leaf?: number }) {
    if (query.leaf !== undefined && !this.log.has(query.leaf)) return undefined;
    const view = query.view === "tree" ? { view: "tree" as const } : { view: "path" as const, leaf: query.leaf };
    return { messages: this.log.page(query.after, query.limit, undefined, view), leaf_seq: this.log.leafSeq };
  }

  /** The whole path that ends at `leaf` (default: the current one). */
  snapshot(leaf?: number): { messages: Message[]; leaf_seq: number } {
    const end = leaf ?? this.log.leafSeq;
    return { messages: this.log.pathTo(end), leaf_seq: end };
  }

  /**
   * Copies of `messages`, in order, as this new conversation's one path. Seqs are new, so a compaction's
   * `through_seq` is carried over to the copy of the last message it covered. Refused on a conversation
   * that already has messages.
   */
  async importMessages(messages: Message[]): Promise<number> {
    if (this.log.lastSeq > 0) throw new Error("messages are imported only into a new conversation");
    const seqs = new Map<number, number>();
    for (const message of messages) {
      const { seq, id: _id, created_at: _at, parent_seq: _parent, ...draft } = message;
      const copy =
        draft.role === "system" && draft.item.kind === "compaction"
          ? { ...draft, item: { ...draft.item, through_seq: copiedThrough(seqs, draft.item.through_seq) } }
          : draft;
      seqs.set(seq, (await this.log.append(copy as MessageDraft)).seq);
    }
    return this.log.lastSeq;
  }

  /** An external trigger (docs/protocol.md `notify`), delivered at the next injection point. */
  async notify(notify: Notify): Promise<void> {
    const event = stampEvent({
      type: "external.notify",
      severity: notify.severity,
      source: "External",
      payload: { message: notify.message },
    });
    // Persisted before the Worker answers 202 (notify-inbox.ts); delivered from the bus as usual.
    await this.inbox.add(event);
    this.notifier.emitTrigger(event);
    // With no turn running there is no injection point to wait for: persist and broadcast now.
    if (!this.turns.lifecycle.running) await this.notifier.flush("all");
  }

  /** The alarm fired: an index flush due again, a wait's deadline or the turn's watchdog, a schedule's run. */
  async alarm(): Promise<void> {
    if (this.outbox.pending) await this.outbox.flush();
    await this.turns.lifecycle.onAlarm();
    await this.schedules.onAlarm();
  }

  /** Before the conversation is deleted: stop, disconnect, forget. */
  async erase(): Promise<void> {
    this.schedules.close();
    await this.turns.lifecycle.stopAndWait();
    this.hub.closeAll(1000, "conversation deleted");
    // No index update may land after the Worker deletes the conversation's D1 rows.
    await this.outbox.close();
    await this.ctx.storage.deleteAlarm();
    await this.ctx.storage.deleteAll();
  }
}

/** The copy's seq of the last copied message at or before `through` (0 when none was copied). */
function copiedThrough(seqs: ReadonlyMap<number, number>, through: number): number {
  let best = 0;
  for (const [from, to] of seqs) if (from <= through) best = Math.max(best, to);
  return best;
}
