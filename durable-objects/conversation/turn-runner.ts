// Owns the one running turn of a conversation: refuses a second (busy), keeps the abort controller
// that Stop trips, keeps the running-turn marker in storage, remembers the text streamed so far for
// tabs that join mid-turn, resolves the references of the user's message, commits task reminders, and
// asks the user on the agent's behalf.

import { ContextMeter, contextBudget, type Observation } from "../../agent/context/window";
import { findDecisionTree } from "../../agent/decision-trees";
import { errorContextOf, type LlmSettings, llmSettings, publicModelInfo } from "../../agent/llm/config";
import { languageModel } from "../../agent/llm/model";
import type { Notifier } from "../../agent/notifications/notifier";
import { resolveReferences } from "../../agent/references/resolve";
import { BUILTIN_TOOLS } from "../../agent/tools";
import { ApprovalPolicy } from "../../agent/tools/approval";
import { DELEGATE, delegateTool } from "../../agent/tools/delegate";
import { type McpToolbox, openMcpToolbox } from "../../agent/tools/mcp";
import { REQUEST_INPUT } from "../../agent/tools/request-input";
import type { AgentTool, SubagentHost } from "../../agent/tools/tool";
import type { ResumePoint } from "../../agent/turn/resume";
import { runTurn, type TurnOutcome } from "../../agent/turn/run-turn";
import { type Credential, credentialKey } from "../../d1/credentials";
import type { McpServerRow } from "../../d1/mcp-servers";
import { saveApprovalRule } from "../../d1/tool-approvals";
import { loadTurnSettings } from "../../d1/user-settings";
import {
  type AgentConfig,
  type ApprovalRule,
  type ChatFrame,
  MCP_TOOL_SEPARATOR,
  type Message,
  type MessageDraft,
  type MessageOrigin,
  type ModelInfo,
  ModelInfoSchema,
  type ModelRef,
  type RegenerateFrame,
  type ServerFrame,
  type ToolApprovalFrame,
} from "../../protocol";
import { alarmBy } from "./alarm";
import type { ConversationBranches } from "./branches";
import { ConversationTitles } from "./conversation-titles";
import { faultPauses } from "./fault-pauses";
import type { ConversationFrames } from "./frame-port";
import type { IndexOutbox } from "./index-outbox";
import { readState, writeState } from "./local-tables";
import { PendingApprovals, type StoredApproval } from "./pending-approvals";
import { PendingInput } from "./pending-input";
import type { SocketMeta } from "./socket-hub";
import {
  type ChildOutcome,
  type ChildRegistry,
  type ChildRequest,
  ConversationSubagents,
  MAX_DEPTH,
  type ParentLink,
} from "./subagents";
import { TaskReminders } from "./task-reminders";
import type { ToggleCache } from "./toggle-cache";
import { TurnMarkerStore, type TurnOptions, type TurnOrigin, type TurnRecord } from "./turn-marker";
import { modelRef, turnModel } from "./turn-model";

export { RUNNING_TURN_KEY } from "./turn-marker";

export interface RunnerIO {
  /** The current path: what the model reads. */
  messages(): readonly Message[];
  /** Where an edit, a regenerate or a switch moves the current leaf (branches.ts). */
  branches: ConversationBranches;
  append(draft: MessageDraft): Promise<Message>;
  /** Where every frame leaves the object; the runner watches it too (frame-port.ts). */
  frames: ConversationFrames;
  notifier: Notifier;
  toggles: ToggleCache;
  /** The D1 index's outbox: a turn holds it and flushes at its start and end (index-outbox.ts). */
  index: Pick<IndexOutbox, "hold" | "release" | "soon">;
  /** Told when a turn has ended (scheduled-runs.ts starts a waiting run and re-arms the alarm). */
  idle?(): void;
}

/** local_state: the ModelInfo of the conversation's latest turn (hello's `model`). */
const LAST_MODEL = "last_model";

/** The model `hello` names: the one the conversation's latest turn used, else the operator's. */
export function helloModel(sql: SqlStorage, env: Env): ModelInfo {
  const saved = readState(sql, LAST_MODEL);
  if (saved) {
    const parsed = ModelInfoSchema.safeParse(JSON.parse(saved));
    if (parsed.success) return parsed.data;
  }
  return publicModelInfo(llmSettings(env));
}

