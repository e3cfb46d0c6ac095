// The turn's host: what the conversation object runs a turn with, built once when the conversation
// opens, one part per concern (docs/architecture.md, "The object and the turn"):
//   starts      what starts a turn or refuses it (turn-starts.ts)
//   lifecycle   the one running turn: launch, end, Stop, the alarm and its watchdog (lifecycle.ts)
//   waits       what the turn waits for from the user, behind one interface (waits/wait.ts)
//   subagents   this conversation as a subagent's host (subagent-host.ts)
// with the plan (plans.ts, agent/turn/plan.ts), the TurnIO (turn-io.ts), the live step (live-step.ts)
// and the running-turn record (turn-marker.ts) beside them.
import { ownerShard } from "../../../d1/shards";
import { saveApprovalRule } from "../../../d1/tool-approvals";
import type { ServerFrame } from "../../../protocol";
import { owner, tellUserChanged } from "../../user-changes";
import { ConversationFileStore } from "../files/conversation-file-store";
import type { SocketMeta } from "../sockets/socket-hub";
import { ConversationWeb } from "../web/conversation-web";
import { ConversationTitles } from "./conversation-titles";
import { FinishPush } from "./finish-push";
import { storedMeter } from "./hello-model";
import { TurnLifecycle } from "./lifecycle";
import { followFrame } from "./live-step";
import { TurnPlans } from "./plans";
import { SubagentTurns } from "./subagent-host";
import { TaskReminders } from "./task-reminders";
import type { HostIO, TurnParts } from "./turn-io";
import { TurnMarkerStore } from "./turn-marker";
import { TurnStarts } from "./turn-starts";
import { PendingApprovals } from "./waits/pending-approvals";
import { PendingElicitations } from "./waits/pending-elicitations";
import { PendingInput } from "./waits/pending-input";
import type { Wait } from "./waits/wait";

export interface TurnHost {
  starts: TurnStarts;
  lifecycle: TurnLifecycle;
  /** The question the agent asked (request_input). */
  pending: PendingInput;
  /** Calls waiting for the user's approval. */
  approvals: PendingApprovals;
  /** MCP servers' requests waiting for the user's answer. */
  elicitations: PendingElicitations;
  /** Every kind of wait, for the alarm and `hello`. */
  waits: readonly Wait[];
  subagents: SubagentTurns;
  marker: TurnMarkerStore;
}

export function openTurnHost(ctx: DurableObjectState, env: Env, meta: SocketMeta, io: HostIO): TurnHost {
  const marker = new TurnMarkerStore(ctx.storage);
  const parts: TurnParts = {
    env,
    meta,
    io,
    marker,
    questions: new PendingInput(ctx.storage, {
      frames: io.frames,
      append: io.append,
      running: () => lifecycle.running,
      marker,
      toggles: io.toggles,
    }),
    approvals: new PendingApprovals(ctx.storage, {
      frames: io.frames,
      saveRule: async (key) => {
        await saveApprovalRule(ownerShard(env, meta), meta.userId, key, "allow");
        // The user's other live conversations, and this one's next turn, follow the new rule.
        io.user.changed();
        await tellUserChanged(env, owner(meta), "settings", meta.conversationId);
      },
    }),
    elicitations: new PendingElicitations(ctx.storage, io.frames),
    reminders: new TaskReminders(ctx.storage, ownerShard(env, meta), meta.userId),
    meter: storedMeter(ctx.storage.sql),
    files: new ConversationFileStore(env, meta),
    web: new ConversationWeb(env, meta),
  };
  const waits = [parts.questions, parts.approvals, parts.elicitations];
  const lifecycle = new TurnLifecycle(
    ctx,
    parts,
    waits,
    new ConversationTitles(ctx, env, meta, io),
    new FinishPush(ctx, env, meta, io),
  );
  const plans = new TurnPlans(env, meta, {
    toggles: io.toggles,
    notifier: io.notifier,
    marker,
    user: io.user,
    messages: io.messages,
  });
  const subagents = new SubagentTurns(ctx.storage, { lifecycle, io }, plans);
  const starts = new TurnStarts(env, meta, io, {
    lifecycle,
    plans,
    questions: parts.questions,
    subagents,
    files: parts.files,
  });
  io.frames.watch((frame) => follow(lifecycle, parts, frame));
  const { questions: pending, approvals, elicitations } = parts;
  return { starts, lifecycle, pending, approvals, elicitations, waits, subagents, marker };
}

/**
 * Every frame the object sends passes here first: it keeps the mid-turn text current, follows a
 * subagent's stream to its parent, and tells the task reminders which tools ran.
 */
function follow(lifecycle: TurnLifecycle, parts: TurnParts, frame: ServerFrame): void {
  const turn = lifecycle.current;
  if (!turn) return;
  if (turn.parent) void Promise.resolve(turn.parent.onFrame(frame)).catch(() => undefined);
  followFrame(turn, frame);
  if (frame.type === "tool_start") parts.reminders.toolUsed(frame.tool);
}
