// How a turn starts, or why it does not: a chat frame (typed, or a schedule's run), a regenerate, an
// answer to a question whose turn is gone, a turn a restart cut short; and a branch switch, which is
// refused under a running turn or a waiting question just as a new turn is.
import { findDecisionTree } from "../../../agent/decision-trees";
import { resolveReferences } from "../../../agent/references/resolve";
import { REQUEST_INPUT } from "../../../agent/tools/request-input";
import type { ResumePoint } from "../../../agent/turn/resume";
import { linksDraft } from "../../../agent/web/links";
import { type Credential, credentialKey } from "../../../d1/credentials";
import { ownerShard } from "../../../d1/shards";
import type { ChatFrame, MessageOrigin, RegenerateFrame } from "../../../protocol";
import type { ConversationFileStore } from "../files/conversation-file-store";
import { contextDrafts } from "../projects/conversation-context";
import type { SocketMeta } from "../sockets/socket-hub";
import { readsPages } from "../web/web-plan";
import type { TurnLifecycle } from "./lifecycle";
import type { TurnPlans, TurnSettings } from "./plans";
import type { Refusal } from "./running-turn";
import type { SubagentTurns } from "./subagent-host";
import type { HostIO } from "./turn-io";
import type { TurnOptions, TurnOrigin, TurnRecord } from "./turn-marker";
import { turnRefusal } from "./usage-meter";
import type { PendingInput } from "./waits/pending-input";

/** A turn started by a message: the frame, who sent it, its settings if read ahead, and where it came from. */
export interface StartOptions {
  frame: Pick<ChatFrame, "content" | "edit_seq" | "agent_max_steps" | "decision_tree" | "client_id" | "attachments">;
  /** The credential of the socket that sent it (its revocation stops the turn). */
  credential?: Credential;
  /** The settings read with the socket's credential check (user-cache.ts). */
  prefetched?: Promise<TurnSettings>;
  /** Set for a message no one typed (a schedule's run, scheduled-runs.ts). */
  origin?: MessageOrigin;
}

const BUSY: Refusal = { code: "busy", message: "A turn is already running; stop it or wait for it to finish" };
const QUESTION_WAITING: Refusal = {
  code: "busy",
  message: "A question is waiting for your answer; answer it before changing versions",
};
const NO_QUESTION: Refusal = { code: "no_pending_input", message: "No question is waiting for an answer" };

export class TurnStarts {
  constructor(
    private readonly env: Env,
    private readonly meta: SocketMeta,
    private readonly io: HostIO,
    private readonly parts: {
      lifecycle: TurnLifecycle;
      plans: TurnPlans;
      questions: PendingInput;
      subagents: SubagentTurns;
      files: ConversationFileStore;
    },
  ) {}

  /** A turn runs or a question waits: a scheduled run waits (scheduled-runs.ts). */
  async busy(): Promise<boolean> {
    return this.parts.lifecycle.running || (await this.parts.questions.current()) !== undefined;
  }

  /**
   * Persists the user's message and what it references, then runs the turn; or says why not. With
   * `edit_seq` the message is a new version of that one, on a new branch.
   */
  async start({ frame, credential, prefetched: ahead, origin }: StartOptions): Promise<Refusal | undefined> {
    const refused = await this.refuse(frame, frame.edit_seq !== undefined);
    if (refused) return refused;
    const { prefetched, refusal } = await this.account(ahead);
    if (refusal) return refusal;
    const point = frame.edit_seq === undefined ? undefined : this.io.branches.editPoint(frame.edit_seq);
    if (point && "code" in point) return point;
    const attachments = await this.parts.files.claim(this.attachmentIds(frame));
    if ("code" in attachments) return attachments;
    await this.parts.lifecycle.launch({
      plan: (signal) => this.parts.plans.user(frame, signal, prefetched),
      persistInput: async () => {
        if (point) this.io.branches.moveTo(point.leaf);
        await this.appendContext(prefetched);
        const { content, client_id } = frame;
        await this.io.append({
          role: "user",
          content,
          ...(origin ? { origin } : {}),
          ...(client_id ? { client_id } : {}),
          ...(attachments.length ? { attachments } : {}),
        });
        // What its documents say (or their outlines), then what its references name: right after it.
        const window = attachments.some((a) => a.kind !== "image") ? await this.parts.plans.window(prefetched) : 0;
        for (const draft of await this.parts.files.documentDrafts(attachments, window)) await this.io.append(draft);
        for (const draft of await resolveReferences(ownerShard(this.env, this.meta), this.meta.userId, frame.content))
          await this.io.append(draft);
        // Its links, offered to read, where the agent may read pages.
        const links = readsPages(this.env, (await prefetched).web) ? linksDraft(content) : undefined;
        if (links) await this.io.append(links);
      },
      origin: userOrigin(frame, credential),
    });
    return undefined;
  }