/** Storage key of a subagent's last outcome, for a parent that re-attaches after a restart. */
const SUBAGENT_OUTCOME_KEY = "subagent-outcome";
/** While a turn runs, an alarm this far ahead wakes the object after a restart that no client notices. */
const WATCHDOG_MS = 10_000;

/** What the current step has streamed so far, for a tab that joins mid-step. */
interface LiveStep {
  step: number;
  text: string;
  reasoning: string;
}

interface RunningTurn {
  abort: AbortController;
  done: Promise<void>;
  live: LiveStep | undefined;
  origin: TurnOrigin;
  outcome?: TurnOutcome;
  /** Set for a turn cut short by a restart: where it goes on. */
  resume?: ResumePoint;
  /** Resumed, and nothing new shown yet (hello `resuming`). */
  resuming?: boolean;
  /** Set when this turn is a subagent's: every frame also goes to the parent. */
  parent?: ParentLink;
  /** The turn's input is not yet sent to the D1 index: done once its first model request is answered. */
  indexInput?: boolean;
  /** The model the turn runs with (known once its settings are read); the title is asked of it too. */
  llm?: LlmSettings;
}

/** What one turn runs with: the limits, the tools, who hosts its subagents, and its MCP connections. */
interface TurnPlan {
  config: AgentConfig;
  tools: AgentTool[];
  subagents?: SubagentHost;
  mcp: McpToolbox;
  /** The model that answers (turn-model.ts). */
  llm: LlmSettings;
  /** The user's approval rules (which tools ask before they run). */
  approvals: ApprovalRule[];
}

const CONTEXT_METER_KEY = "context_meter";

/**
 * A meter that keeps its last observation in the object's own SQLite (tables: local-tables.ts). The
 * observation is written with the turn's next write (before its next model request, at its end), not as
 * the answer arrives: a commit there would hold back the step's tool call. Lost in a crash, the next
 * request is sized from the estimate alone.
 */
function storedMeter(sql: SqlStorage): { meter: ContextMeter; save(): void } {
  let last: Observation | undefined;
  try {
    last = JSON.parse(readState(sql, CONTEXT_METER_KEY) ?? "null") ?? undefined;
  } catch {
    last = undefined;
  }
  let unsaved: Observation | undefined;
  return {
    meter: new ContextMeter(last, (o) => {
      unsaved = o;
    }),
    save() {
      if (unsaved) writeState(sql, CONTEXT_METER_KEY, JSON.stringify(unsaved));
      unsaved = undefined;
    },
  };
}

const NO_USAGE = { input_tokens: 0, output_tokens: 0, total_tokens: 0 };
/** What a turn starts from (user-settings.ts loadTurnSettings), possibly read ahead (prefetchSettings). */
export type TurnSettings = Awaited<ReturnType<typeof loadTurnSettings>>;
type Refusal = { code: string; message: string };
/** The options a chat or regenerate frame sets for its turn. */
const optionsOf = (frame: TurnOptions): TurnOptions => ({
  ...(frame.agent_max_steps !== undefined ? { agent_max_steps: frame.agent_max_steps } : {}),
  ...(frame.decision_tree !== undefined ? { decision_tree: frame.decision_tree } : {}),
});
const BUSY: Refusal = { code: "busy", message: "A turn is already running; stop it or wait for it to finish" };
const QUESTION_WAITING: Refusal = {
  code: "busy",
  message: "A question is waiting for your answer; answer it before changing versions",
};

export class TurnRunner {
  private current: RunningTurn | undefined;
  readonly pending: PendingInput;
  /** Calls waiting for the user's approval. */
  readonly approvals: PendingApprovals;
  readonly marker: TurnMarkerStore;
  private readonly reminders: TaskReminders;
  private readonly titles: ConversationTitles;
  /** The provider's count of the last request's tokens, which the next request's size starts from. */
  private readonly contextMeter: { meter: ContextMeter; save(): void };
  /** Turns cut short by a restart go on (TURN_RECOVERY, default on). */
  readonly recovery: boolean;
  /** The watchdog alarm this runner set last (armAlarm), so the turn's end can take it back. */
  private watchdogAt: number | undefined;

