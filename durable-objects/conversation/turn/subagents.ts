// Subagents in child conversation objects (issue 6). The parent creates the child conversation (D1,
// parent_id set) and calls its object over RPC with two callbacks: the child streams every live frame
// back (shown under the delegate call's card) and reports nested delegation. Limits never exceed what
// the parent has left; the child's tokens are charged to the parent; stopping the parent stops the
// child (and, through the child's own delegate calls, every descendant).

import { podEventItem } from "../../../agent/system-items/pod-event";
import type { SubagentHost, SubagentRequest, SubagentResult, ToolContext } from "../../../agent/tools/tool";
import { ToolError } from "../../../agent/tools/tool";
import { database } from "../../../d1/client";
import { createConversation } from "../../../d1/conversations";
import { ownerShard } from "../../../d1/shards";
import type { ModelRef, PodEvent, ServerFrame, TerminationReason, Usage } from "../../../protocol";
import type { ConversationObject } from "../conversation-object";
import type { SocketMeta } from "../sockets/socket-hub";
import type { ChildRef } from "./turn-marker";

/** Root conversations are depth 0; a subagent at MAX_DEPTH cannot delegate further. */
export const MAX_DEPTH = 2;
const MIN_SECONDS = 5;
/** The child's own timeout runs this far past the parent's deadline: the parent's clock governs. */
const BACKSTOP_SECONDS = 2;
const MIN_TOKENS = 1000;

export interface ChildLimits {
  maxIterations: number;
  tokenBudget: number;
  timeoutSeconds: number;
}

export interface ChildRequest {
  task: string;
  tools?: string[];
  limits: ChildLimits;
  depth: number;
  podName: string;
  /** The parent's model: a subagent thinks with the model its parent's turn uses. */
  model?: ModelRef;
}

export interface ChildOutcome {
  answer: string;
  termination_reason: TerminationReason;
  steps: number;
  usage: Usage;
}

/** How a child reaches its parent: functions passed over RPC arrive as callable stubs. */
export interface ParentLink {
  onFrame(frame: ServerFrame): void | Promise<void>;
  onEvent(event: PodEvent): void | Promise<void>;
}

/** Where a turn records the subagents its delegate calls start (turn-marker.ts), and finds them again. */
export interface ChildRegistry {
  started(callId: string, child: ChildRef): void;
  of(callId: string): ChildRef | undefined;
}

const clamp = (n: number, min: number, max: number) => Math.max(min, Math.min(max, Math.floor(n)));

/** The task as a pod event carries it (for people; the model reads the pod name in the body). */
const eventTask = (task: string | undefined) =>
  task === undefined ? {} : { task: task.length > 200 ? `${task.slice(0, 199)}…` : task };

export function childLimits(request: SubagentRequest, ctx: ToolContext): ChildLimits {
  const left = ctx.remaining?.() ?? { tokens: 200_000, seconds: 600, iterations: 50 };
  if (left.seconds < MIN_SECONDS)
    throw new ToolError(
      `Not enough time left to delegate (${Math.floor(left.seconds)} s; a subagent needs ${MIN_SECONDS} s).`,
    );
  if (left.tokens < MIN_TOKENS)
    throw new ToolError(`Not enough tokens left to delegate (${left.tokens}; a subagent needs ${MIN_TOKENS}).`);
  return {
    maxIterations: clamp(request.maxSteps ?? 50, 1, Math.min(50, Math.max(1, left.iterations * 10))),
    tokenBudget: clamp(Math.min(request.tokenBudget ?? left.tokens, left.tokens), MIN_TOKENS, 200_000),
    // The parent's clock stops the child at the parent's deadline (and its work is discarded); the
    // child's own timeout is only a backstop in case that stop is lost.
    timeoutSeconds: clamp(Math.ceil(left.seconds) + BACKSTOP_SECONDS, MIN_SECONDS, 600),
  };
}

export class ConversationSubagents implements SubagentHost {
  constructor(
    private readonly env: Env,
    private readonly meta: SocketMeta,
    private readonly depth: number,
    /** This conversation's own parent and name, when it is itself a subagent. */
    private readonly parent?: { link: ParentLink; podName: string },
    /** The model of the turn that delegates, passed on to its subagents. */
    private readonly model?: ModelRef,
    private readonly children?: ChildRegistry,
  ) {}

  async delegate(request: SubagentRequest, ctx: ToolContext): Promise<SubagentResult> {
    const limits = childLimits(request, ctx);
    const title = `Subagent: ${request.task.slice(0, 60)}${request.task.length > 60 ? "…" : ""}`;
    const child = await createConversation(
      database(ownerShard(this.env, this.meta)),
      this.meta.userId,
      title,
      this.meta.conversationId,
    );
    const podName = `subagent-${child.id.slice(0, 8)}`;
    // Recorded before the child is called: a restart of this object re-attaches to it (reattach).
    this.children?.started(ctx.callId, { conversation_id: child.id, pod_name: podName });
    if (this.parent) {
      const event: PodEvent = {
        type: "scope_sub_delegated",
        pod_name: this.parent.podName,
        parent_pod: this.parent.podName,
        sub_pod: podName,
        ...eventTask(request.task),
      };
      void Promise.resolve(this.parent.link.onEvent(event)).catch(() => undefined);
    }
    return this.follow(child.id, podName, request.task, ctx, (stub, link) =>
      stub.runSubagent(
        { conversationId: child.id, userId: this.meta.userId, shard: this.meta.shard },
        {
          task: request.task,
          tools: request.tools,
          limits,
          depth: this.depth + 1,
          podName,
          ...(this.model ? { model: this.model } : {}),
        },
        link,
      ),
    );
  }

