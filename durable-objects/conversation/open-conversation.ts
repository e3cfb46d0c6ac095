// Opening a conversation, once per instance, under blockConcurrencyWhile (no other event runs
// meanwhile): the local tables, a one-time import of legacy D1 rows, the parts wired together (the
// log broadcasts and feeds the index outbox, the turn's host watches the frame port, the schedules
// follow the turn's end), then what a previous instance left: a turn cut short (recovery.ts),
// triggers accepted but not delivered, index updates not sent.
import { BusNotifier } from "../../agent/notifications/notifier";
import { findSubscriber, isEnabled } from "../../agent/notifications/subscribers";
import { SCHEDULE } from "../../agent/tools/schedule";
import { ownerShard } from "../../d1/shards";
import { Conversation } from "./conversation";
import { ConversationBranches } from "./log/branches";
import { IndexOutbox } from "./log/index-outbox";
import { importLegacyMessages } from "./log/legacy-import";
import { ensureLocalTables } from "./log/local-tables";
import { MessageLog } from "./log/message-log";
import { ConversationFrames } from "./sockets/frame-port";
import type { SocketGuard } from "./sockets/socket-guard";
import type { SocketHub, SocketMeta } from "./sockets/socket-hub";
import { NotifyInbox } from "./triggers/notify-inbox";
import { type RunRelay, ScheduleRunner } from "./triggers/scheduled-runs";
import { recoverInterruptedTurn } from "./turn/recovery";
import { ToggleCache } from "./turn/toggle-cache";
import { openTurnHost } from "./turn/turn-host";
import type { UserCache } from "./user-cache";

export const META_KEY = "meta";

export interface Sockets {
  hub: SocketHub;
  guard: SocketGuard;
  /** What the object read of its user, kept while a socket is open (user-cache.ts). */
  user: UserCache;
}

export async function openConversation(
  ctx: DurableObjectState,
  env: Env,
  sockets: Sockets,
  meta: SocketMeta,
): Promise<Conversation> {
  ensureLocalTables(ctx.storage.sql);
  // A conversation from before the log lived here brings its D1 rows along, once (legacy-import.ts).
  await importLegacyMessages(ctx.storage, ownerShard(env, meta), meta.conversationId);
  const { conversation, frames, opened } = assemble(ctx, env, sockets, meta);
  await ctx.storage.put(META_KEY, meta);
  const { log, turns, notifier, inbox, outbox } = conversation;
  // A turn that a previous instance was running was cut short: it goes on, or ends (recovery.ts).
  await recoverInterruptedTurn({
    marker: turns.marker,
    pending: turns.pending,
    approvals: turns.approvals,
    messages: () => log.path(),
    append: (draft) => log.append(draft),
    frames,
    enabled: turns.lifecycle.recovery,
    resume: (record, point) => turns.starts.resume(record, point),
    ended: (record, outcome) => turns.subagents.endedByRecovery(record, outcome),
  });
  // Triggers accepted before the previous instance died: no turn runs now, so they are due at once.
  const undelivered = await inbox.undelivered(() => log.queries.deliveredTriggerIds());
  for (const event of undelivered) notifier.emitTrigger(event);
  if (undelivered.length) await notifier.flush("all");
  // Index updates a previous instance did not get to send.
  if (outbox.pending) outbox.soon();
  opened();
  return conversation;
}

/** The parts, wired; `opened` marks the end of opening (until then a delivery reads the toggles fresh). */
function assemble(ctx: DurableObjectState, env: Env, sockets: Sockets, meta: SocketMeta) {
  let open = false;
  const shard = ownerShard(env, meta);
  const outbox = new IndexOutbox(
    ctx.storage,
    shard,
    meta,
    () => log,
    (work) => ctx.waitUntil(work),
  );
  const frames = new ConversationFrames(sockets.hub, sockets.guard);
  const log = new MessageLog(ctx.storage.sql, (message) => {
    frames.send({ type: "message", message });
    outbox.appended();
  });
  const toggles = new ToggleCache(shard, meta.userId);
  const inbox = new NotifyInbox(ctx.storage);
  const notifier = new BusNotifier({
    append: (draft) => log.append(draft),
    enabledFilter: async () => {
      const current = await toggles.current(open && turns.lifecycle.running);
      return (id) => isEnabled(findSubscriber(id ?? ""), current);
    },
    delivered: (ids) => inbox.remove(ids),
  });
  const turns = openTurnHost(ctx, env, meta, {
    messages: () => log.path(),
    branches: new ConversationBranches(log, (frame) => frames.send(frame)),
    append: (draft) => log.append(draft),
    frames,
    notifier,
    toggles,
    index: outbox,
    user: sockets.user,
  });
  // A project's schedule hands its next run to a new conversation's object (scheduled-runs.ts).
  const relay: RunRelay = (conversationId, run) =>
    env.CONVERSATION.get(env.CONVERSATION.idFromName(conversationId)).acceptScheduledRun(
      { ...meta, conversationId },
      run,
    );
  const schedules = new ScheduleRunner(ctx, shard, meta, turns.starts, log.queries, relay);
  turns.lifecycle.whenIdle(schedules);
  // A turn that used the schedule tool changed this conversation's schedules: re-read at its end.
  frames.watch((frame) => {
    if (frame.type === "tool_start" && frame.tool === SCHEDULE) schedules.changed();
  });
  const parts = { log, outbox, notifier, turns, schedules, inbox };
  const opened = () => {
    open = true;
  };
  return { conversation: new Conversation(ctx, env, sockets.hub, parts), frames, opened };
}