  constructor(
    private readonly ctx: DurableObjectState,
    private readonly env: Env,
    private readonly meta: SocketMeta,
    private readonly io: RunnerIO,
  ) {
    this.pending = new PendingInput(ctx.storage);
    this.approvals = new PendingApprovals(ctx.storage);
    this.marker = new TurnMarkerStore(ctx.storage);
    this.reminders = new TaskReminders(ctx.storage, env.DB, meta.userId);
    this.contextMeter = storedMeter(ctx.storage.sql);
    this.titles = new ConversationTitles(ctx, env, meta, io);
    this.recovery = env.TURN_RECOVERY?.trim().toLowerCase() !== "off";
    io.frames.watch((frame) => this.track(frame));
  }

  get running(): boolean {
    return this.current !== undefined;
  }

  /** The running turn was resumed after a restart and has shown nothing new yet. */
  get resuming(): boolean {
    return this.current?.resuming === true;
  }

  /** The text streamed so far in the running step, for a tab that joins mid-turn. */
  get liveStep(): LiveStep | undefined {
    const live = this.current?.live;
    return live && (live.text || live.reasoning) ? live : undefined;
  }

  /**
   * The settings a chat frame's turn will start from, read now: the object reads them while it checks
   * the socket's credential (both D1, neither needs the other), and uses them only if the socket is
   * admitted. Undefined when a turn runs (the frame will be refused as busy).
   */
  prefetchSettings(): Promise<TurnSettings> | undefined {
    if (this.current) return undefined;
    const read = loadTurnSettings(this.env.DB, this.meta.userId, this.meta.conversationId);
    // Never an unhandled rejection when the frame is not acted on; the turn that uses it still sees the error.
    read.catch(() => undefined);
    return read;
  }

  /**
   * Persists the user's message and what it references, then runs the turn; or says why not. With
   * `edit_seq` the message is a new version of that one, on a new branch.
   */
  async start(
    frame: ChatFrame,
    credential?: Credential,
    prefetched?: Promise<TurnSettings>,
    /** Set for a message no one typed (a schedule's run, scheduled-runs.ts). */
    origin?: MessageOrigin,
  ): Promise<Refusal | undefined> {
    const refused = await this.refuseTurn(frame, frame.edit_seq !== undefined);
    if (refused) return refused;
    const point = frame.edit_seq === undefined ? undefined : this.io.branches.editPoint(frame.edit_seq);
    if (point && "code" in point) return point;
    await this.launch(
      (signal) => this.userPlan(frame, signal, prefetched),
      async () => {
        if (point) this.io.branches.moveTo(point.leaf);
        await this.io.append({ role: "user", content: frame.content, ...(origin ? { origin } : {}) });
        for (const draft of await resolveReferences(this.env.DB, this.meta.userId, frame.content))
          await this.io.append(draft);
      },
      this.userOrigin(frame, credential),
    );
    return undefined;
  }

  /** Runs the turn of a user message again, on a new branch from after that message's input. */
  async regenerate(
    frame: RegenerateFrame,
    credential?: Credential,
    prefetched?: Promise<TurnSettings>,
  ): Promise<Refusal | undefined> {
    const refused = await this.refuseTurn(frame, true);
    if (refused) return refused;
    const point = this.io.branches.regeneratePoint(frame.seq);
    if ("code" in point) return point;
    await this.launch(
      (signal) => this.userPlan(frame, signal, prefetched),
      async () => this.io.branches.moveTo(point.leaf),
      this.userOrigin(frame, credential),
    );
    return undefined;
  }

  /** Shows the version holding `seq`: never under a running turn or a waiting question. */
  async switchBranch(seq: number): Promise<Refusal | undefined> {
    const refused = await this.refuseTurn({}, true);
    if (refused) return refused;
    const point = this.io.branches.switchPoint(seq);
    if ("code" in point) return point;
    this.io.branches.moveTo(point.leaf);
    return undefined;
  }