  /**
   * A delegate call cut short by a restart of this object: the subagent's own object went on with its
   * turn (it resumed when it woke), so the call waits for it again, its frames streamed as before.
   */
  async reattach(ctx: ToolContext, task?: string): Promise<SubagentResult> {
    const child = this.children?.of(ctx.callId);
    if (!child)
      throw new ToolError(
        "The subagent had not started when the conversation's server restarted; delegate the task again if it is still needed.",
      );
    return this.follow(child.conversation_id, child.pod_name, task, ctx, (stub, link) =>
      stub.reattachSubagent(
        { conversationId: child.conversation_id, userId: this.meta.userId, shard: this.meta.shard },
        link,
      ),
    );
  }

  /** Runs (or re-attaches to) the child's turn with the parent's link, and reports its outcome. */
  private async follow(
    childId: string,
    podName: string,
    task: string | undefined,
    ctx: ToolContext,
    call: (stub: DurableObjectStub<ConversationObject>, link: ParentLink) => Promise<ChildOutcome>,
  ): Promise<SubagentResult> {
    const stub = this.env.CONVERSATION.get(this.env.CONVERSATION.idFromName(childId));
    let stopped = false;
    // Runs in the same abort dispatch as the executor's own listener, so the shut_down event is
    // queued before the call's result is persisted.
    const stop = () => {
      stopped = true;
      ctx.after?.({
        role: "system",
        source: "Subagents",
        severity: "info",
        item: podEventItem({ type: "shut_down", pod_name: podName, ...eventTask(task) }),
      });
      void stub.stopSubagent().catch(() => undefined);
    };
    ctx.signal.addEventListener("abort", stop, { once: true });
    const link: ParentLink = {
      onFrame: (frame) =>
        ctx.progress?.({
          type: "subagent_frame",
          call_id: ctx.callId,
          conversation_id: childId,
          pod_name: podName,
          frame,
        }),
      onEvent: (event) =>
        ctx.after?.({ role: "system", source: "Subagents", severity: "info", item: podEventItem(event) }),
    };
    try {
      const outcome = await call(stub, link);
      ctx.chargeTokens?.({
        inputTokens: outcome.usage.input_tokens,
        outputTokens: outcome.usage.output_tokens,
        cachedInputTokens: outcome.usage.cached_input_tokens,
        reasoningTokens: outcome.usage.reasoning_tokens,
      });
      return this.report(ctx, childId, { pod_name: podName, ...eventTask(task) }, outcome, stopped);
    } finally {
      ctx.signal.removeEventListener("abort", stop);
    }
  }

  /** Lifecycle as pod_event items after the call's result and subagent.* events; the result itself. */
  private report(
    ctx: ToolContext,
    conversationId: string,
    pod: { pod_name: string; task?: string },
    outcome: ChildOutcome,
    stopped: boolean,
  ): SubagentResult {
    const podName = pod.pod_name;
    const say = (event: PodEvent) =>
      ctx.after?.({
        role: "system",
        source: "Subagents",
        severity: event.type === "errored" ? "error" : "info",
        item: podEventItem(event),
      });
    const payload = {
      pod_name: podName,
      conversation_id: conversationId,
      termination_reason: outcome.termination_reason,
      steps: outcome.steps,
      tokens: outcome.usage.total_tokens,
    };
    if (stopped || ctx.signal.aborted || outcome.termination_reason === "user_cancelled") {
      if (!stopped) say({ type: "shut_down", ...pod });
      throw new ToolError(
        `Cancelled: subagent ${podName} was stopped before it finished; its unfinished work was discarded.`,
      );
    }
    if (outcome.termination_reason === "llm_error") {
      say({ type: "errored", ...pod, message: outcome.answer });
      ctx.emit?.({
        type: "subagent.errored",
        severity: "error",
        source: "Subagents",
        payload: { ...payload, message: outcome.answer },
      });
      throw new ToolError(`Subagent ${podName} failed: ${outcome.answer}`);
    }
    say({ type: "turn_ended", ...pod });
    ctx.emit?.({ type: "subagent.turn_ended", severity: "info", source: "Subagents", payload });
    return {
      conversation_id: conversationId,
      pod_name: podName,
      answer: outcome.answer,
      termination_reason: outcome.termination_reason,
      steps: outcome.steps,
      usage: outcome.usage,
    };
  }
}
