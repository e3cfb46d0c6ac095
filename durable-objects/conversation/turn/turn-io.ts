// The one place a turn is wired to its host: the TurnIO the loop talks through (agent/turn/io.ts) and
// the TurnSetup it runs with (the model, the context meter, the tools, the signal). Questions and
// approvals go straight to their waits (waits/); the rest is the object's log, frame port and bus.

import { type ContextBudget, contextBudget } from "../../../agent/context/window";
import type { DecisionTree } from "../../../agent/decision-trees";
import { errorContextOf, publicModelInfo } from "../../../agent/llm/config";
import { languageModel } from "../../../agent/llm/model";
import type { Notifier } from "../../../agent/notifications/notifier";
import { ApprovalPolicy } from "../../../agent/tools/approval";
import type { AgentTool } from "../../../agent/tools/tool";
import type { TurnIO, TurnSetup } from "../../../agent/turn/run-turn";
import { ownerShard } from "../../../d1/shards";
import type { Message, MessageDraft } from "../../../protocol";
import type { ConversationFileStore } from "../files/conversation-file-store";
import type { ConversationBranches } from "../log/branches";
import type { IndexOutbox } from "../log/index-outbox";
import { memoryScope } from "../projects/conversation-context";
import type { ConversationFrames } from "../sockets/frame-port";
import type { SocketMeta } from "../sockets/socket-hub";
import type { UserCache } from "../user-cache";
import type { ConversationWeb } from "../web/conversation-web";
import type { storedMeter } from "./hello-model";
import type { RunningTurn, TurnPlan } from "./running-turn";
import type { TaskReminders } from "./task-reminders";
import type { ToggleCache } from "./toggle-cache";
import type { TurnMarkerStore } from "./turn-marker";
import type { PendingApprovals } from "./waits/pending-approvals";
import type { PendingElicitations } from "./waits/pending-elicitations";
import type { PendingInput } from "./waits/pending-input";

/** What the object hands its turn host (conversation.ts). */
export interface HostIO {
  /** The current path: what the model reads. */
  messages(): readonly Message[];
  /** Where an edit, a regenerate or a switch moves the current leaf (branches.ts). */
  branches: ConversationBranches;
  append(draft: MessageDraft): Promise<Message>;
  /** Where every frame leaves the object; the host watches it too (frame-port.ts). */
  frames: ConversationFrames;
  notifier: Notifier;
  toggles: ToggleCache;
  /** The D1 index's outbox: a turn holds it and flushes at its start and end (index-outbox.ts). */
  index: Pick<IndexOutbox, "hold" | "release" | "turnAnswering">;
  /** The object's copy of its user's settings: dropped when a turn changes them or may (user-cache.ts). */
  user: Pick<UserCache, "changed">;
}

/** The host's parts a turn reaches while it runs. */
export interface TurnParts {
  env: Env;
  meta: SocketMeta;
  io: HostIO;
  questions: PendingInput;
  approvals: PendingApprovals;
  elicitations: PendingElicitations;
  marker: TurnMarkerStore;
  reminders: TaskReminders;
  meter: ReturnType<typeof storedMeter>;
  /** The conversation's files: images for the requests, documents for the tools (files/). */
  files: ConversationFileStore;
  /** The web the conversation's tools reach, and the pages it read lately (web/). */
  web: ConversationWeb;
}

export function turnIO(turn: RunningTurn, plan: TurnPlan, parts: TurnParts): TurnIO {
  const { io, questions, approvals, elicitations, marker, meter, reminders } = parts;
  const { config } = plan;
  return {
    messages: io.messages,
    append: io.append,
    frames: io.frames,
    emit: (event) => io.notifier.emit(event),
    flush: (point) => io.notifier.flush(point),
    askUser: (question, step, signal, callId) =>
      questions.askUser(question, step, signal, callId, config.requestInputTimeoutSeconds),
    // A subagent has nobody to ask: a call that needs approval does not run there. The request sets the
    // alarm for its own deadline (pending-approvals.ts).
    // Nor can it answer an MCP server's question: the server is declined (agent/tools/elicitation.ts).
    ...(turn.parent
      ? {}
      : { askApproval: approvals.request.bind(approvals), askElicitation: elicitations.request.bind(elicitations) }),
    beforeModelRequest: async () => {
      meter.save();
      // The images the request carries, read once each (they never change) where the model sees them.
      if (plan.llm.imageInput) await parts.files.loadImages(io.messages());
      return reminders.beforeRequest(config.taskReminderRequests, io.append);
    },
    // Not before the request: a D1 read or write started as the request leaves would hold it back.
    checkpoint: (point) => marker.checkpoint(point),
    modelResponding: () => {
      io.toggles.refresh();
      if (turn.indexInput) {
        turn.indexInput = false;
        io.index.turnAnswering();
      }
    },
  };
}

export function turnSetup(
  turn: RunningTurn,
  plan: TurnPlan,
  run: { tree: DecisionTree; tools: AgentTool[] },
  parts: TurnParts,
): TurnSetup {
  const { llm, config } = plan;
  const budget = contextBudget(llm.contextWindow, { reasoning: llm.sendReasoning });
  return {
    model: languageModel(llm),
    context: {
      budget,
      meter: parts.meter.meter,
      images: parts.files.imageSource(llm.imageInput),
    },
    llm: { info: publicModelInfo(llm), maxOutputTokens: llm.maxOutputTokens, errors: errorContextOf(llm) },
    config,
    tree: run.tree,
    tools: run.tools,
    toolContext: {
      db: ownerShard(parts.env, parts.meta),
      userId: parts.meta.userId,
      conversationId: parts.meta.conversationId,
      files: parts.files.access(budget),
      ...webAccess(plan, parts, budget),
      ...(plan.memory ? { memory: memoryScope(plan.memory.projectId, parts.io.messages) } : {}),
      subagents: plan.subagents,
      turnId: parts.marker.current?.turn_id,
    },
    signal: turn.abort.signal,
    approvals: new ApprovalPolicy(plan.approvals),
    ...(turn.resume ? { resume: turn.resume } : {}),
  };
}

/** The web tools' reach this turn, where its plan allows reading or searching. */
function webAccess(plan: TurnPlan, parts: TurnParts, budget: ContextBudget) {
  const web = parts.web.access(plan.web, parts.io.messages, budget);
  return web ? { web } : {};
}