  /** Why a turn (or a switch) cannot start now; branching also waits for a question to be answered. */
  private async refuseTurn(options: TurnOptions, branching: boolean): Promise<Refusal | undefined> {
    if (this.current) return BUSY;
    if (options.decision_tree !== undefined && !findDecisionTree(options.decision_tree)) {
      return { code: "invalid_frame", message: `decision_tree: unknown decision tree "${options.decision_tree}"` };
    }
    if (!branching) return undefined;
    if (await this.pending.current()) return QUESTION_WAITING;
    // Another frame may have started a turn while the question was read.
    return this.current ? BUSY : undefined;
  }

  /**
   * The user answered a question whose turn is gone (the object restarted while it waited): the answer
   * becomes the request_input result, and a new turn carries on from the log.
   */
  async answerAfterRestart(content: string, credential?: Credential): Promise<Refusal | undefined> {
    const question = await this.pending.current();
    const none = { code: "no_pending_input", message: "No question is waiting for an answer" };
    if (!question) return none;
    if (this.current) return this.current.resume && this.pending.answerEarly(question, content) ? undefined : none;
    await this.launch(
      (signal) => this.userPlan({}, signal),
      async () => {
        await this.pending.clear();
        await this.io.append({
          role: "tool",
          call_id: question.call_id,
          tool: REQUEST_INPUT,
          args: { question: question.question },
          status: "success",
          result: { answer: content },
          step: question.step,
          duration_ms: 0,
        });
      },
      this.userOrigin({}, credential),
    );
    return undefined;
  }

  private userOrigin(frame: TurnOptions, credential?: Credential): TurnOrigin {
    const startedBy = credential && credentialKey(credential);
    return { kind: "user", options: optionsOf(frame), ...(startedBy ? { started_by: startedBy } : {}) };
  }

  /**
   * Goes on with a turn a previous instance was running when it died (recovery.ts): planned again with
   * its own model and limits, from the point its record gives.
   */
  async resume(record: TurnRecord, point: ResumePoint): Promise<void> {
    const origin = record.origin;
    const plan =
      origin.kind === "user"
        ? (signal: AbortSignal) => this.userPlan(origin.options, signal, undefined, record)
        : (signal: AbortSignal) => this.subagentPlan(origin.request, this.attachedParent(), signal, record);
    await this.launch(plan, async () => undefined, origin, { resumed: { record, point } });
  }

  /** A turn recovery ended (cut short too often): a subagent's parent re-attaching gets its outcome. */
  async endedByRecovery(record: TurnRecord, outcome: ChildOutcome): Promise<void> {
    if (record.origin.kind === "subagent") await this.ctx.storage.put(SUBAGENT_OUTCOME_KEY, outcome);
  }

  /** A recovered subagent's link to its parent: whichever parent re-attached (reattachAsSubagent). */
  private attachedParent(): ParentLink {
    return {
      onFrame: (frame) => this.current?.parent?.onFrame(frame),
      onEvent: (event) => this.current?.parent?.onEvent(event),
    };
  }

  /** A subagent's turn (RPC from the parent's object): the task is its user message; resolves when it ends. */
  async runAsSubagent(request: ChildRequest, parent: ParentLink): Promise<ChildOutcome> {
    if (this.current) throw new Error("a subagent conversation runs one task at a time");
    const turn = await this.launch(
      (signal) => this.subagentPlan(request, parent, signal),
      () => this.io.append({ role: "user", content: request.task }).then(() => undefined),
      { kind: "subagent", request },
      { parent },
    );
    return this.subagentOutcome(turn);
  }

  /**
   * A parent whose delegate call was cut short by a restart re-attaches (RPC): to this subagent's turn
   * if it still runs (it resumed when this object woke), else to the outcome it saved when it ended.
   */
  async reattachAsSubagent(parent: ParentLink): Promise<ChildOutcome> {
    const turn = this.current;
    if (turn?.origin.kind === "subagent") {
      turn.parent = parent;
      return this.subagentOutcome(turn);
    }
    const saved = await this.ctx.storage.get<ChildOutcome>(SUBAGENT_OUTCOME_KEY);
    if (saved) return saved;
    throw new Error("this subagent has no turn to re-attach to");
  }

