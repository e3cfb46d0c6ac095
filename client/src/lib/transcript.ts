// The conversation as it reads, from its persisted messages in seq order: each user message, then its
// turn's intermediate work (per-step texts, reason/observe texts, tool calls, routine System messages)
// gathered into one group shown as a single summary line, then the turn's final answer. What the user
// must see stays outside the group, in its place: System messages of severity warning and above,
// high-priority ones (tool failures, loop detections, budget warnings), external triggers, and the
// items that are part of the conversation itself (attachments, compaction, interrupts). A question the
// agent asked (request_input) and the user's answer are part of the conversation too: they stand in
// the thread in their place, as the agent's words and the user's, and the turn's later steps fold into
// a group of their own. So does what the agent remembered (a `memory` call that succeeded): the user
// sees "Memory saved" with its Undo without opening the turn's steps. Pure, so it can be unit-tested.
import type { AgentMessage, Message, Severity, SystemMessage, ToolMessage, UserMessage } from "../../../protocol";
import { foldNotices, type NoticeFold } from "./fold-notices";
import { plural } from "./plural";

export type TurnGroup = {
  kind: "group";
  /** Stable across renders: the seq of the group's first step. */
  key: string;
  /** The hidden steps, in seq order. */
  steps: Message[];
  /** How many model steps the turn took (its final answer's step, else the highest step seen). */
  stepCount: number;
  toolCount: number;
  /** Tool calls that failed or timed out. */
  failedTools: number;
  /** What the whole turn used (the final answer's usage), when known. */
  tokens: number | null;
  /** The turn's final answer, once it is there. */
  final: AgentMessage | null;
  /** The turn's first step this group holds (after a question, the steps go on in a new group). */
  fromStep: number;
  /** True for the group of the turn still running (no final answer yet, and a turn is running). */
  running: boolean;
};

export type TranscriptItem =
  | { kind: "user"; message: UserMessage }
  /** `fold`: the repeats (and a loop incident's other notices) this card stands for (lib/fold-notices.ts). */
  | { kind: "system"; message: SystemMessage; fold?: NoticeFold }
  | { kind: "answer"; message: AgentMessage }
  /** The agent's question (a request_input call) and the user's answer, null when none came. */
  | { kind: "question"; message: ToolMessage; question: string; answer: string | null }
  /** A memory the agent saved, changed or forgot: shown in its place, with its Undo. */
  | { kind: "memory"; message: ToolMessage }
  | TurnGroup;

const SEVERITY_RANK: Record<Severity, number> = { debug: 0, info: 1, warning: 2, error: 3, critical: 4 };

/** A System message that is routine bookkeeping of a turn (folded into its group) rather than news. */
export function isRoutineSystem(message: SystemMessage): boolean {
  if (SEVERITY_RANK[message.severity] >= SEVERITY_RANK.warning) return false;
  const { item } = message;
  if (item.kind === "notification") {
    if (item.priority === "high" || item.priority === "critical") return false;
    if (item.trigger_ids?.length || message.source === "External") return false;
    return true;
  }
  if (item.kind === "pod_event") return item.event.type !== "errored";
  return false;
}

/** The message that ends a turn: the one with phase "final" or a termination reason. */
export function isFinalAnswer(message: Message): message is AgentMessage {
  return message.role === "agent" && (message.phase === "final" || message.termination_reason !== undefined);
}

function newGroup(first: Message, fromStep: number): TurnGroup {
  return {
    kind: "group",
    key: `group-${first.seq}`,
    steps: [],
    stepCount: 0,
    toolCount: 0,
    failedTools: 0,
    tokens: null,
    final: null,
    running: false,
    fromStep,
  };
}

/** How many of the turn's steps the group covers, up to `step`. */
const stepsUpTo = (group: TurnGroup, step: number) => Math.max(group.stepCount, step - group.fromStep + 1);

function addStep(group: TurnGroup, message: Message): void {
  group.steps.push(message);
  if (message.role === "tool") {
    group.toolCount++;
    if (message.status !== "success") group.failedTools++;
  }
  if ((message.role === "agent" || message.role === "tool") && message.step !== undefined)
    group.stepCount = stepsUpTo(group, message.step);
}