  /** What the conversation starts from, or what changed of it, before the message (a stable prefix). */
  private async appendContext(prefetched: Promise<TurnSettings>): Promise<void> {
    const { context } = await prefetched;
    const window = () => this.parts.plans.window(prefetched);
    const owner = { db: ownerShard(this.env, this.meta), userId: this.meta.userId };
    const drafts = await contextDrafts(this.env, owner, context, this.io.messages(), window, this.parts.files);
    for (const draft of drafts) await this.io.append(draft);
  }

  /** The files a message carries: the frame's, or for an edit that names none, the edited message's. */
  private attachmentIds(frame: StartOptions["frame"]): string[] {
    if (frame.attachments) return frame.attachments;
    if (frame.edit_seq === undefined) return [];
    return (this.io.branches.edited(frame.edit_seq)?.attachments ?? []).map((a) => a.id);
  }

  /** Runs the turn of a user message again, on a new branch from after that message's input. */
  async regenerate(
    frame: RegenerateFrame,
    credential?: Credential,
    ahead?: Promise<TurnSettings>,
  ): Promise<Refusal | undefined> {
    const refused = await this.refuse(frame, true);
    if (refused) return refused;
    const { prefetched, refusal } = await this.account(ahead);
    if (refusal) return refusal;
    const point = this.io.branches.regeneratePoint(frame.seq);
    if ("code" in point) return point;
    await this.parts.lifecycle.launch({
      plan: (signal) => this.parts.plans.user(frame, signal, prefetched),
      persistInput: async () => this.io.branches.moveTo(point.leaf),
      origin: userOrigin(frame, credential),
    });
    return undefined;
  }

  /** Shows the version holding `seq`: never under a running turn or a waiting question. */
  async switchBranch(seq: number): Promise<Refusal | undefined> {
    const refused = await this.refuse({}, true);
    if (refused) return refused;
    const point = this.io.branches.switchPoint(seq);
    if ("code" in point) return point;
    this.io.branches.moveTo(point.leaf);
    return undefined;
  }

  /**
   * The settings the turn will start from (read now unless read ahead) and, before anything is saved or
   * any model called, whether the account may start one (usage-meter.ts turnRefusal: status, quota).
   */
  private async account(ahead?: Promise<TurnSettings>) {
    const prefetched = ahead ?? this.parts.plans.load();
    const refusal = await turnRefusal(this.env, this.meta, await prefetched);
    return { prefetched, refusal };
  }

  /** Why a turn (or a switch) cannot start now; branching also waits for a question to be answered. */
  private async refuse(options: TurnOptions, branching: boolean): Promise<Refusal | undefined> {
    const { lifecycle, questions } = this.parts;
    if (lifecycle.current) return BUSY;
    if (options.decision_tree !== undefined && !findDecisionTree(options.decision_tree)) {
      return { code: "invalid_frame", message: `decision_tree: unknown decision tree "${options.decision_tree}"` };
    }
    if (!branching) return undefined;
    if (await questions.current()) return QUESTION_WAITING;
    // Another frame may have started a turn while the question was read.
    return lifecycle.current ? BUSY : undefined;
  }

  /**
   * The user's answer to the question the agent asked. The question may have outlived its turn (the
   * object restarted while it waited): the resumed turn takes the answer when it reaches its question,
   * or (recovery off) the answer becomes the request_input result and a new turn carries on from the log.
   */
  async answer(content: string, credential?: Credential): Promise<Refusal | undefined> {
    const { lifecycle, questions, plans } = this.parts;
    if (questions.answer(content)) return undefined;
    const question = await questions.current();
    if (!question) return NO_QUESTION;
    const turn = lifecycle.current;
    if (turn) return turn.resume && questions.answerEarly(question, content) ? undefined : NO_QUESTION;
    await lifecycle.launch({
      plan: (signal) => plans.user({}, signal),
      persistInput: async () => {
        await questions.clear();
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
      origin: userOrigin({}, credential),
    });
    return undefined;
  }

  /**
   * Goes on with a turn a previous instance was running when it died (recovery.ts): planned again with
   * its own model and limits, from the point its record gives.
   */
  async resume(record: TurnRecord, point: ResumePoint): Promise<void> {
    const { origin } = record;
    const { plans, subagents } = this.parts;
    const plan =
      origin.kind === "user"
        ? (signal: AbortSignal) => plans.user(origin.options, signal, undefined, record)
        : subagents.resumePlan(origin.request, record);
    await this.parts.lifecycle.launch({
      plan,
      persistInput: async () => undefined,
      origin,
      resumed: { record, point },
    });
  }
}

/** The options a chat or regenerate frame sets for its turn. */
const optionsOf = (frame: TurnOptions): TurnOptions => ({
  ...(frame.agent_max_steps !== undefined ? { agent_max_steps: frame.agent_max_steps } : {}),
  ...(frame.decision_tree !== undefined ? { decision_tree: frame.decision_tree } : {}),
});

function userOrigin(frame: TurnOptions, credential?: Credential): TurnOrigin {
  const startedBy = credential && credentialKey(credential);
  return { kind: "user", options: optionsOf(frame), ...(startedBy ? { started_by: startedBy } : {}) };
}