  /** The outcome of a subagent's turn, once it ends; kept for a parent that re-attaches after a restart. */
  private async subagentOutcome(turn: RunningTurn): Promise<ChildOutcome> {
    await turn.done;
    const final = this.io.messages().findLast((m) => m.role === "agent");
    const outcome = turn.outcome;
    const result: ChildOutcome = {
      answer: final?.role === "agent" ? final.content : "",
      termination_reason: outcome?.reason ?? "llm_error",
      steps: outcome?.steps ?? 0,
      usage: outcome?.usage ?? NO_USAGE,
    };
    await this.ctx.storage.put(SUBAGENT_OUTCOME_KEY, result);
    return result;
  }

  /**
   * The user's saved config, subscriber toggles, MCP servers and the turn's model, read once per turn (one
   * D1 round trip). `model`: the model to use instead of the conversation's (a subagent takes its parent's).
   */
  private async settings(
    prefetched?: Promise<TurnSettings>,
    model?: ModelRef,
  ): Promise<{ saved: AgentConfig; mcpServers: McpServerRow[]; llm: LlmSettings; approvals: ApprovalRule[] }> {
    const loaded = await (prefetched ?? loadTurnSettings(this.env.DB, this.meta.userId, this.meta.conversationId));
    this.io.toggles.set(loaded.toggles);
    const llm = await turnModel(this.env, model ? { ...loaded, conversationModel: model } : loaded);
    return { saved: loaded.config, mcpServers: loaded.mcpServers, llm, approvals: loaded.approvals };
  }

  /** The MCP servers' tools for this turn; a server that is down is reported on the bus (a System message). */
  private async openMcp(rows: McpServerRow[], signal: AbortSignal): Promise<McpToolbox> {
    const mcp = await openMcpToolbox(rows, this.env, signal);
    // A Stop while connecting is not the servers' fault.
    if (signal.aborted) return mcp;
    for (const { server, error, partial } of mcp.unavailable)
      this.io.notifier.emit({
        type: "mcp.unavailable",
        severity: "warning",
        source: "MCP Connector",
        payload: { server, error, partial: partial ?? false },
      });
    return mcp;
  }

  /** `resumed`: the record of a turn cut short by a restart, whose model and limits it keeps. */
  private async userPlan(
    frame: TurnOptions,
    signal: AbortSignal,
    prefetched?: Promise<TurnSettings>,
    resumed?: TurnRecord,
  ): Promise<TurnPlan> {
    const { saved, mcpServers, llm, approvals } = await this.settings(prefetched, resumed?.model);
    const mcp = await this.openMcp(mcpServers, signal);
    return {
      config: resumed?.config ?? {
        ...saved,
        maxIterations: Math.min(saved.maxIterations, frame.agent_max_steps ?? saved.maxIterations),
        decisionTree: frame.decision_tree ?? saved.decisionTree,
      },
      tools: [...BUILTIN_TOOLS, delegateTool, ...mcp.tools],
      subagents: new ConversationSubagents(this.env, this.meta, 0, undefined, modelRef(llm), this.children()),
      mcp,
      llm,
      approvals,
    };
  }

  /** Where delegate calls record the subagents they start, for a resumed turn to re-attach to. */
  private children(): ChildRegistry {
    return {
      started: (callId, child) => this.marker.child(callId, child),
      of: (callId) => this.marker.current?.children[callId],
    };
  }

  /** A subagent's plan: its limits from the parent, its tools a subset, no questions to the user. */
  private async subagentPlan(
    request: ChildRequest,
    parent: ParentLink,
    signal: AbortSignal,
    resumed?: TurnRecord,
  ): Promise<TurnPlan> {
    const { saved, mcpServers, llm, approvals } = await this.settings(undefined, resumed?.model ?? request.model);
    const canDelegate = request.depth < MAX_DEPTH;
    // Only the servers whose tools the subagent was given are connected.
    const wanted = request.tools
      ? mcpServers.filter((s) => request.tools?.some((t) => t.startsWith(`${s.name}${MCP_TOOL_SEPARATOR}`)))
      : mcpServers;
    const mcp = await this.openMcp(wanted, signal);
    const offered = [...BUILTIN_TOOLS, ...(canDelegate ? [delegateTool] : []), ...mcp.tools].filter(
      (t) => t.name !== REQUEST_INPUT,
    );
    const tools = request.tools ? offered.filter((t) => request.tools?.includes(t.name)) : offered;
    return {
      // No task reminders: the user's open tasks are not the subagent's task.
      config: resumed?.config ?? { ...saved, ...request.limits, decisionTree: "default", taskReminderRequests: 0 },
      tools,
      subagents: tools.some((t) => t.name === DELEGATE)
        ? new ConversationSubagents(
            this.env,
            this.meta,
            request.depth,
            { link: parent, podName: request.podName },
            modelRef(llm),
            this.children(),
          )
        : undefined,
      mcp,
      llm,
      // The user's rules hold in a subagent too; with nobody to ask there, a call that asks does not run.
      approvals,
    };
  }