/** A request_input call as the question it asked and the answer it got (null: none came); else null. */
export function questionOf(message: Message): { question: string; answer: string | null } | null {
  if (message.role !== "tool" || message.tool !== "request_input") return null;
  const { question } = message.args as { question?: unknown };
  if (typeof question !== "string" || !question) return null;
  const { answer } = (message.result ?? {}) as { answer?: unknown };
  return { question, answer: message.status === "success" && typeof answer === "string" ? answer : null };
}

/**
 * Messages (in seq order) to what the transcript shows. `running`: a turn is running now, so the last
 * turn's group (if it has no final answer yet) is marked running.
 */
export function buildTranscript(messages: readonly Message[], { running = false } = {}): TranscriptItem[] {
  const items: TranscriptItem[] = [];
  let group: TurnGroup | null = null;
  let final: AgentMessage | null = null;
  /** The step the turn's next group starts at: 1, or the step after a question. */
  let fromStep = 1;

  const closeTurn = () => {
    if (group && final) {
      group.final = final;
      group.tokens = final.usage ? final.usage.total_tokens : null;
      if (final.step !== undefined) group.stepCount = stepsUpTo(group, final.step);
    }
    group = null;
    final = null;
    fromStep = 1;
  };

  for (const message of messages) {
    if (message.role === "user") {
      closeTurn();
      items.push({ kind: "user", message });
      continue;
    }
    if (message.role === "system" && !isRoutineSystem(message)) {
      items.push({ kind: "system", message });
      continue;
    }
    if (isFinalAnswer(message)) {
      final = message;
      items.push({ kind: "answer", message });
      continue;
    }
    const asked = message.role === "tool" ? questionOf(message) : null;
    if (asked && message.role === "tool") {
      items.push({ kind: "question", message, ...asked });
      group = null;
      fromStep = message.step + 1;
      continue;
    }
    if (message.role === "tool" && message.tool === "memory" && message.status === "success") {
      items.push({ kind: "memory", message });
      // The steps after it fold into a group of their own, in their place.
      group = null;
      fromStep = message.step + 1;
      continue;
    }
    if (!group) {
      group = newGroup(message, fromStep);
      items.push(group);
    }
    addStep(group, message);
  }
  const last = group as TurnGroup | null;
  if (last && !final) last.running = running;
  closeTurn();
  return foldNotices(items);
}

/**
 * "Worked for 3 steps · 4 tools · 1 failed" (parts that are zero are left out). What the turn used is
 * not here but behind the answer's Details, so the thread reads without figures.
 */
export function groupSummary(group: Pick<TurnGroup, "stepCount" | "toolCount" | "failedTools" | "running">): string {
  const parts = [
    group.stepCount > 0
      ? `${group.running ? "Working" : "Worked"} for ${plural(group.stepCount, "step")}`
      : group.running
        ? "Working"
        : "Worked",
  ];
  if (group.toolCount > 0) parts.push(plural(group.toolCount, "tool"));
  if (group.failedTools > 0) parts.push(`${group.failedTools.toLocaleString("en-US")} failed`);
  return parts.join(" · ");
}

/**
 * Two values show the same: the same object, or objects (arrays) whose fields are alike one by one.
 * Messages never change once persisted, so for them this is identity, reached at once.
 */
export function alike(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (!a || !b || typeof a !== "object" || typeof b !== "object" || a instanceof Map) return false;
  const keys = Object.keys(a);
  const other = b as Record<string, unknown>;
  return keys.length === Object.keys(b).length && keys.every((k) => alike((a as Record<string, unknown>)[k], other[k]));
}

/**
 * `next` with every item that shows the same as the one in its place in `previous` replaced by that
 * object: a rebuild after a new message keeps the identity of the turns it did not touch (the history
 * only grows at its end), so the components that show them, memoised on their item, are not rendered again.
 */
export function keepUnchanged(previous: readonly TranscriptItem[], next: TranscriptItem[]): TranscriptItem[] {
  return next.map((item, index) => (alike(previous[index], item) ? (previous[index] as TranscriptItem) : item));
}