  /** `resumed`: a turn cut short by a restart, going on under its record from its point. */
  private async launch(
    plan: (signal: AbortSignal) => Promise<TurnPlan>,
    persistInput: () => Promise<void>,
    origin: TurnOrigin,
    extras: { parent?: ParentLink; resumed?: { record: TurnRecord; point: ResumePoint } } = {},
  ): Promise<RunningTurn> {
    const { parent, resumed } = extras;
    const turn: RunningTurn = {
      abort: new AbortController(),
      done: Promise.resolve(),
      live: undefined,
      origin,
      ...(parent ? { parent } : {}),
      ...(resumed ? { resume: resumed.point, resuming: true } : {}),
    };
    this.current = turn;
    this.io.index.hold();
    const end = async () => {
      this.current = undefined;
      this.contextMeter.save();
      await this.marker.end();
      await this.approvals.clear();
      await this.disarmWatchdog();
      this.io.index.release();
      // After the turn's end was sent: the title request never holds a turn back (a subagent's is never named).
      if (origin.kind === "user") this.titles.afterTurn(turn.llm);
      this.io.idle?.();
    };
    try {
      if (resumed) await this.marker.adopt(resumed.record);
      else await this.marker.begin(origin);
      await persistInput();
    } catch (error) {
      await end();
      throw error;
    }
    // A Stop pressed just before the restart still stops the turn.
    if (resumed?.record.stop_requested) turn.abort.abort(new DOMException("stopped by the user", "AbortError"));
    void this.armAlarm().catch(() => undefined);
    // The index learns of the new message (title, preview, search) while the turn runs, once the first
    // model request is answered (a D1 batch sent as that request leaves would hold it back); the rest at
    // its end.
    turn.indexInput = true;
    turn.done = this.run(turn, plan).finally(end);
    this.ctx.waitUntil(turn.done);
    return turn;
  }

  /**
   * The question's deadline passed. A live turn gets the timeout and ends itself; a question left by a
   * turn that died with its object is closed here, with the answer the turn would have saved.
   */
  async expireQuestion(): Promise<void> {
    if (this.pending.expire()) return;
    // A turn resumed after a restart that has not reached its question yet finds it expired when it does.
    if (this.current) return;
    const question = await this.pending.current();
    if (!question) return;
    await this.pending.clear();
    await this.marker.end();
    const content = `I asked: "${question.question}"\n\n— Stopped because my question was not answered in time.`;
    await this.io.append({
      role: "agent",
      content,
      step: question.step,
      phase: "final",
      termination_reason: "input_timeout",
    });
    this.io.frames.send({ type: "agent_update", update_type: "agent_request_input_timeout", step: question.step });
    this.io.frames.send({
      type: "response_complete",
      termination_reason: "input_timeout",
      steps: question.step,
      usage: NO_USAGE,
    });
  }

  /**
   * A tab approved or denied a waiting call: the call gets the decision (a resumed turn that has not
   * reached the call yet finds it kept), every tab learns it, and "always allow" becomes the tool's rule.
   */
  async decideApproval(frame: ToolApprovalFrame): Promise<Refusal | undefined> {
    const decided = await this.approvals.decide(
      frame.call_id,
      frame.decision === "approve" ? "approved" : "denied",
      frame.always_allow,
    );
    if (!decided) return { code: "no_pending_approval", message: "That call is not waiting for approval" };
    this.approvalDecided(decided);
    if (decided.always_allow) await saveApprovalRule(this.env.DB, this.meta.userId, decided.key, "allow");
    return undefined;
  }

  private approvalDecided(decided: StoredApproval): void {
    if (!decided.decision) return;
    this.io.frames.send({
      type: "tool_approval_result",
      call_id: decided.call_id,
      tool: decided.tool,
      step: decided.step,
      decision: decided.decision,
      ...(decided.always_allow ? { always_allow: true } : {}),
    });
  }

  stop(): boolean {
    if (!this.current) return false;
    // Kept, so a restart right after the Stop still stops the turn.
    this.marker.stopRequested();
    this.current.abort.abort(new DOMException("stopped by the user", "AbortError"));
    return true;
  }

  /**
   * The object's alarm fired: a question whose deadline passed times out, and the next alarm is set
   * (the question's deadline, the running turn's watchdog).
   */
  async onAlarm(): Promise<void> {
    const question = await this.pending.current();
    if (question && Date.parse(question.deadline) <= Date.now()) await this.expireQuestion();
    for (const expired of await this.approvals.expire()) this.approvalDecided(expired);
    await this.armAlarm();
  }

  /**
   * The next alarm the turn needs: the deadline of a question waiting, and while a turn runs, a
   * watchdog that wakes the object if it restarts with no client to wake it (recovery goes on then).
   */
  private async armAlarm(): Promise<void> {
    const question = await this.pending.current();
    const approval = await this.approvals.nextDeadline();
    const now = Date.now();
    const watchdog = this.current && this.recovery ? now + WATCHDOG_MS : undefined;
    const due = [question && Date.parse(question.deadline), approval, watchdog].filter(
      (t): t is number => !!t && t > now,
    );
    if (!due.length) return;
    const at = Math.min(...due);
    if (await alarmBy(this.ctx.storage, at)) this.watchdogAt = at === watchdog ? at : undefined;
  }

  /** The turn ended: its watchdog, if still the alarm, is not needed any more. */
  private async disarmWatchdog(): Promise<void> {
    if (this.watchdogAt === undefined) return;
    const at = this.watchdogAt;
    this.watchdogAt = undefined;
    if ((await this.ctx.storage.getAlarm()) === at) await this.ctx.storage.deleteAlarm();
  }

  /**
   * The session or token that started the running turn was revoked: nothing more runs on its behalf.
   * Returns the stopped turn's end.
   */
  stopIfStartedBy(revoked: ReadonlySet<string>): Promise<void> | undefined {
    const turn = this.current;
    const origin = turn?.origin;
    if (origin?.kind !== "user" || !origin.started_by || !revoked.has(origin.started_by) || !this.stop()) return;
    return turn?.done.catch(() => undefined);
  }

  async stopAndWait(): Promise<void> {
    const turn = this.current;
    if (!turn) return;
    this.stop();
    await turn.done.catch(() => undefined);
  }

  /**
   * Every frame the object sends passes here first: it keeps the mid-turn text and the marker's open
   * calls current, and follows a subagent's stream to its parent.
   */
  private track(frame: ServerFrame): void {
    const turn = this.current;
    if (!turn) return;
    if (turn.parent) void Promise.resolve(turn.parent.onFrame(frame)).catch(() => undefined);
    if (
      turn.resuming &&
      (frame.type === "text_delta" ||
        frame.type === "reasoning_delta" ||
        frame.type === "tool_start" ||
        frame.type === "tool_approval_request" ||
        (frame.type === "agent_update" && frame.update_type === "agent_request_input"))
    )
      turn.resuming = false;
    if (frame.type === "text_delta" || frame.type === "reasoning_delta") {
      const live = turn.live?.step === frame.step ? turn.live : { step: frame.step, text: "", reasoning: "" };
      turn.live =
        frame.type === "text_delta"
          ? { ...live, text: live.text + frame.delta }
          : { ...live, reasoning: live.reasoning + frame.delta };
    } else if (
      frame.type === "agent_update" ||
      frame.type === "tool_start" ||
      (frame.type === "message" && frame.message.role === "agent")
    ) {
      turn.live = undefined;
    }
    if (frame.type === "tool_start") this.reminders.toolUsed(frame.tool);
  }

  private async run(turn: RunningTurn, planFor: (signal: AbortSignal) => Promise<TurnPlan>): Promise<void> {
    let mcp: McpToolbox | undefined;
    try {
      const plan = await planFor(turn.abort.signal);
      mcp = plan.mcp;
      const { config, subagents, llm } = plan;
      // Test builds may hold chosen tools after their effect (fault-pauses.ts); a resumed call never is.
      const tools = turn.resume ? plan.tools : faultPauses(plan.tools, this.env);
      turn.llm = llm;
      this.marker.planned(modelRef(llm), config);
      const tree = findDecisionTree(config.decisionTree) ?? findDecisionTree("default");
      if (!tree) throw new Error("no decision tree registered");
      // What `hello` names from now on: the model this conversation last used.
      writeState(this.ctx.storage.sql, LAST_MODEL, JSON.stringify(publicModelInfo(llm)));
      turn.outcome = await runTurn(
        {
          messages: this.io.messages,
          append: this.io.append,
          frames: this.io.frames,
          emit: (event) => this.io.notifier.emit(event),
          flush: (point) => this.io.notifier.flush(point),
          askUser: async (question, step, signal, callId) => {
            // A turn resumed after a restart waits for the question it had asked, with its deadline.
            const asked = await this.pending.current();
            const again = asked?.call_id === callId ? asked : undefined;
            const timeout = again
              ? Math.max(0, Math.round((Date.parse(again.deadline) - Date.now()) / 1000))
              : config.requestInputTimeoutSeconds;
            this.io.frames.send({
              type: "agent_update",
              update_type: "agent_request_input",
              question,
              step,
              timeout_s: timeout,
            });
            const outcome = again
              ? await this.pending.resume(again, signal)
              : await this.pending.ask(question, step, callId, config.requestInputTimeoutSeconds, signal);
            this.io.toggles.forget();
            return outcome;
          },
          // A subagent has nobody to ask: a call that needs approval does not run there.
          ...(turn.parent
            ? {}
            : {
                // The request sets the alarm for its own deadline (pending-approvals.ts).
                askApproval: (request, signal) =>
                  this.approvals.request(request, config.requestInputTimeoutSeconds, signal, (pending, timeout_s) =>
                    this.io.frames.send({ type: "tool_approval_request", ...pending, timeout_s }),
                  ),
              }),
          beforeModelRequest: () => {
            this.contextMeter.save();
            return this.reminders.beforeRequest(config.taskReminderRequests, this.io.append);
          },
          // Not before the request: a D1 read or write started as the request leaves would hold it back.
          checkpoint: (point) => this.marker.checkpoint(point),
          modelResponding: () => {
            this.io.toggles.refresh();
            if (turn.indexInput) {
              turn.indexInput = false;
              this.io.index.soon();
            }
          },
        },
        {
          model: languageModel(llm),
          context: {
            budget: contextBudget(llm.contextWindow, { reasoning: llm.sendReasoning }),
            meter: this.contextMeter.meter,
          },
          llm: { info: publicModelInfo(llm), maxOutputTokens: llm.maxOutputTokens, errors: errorContextOf(llm) },
          config,
          tree,
          tools,
          toolContext: {
            db: this.env.DB,
            userId: this.meta.userId,
            conversationId: this.meta.conversationId,
            subagents,
            turnId: this.marker.current?.turn_id,
          },
          signal: turn.abort.signal,
          approvals: new ApprovalPolicy(plan.approvals),
          ...(turn.resume ? { resume: turn.resume } : {}),
        },
      );
    } catch (error) {
      // The loop turns model and tool failures into a saved answer; reaching here means storage failed.
      console.error("ConversationObject", this.ctx.id.toString(), "turn failed", error);
      this.io.frames.send({
        type: "error",
        code: "internal",
        message: "The turn failed unexpectedly; your message is saved",
      });
      this.io.frames.send({ type: "response_complete", termination_reason: "llm_error", steps: 0, usage: NO_USAGE });
    } finally {
      // Not awaited: closing lets cancellation notices reach the servers first (mcp/client.ts), which
      // the next turn need not wait for.
      void mcp?.close();
    }
  }
}
