// The conversation as it reads (lib/transcript.ts): each question, its turn's steps folded into one
// line, warnings in their place, the answer (or an error bubble). Then what is live: streamed text,
// running tool cards, and a working indicator (the one place that says what the turn is doing) so the
// thread is never silent while a turn runs. Stays pinned to the bottom while the reader is there;
// sending (or a new question arriving) brings the reader back down, so the answer streams into view;
// when they scroll up during an answer and something new comes in, a "Jump to latest" button appears.
// The persisted part is a polite live region (role=log), so screen readers announce new answers; the
// live part is not, so they do not hear every streamed word.
// What it shows is the current path of the conversation's tree (lib/branches.ts): Edit on every
// question and Regenerate on every answer make new versions, ‹ n/m › switches between them; all of it
// waits while a turn runs, and none of it is there without `branching` (a shared page reads, never writes).
import { Component, type ComponentChildren } from "preact";
import { useCallback, useLayoutEffect, useMemo, useRef, useState } from "preact/hooks";
import type { Message as MessageShape, ModelRef, Prices } from "../../../../protocol";
import { answerTurns, buildTree, otherVersionsWrote, subtreesWithWrites, versionsOf } from "../../lib/branches";
import {
  type ConversationState,
  historyLoaded,
  type LiveTool,
  pathMessages,
  type SubagentRun,
} from "../../lib/conversation-state";
import { useTargetSeq } from "../../lib/router";
import { isFailure } from "../../lib/termination";
import { alike, buildTranscript, keepUnchanged, type TranscriptItem } from "../../lib/transcript";
import type { Activity } from "../../lib/turn-state";
import { AgentMessage } from "../agent-message";
import { ErrorBubble } from "../error-bubble";
import { Message } from "../message";
import { QuestionAnswer } from "../question-answer";
import { ReasoningBlock } from "../reasoning-block";
import { StreamingBubble } from "../streaming-bubble";
import { ToolCard } from "../tool-card";
import { TurnGroup } from "../turn-group";
import { UserMessage } from "../user-message";
import { VersionSwitcher } from "../version-switcher";
import { WorkingIndicator } from "../working-indicator";
import style from "./style.module.css";

const PINNED_SLACK_PX = 80;

function liveSteps(state: ConversationState): number[] {
  const steps = new Set<number>([...state.liveText.keys(), ...state.liveReasoning.keys()]);
  for (const tool of state.liveTools.values()) if (tool.tool !== "request_input") steps.add(tool.step);
  return [...steps].sort((a, b) => a - b);
}

/** What the working indicator says that a live "Thinking…" block already says. */
const THINKING_KINDS = new Set<Activity["kind"]>(["starting", "thinking", "reasoning", "observing"]);

/** The model is thinking out loud: its "Thinking…" block says what the turn does (said once, not twice). */
function thinkingLive(state: ConversationState): boolean {
  for (const reasoning of state.liveReasoning.values()) if (reasoning.endedAt === undefined) return true;
  return false;
}

/** "Step 2 of 15", for the working indicator's tooltip. */
function stepText({ step, maxSteps }: ConversationState["turn"]): string | undefined {
  return step === null ? undefined : `Step ${step}${maxSteps ? ` of ${maxSteps}` : ""}`;
}

/** What the version controls send (each true when sent): the chat's socket. */
export type BranchActions = {
  /** A new version of user message `seq` with this text and these files (`chat` with `edit_seq`). */
  edit: (seq: number, content: string, attachments?: string[]) => boolean;
  /** The turn of user message `seq` again (`regenerate`). */
  regenerate: (seq: number) => boolean;
  /** The same, on another model, which the conversation keeps from then on. */
  retryWith?: (seq: number, model: ModelRef) => void;
  /** Shows the version holding message `seq` (`switch_branch`). */
  switchTo: (seq: number) => boolean;
};

type Props = {
  state: ConversationState;
  /** The socket is open: actions that send (Retry, Regenerate, Edit, ‹ ›) are usable. */
  connected: boolean;
  activity: Activity | null;
  /** Edit, Regenerate, Retry and ‹ n/m ›; without them (a shared page) none is shown. */
  branching?: BranchActions;
  onEditingChange?: (editing: boolean) => void;
  /** Bumped by the chat when the user sends: the list scrolls to the bottom and follows the answer. */
  followKey?: number;
  footer?: ComponentChildren;
  /** Opens at the first message, not the latest (a shared page is read from the top). */
  fromTop?: boolean;
};

/** Why the version controls wait, in the words of their tooltip; null when they may be used. */
function blockedReason(state: ConversationState, connected: boolean): string | null {
  if (!connected) return "Not connected: wait for the connection to come back";
  if (state.turn.pendingInput) return "Answer the question first (or stop the answer)";
  if (state.turn.running) return "Wait for the answer to finish";
  return null;
}

/** The newest user message held on any branch: a new one (sent here or in another tab) is followed. */
function newestQuestion(messages: ReadonlyMap<number, MessageShape>): number {
  let newest = 0;
  for (const message of messages.values()) if (message.role === "user") newest = Math.max(newest, message.seq);
  return newest;
}

/** ‹ n/m › of one message: its versions, which one shows, whether another changed notes or tasks. */
type VersionInfo = { seq: number; index: number; seqs: readonly number[]; changesStay: boolean };

type RowProps = {
  item: TranscriptItem;
  blocked: string | null;
  branching?: BranchActions;
  onSwitch: (versions: VersionInfo, index: number) => void;
  prices?: Prices;
  onEditingChange?: (editing: boolean) => void;
  /** A question's own versions; an answer's, those of its turn's fork. */
  versions?: VersionInfo;
  /** An answer's question (null: a turn the user did not start, a notify or a reminder). */
  question?: number | null;
  /** A turn group's subagent runs (they change only while a subagent runs). */
  subagents?: ReadonlyMap<string, SubagentRun>;
};

/**
 * One item of the transcript. Rendered again only when one of its props changes (compared one by one),
 * so a streamed delta, which changes none of them, leaves every finished turn as it is.
 */
class TranscriptRow extends Component<RowProps> {
  override shouldComponentUpdate(next: RowProps): boolean {
    const now = this.props as Record<string, unknown>;
    const then = next as Record<string, unknown>;
    // ‹ n/m › is described afresh at each change of the history: alike is enough.
    for (const key in { ...now, ...then })
      if (now[key] !== then[key] && !(key === "versions" && alike(now[key], then[key]))) return true;
    return false;
  }

  override render() {
    const { item, blocked, branching, onSwitch, prices, onEditingChange, versions, question, subagents } = this.props;
    const switcher = (align: "start" | "end") =>
      versions && (
        <VersionSwitcher
          seq={versions.seq}
          index={versions.index}
          count={versions.seqs.length}
          onShow={(index) => onSwitch(versions, index)}
          blocked={blocked}
          changesStay={versions.changesStay}
          align={align}
        />
      );
    switch (item.kind) {
      case "user": {
        const { seq } = item.message;
        return (
          <UserMessage
            message={item.message}
            onEdit={branching && ((content, attachments) => branching.edit(seq, content, attachments))}
            blocked={blocked}
            onEditingChange={onEditingChange}
            switcher={switcher("end")}
          />
        );
      }
      case "system":
        return <Message message={item.message} fold={item.fold} prices={prices} />;
      case "group":
        return <TurnGroup group={item} subagents={subagents} prices={prices} />;
      case "question":
        return <QuestionAnswer message={item.message} question={item.question} answer={item.answer} />;
      case "memory":
        return <Message message={item.message} prices={prices} />;
      case "answer": {
        const regenerate = branching && question ? () => void branching.regenerate(question) : undefined;
        return isFailure(item.message.termination_reason) ? (
          <ErrorBubble
            message={item.message}
            prices={prices}
            onRetry={regenerate}
            onRetryWith={
              branching?.retryWith && question ? (model) => branching.retryWith?.(question, model) : undefined
            }
            blocked={blocked}
            switcher={switcher("start")}
          />
        ) : (
          <AgentMessage
            message={item.message}
            prices={prices}
            onRegenerate={regenerate}
            blocked={blocked}
            switcher={switcher("start")}
          />
        );
      }
    }
  }
}

export function MessageList(props: Props) {
  const { state, connected, activity, branching, onEditingChange, followKey, footer, fromTop } = props;
  const scroller = useRef<HTMLDivElement>(null);
  const pinned = useRef(!fromTop);
  const [behind, setBehind] = useState(false);
  const tree = useMemo(() => buildTree(state.messages), [state.messages]);
  const writes = useMemo(() => subtreesWithWrites(tree), [tree]);
  const messages = useMemo(() => pathMessages(state), [state.messages, state.leafSeq]);
  const turns = useMemo(() => answerTurns(tree, messages), [tree, messages]);
  const newestUser = useMemo(() => newestQuestion(state.messages), [state.messages]);
  // A question being asked is the banner's (it becomes the thread's question and answer once answered).
  const tools: LiveTool[] = [...state.liveTools.values()].filter((tool) => tool.tool !== "request_input");
  const running = state.turn.running;
  // The transcript is built again when the history changes, never for a streamed delta; the turns a
  // change did not touch keep their items, so their rows (TranscriptRow) are not rendered again.
  const previousItems = useRef<TranscriptItem[]>([]);
  const items = useMemo(
    () => keepUnchanged(previousItems.current, buildTranscript(messages, { running })),
    [messages, running],
  );
  previousItems.current = items;
  const blocked = blockedReason(state, connected);

  // After a switch the pressed ‹ or › (now under the version shown) keeps the focus.
  const refocus = useRef<{ seq: number; button: "previous" | "next" } | null>(null);
  useLayoutEffect(() => {
    const wanted = refocus.current;
    if (!wanted) return;
    const group = scroller.current?.querySelector(`[data-testid=version-switcher][data-version-seq="${wanted.seq}"]`);
    if (!group) return; // not switched yet: the next render tries again
    refocus.current = null;
    const buttons = [`version-${wanted.button}`, "version-previous", "version-next"];
    for (const testid of buttons) {
      const button = group.querySelector<HTMLButtonElement>(`[data-testid=${testid}]`);
      if (button && !button.disabled) return button.focus();
    }
  });

  // ‹ n/m › for the versions of a question, or of the first message of a regenerated turn.
  const versionInfos = useMemo(() => {
    const infos = new Map<number, VersionInfo>();
    const describe = (seq: number) => {
      const versions = versionsOf(tree, seq);
      if (branching && versions.seqs.length > 1)
        infos.set(seq, { seq, ...versions, changesStay: otherVersionsWrote(versions, writes) });
    };
    for (const message of messages) if (message.role === "user") describe(message.seq);
    for (const turn of turns.values()) if (turn.fork) describe(turn.fork);
    return infos;
  }, [tree, writes, messages, turns, branching]);

  // A row's ‹ or › pressed: the version switches, and the button keeps the focus (refocus, above).
  const latestBranching = useRef(branching);
  latestBranching.current = branching;
  const onSwitch = useCallback((versions: VersionInfo, index: number) => {
    const target = versions.seqs[index];
    if (target === undefined || !latestBranching.current?.switchTo(target)) return;
    refocus.current = { seq: target, button: index < versions.index ? "previous" : "next" };
  }, []);

  // What changes when something new arrives: a persisted message (on any branch: a switch is not
  // news), streamed text, a tool card.
  let liveChars = 0;
  for (const text of state.liveText.values()) liveChars += text.length;
  for (const reasoning of state.liveReasoning.values()) liveChars += reasoning.text.length;
  const content = `${state.messages.size}:${liveChars}:${tools.length}:${activity?.kind ?? ""}`;
  const lastContent = useRef(content);

  // A link to one message (a search hit): once it is on screen, scroll it into view and mark it. Runs
  // before the pinning below, which then leaves the reader there.
  const target = useTargetSeq();
  const reached = useRef<number | null>(null);
  useLayoutEffect(() => {
    if (target === null || reached.current === target) return;
    const found = scroller.current?.querySelector<HTMLElement>(`[data-seq="${target}"]`);
    if (!found) return; // not loaded yet: the next render tries again
    reached.current = target;
    pinned.current = false;
    for (const old of scroller.current?.querySelectorAll("[data-target]") ?? []) old.removeAttribute("data-target");
    found.setAttribute("data-target", "true");
    found.scrollIntoView({ block: "center" });
  });
  // A search hit in another version (search covers every branch): show that version, once.
  const switchedFor = useRef<number | null>(null);
  useLayoutEffect(() => {
    if (target === null || switchedFor.current === target || !branching || blocked) return;
    if (!state.messages.has(target) || messages.some((m) => m.seq === target)) return;
    switchedFor.current = target;
    branching.switchTo(target);
  });

  // Sending, or a new question in the log (sent from here or another tab), puts the reader back at the
  // bottom: the question and then its answer are in view, as in any chat. Switching versions is not a
  // send: the reader stays by the switcher. The history arriving is not one either: a link to one
  // message (a search hit) keeps its place.
  const follow = `${followKey ?? 0}:${newestUser}`;
  const lastFollow = useRef(follow);
  const loaded = useMemo(() => historyLoaded(state), [state.messages, state.helloSeq]);
  const wasLoaded = useRef(loaded);
  useLayoutEffect(() => {
    const changed = follow !== lastFollow.current;
    const afterLoad = wasLoaded.current;
    lastFollow.current = follow;
    wasLoaded.current = loaded;
    if (!changed || !afterLoad) return;
    pinned.current = true;
    setBehind(false);
  });

  useLayoutEffect(() => {
    const element = scroller.current;
    if (!element) return;
    if (pinned.current) element.scrollTop = element.scrollHeight;
    else if (content !== lastContent.current) setBehind(true);
    lastContent.current = content;
  });

  const onScroll = () => {
    const element = scroller.current;
    if (!element) return;
    pinned.current = element.scrollHeight - element.scrollTop - element.clientHeight < PINNED_SLACK_PX;
    if (pinned.current) setBehind(false);
  };

  const jump = () => {
    const element = scroller.current;
    if (!element) return;
    pinned.current = true;
    element.scrollTop = element.scrollHeight;
    setBehind(false);
  };

  // The rows, made again only when something they show changes: a streamed delta reuses them as they
  // are, and each row (memoised on its props) renders again only when its own item or props change.
  const prices = state.model?.prices;
  const subagents = state.subagents;
  const rows = useMemo(
    () =>
      items.map((item) => {
        const key = item.kind === "group" ? item.key : item.message.seq;
        const common = { key, item, blocked, branching, onSwitch, prices };
        if (item.kind === "user")
          return (
            <TranscriptRow
              {...common}
              onEditingChange={onEditingChange}
              versions={versionInfos.get(item.message.seq)}
            />
          );
        if (item.kind === "system" || item.kind === "question" || item.kind === "memory")
          return <TranscriptRow {...common} />;
        if (item.kind === "group") return <TranscriptRow {...common} subagents={subagents} />;
        const turn = turns.get(item.message.seq);
        const versions = turn?.fork ? versionInfos.get(turn.fork) : undefined;
        return <TranscriptRow {...common} question={turn?.user ?? null} versions={versions} />;
      }),
    [items, blocked, branching, onSwitch, prices, onEditingChange, versionInfos, subagents, turns],
  );

  const live = liveSteps(state);
  const empty = messages.length === 0 && live.length === 0 && !running;

  return (
    <div class={style.scroller} ref={scroller} onScroll={onScroll} data-testid="message-list">
      <div class={style.column}>
        {empty &&
          (loaded ? (
            <p class={style.empty} data-testid="empty-conversation">
              No messages yet. Ask the Oracle something below.
            </p>
          ) : (
            <p class={style.empty} data-testid="history-loading" aria-busy="true">
              {connected ? "Loading the conversation…" : "Waiting for the connection to load the conversation…"}
            </p>
          ))}
        <div class={style.list} role="log" aria-live="polite" aria-relevant="additions" aria-label="Conversation">
          {rows}
        </div>
        <div class={style.live} aria-live="off">
          {live.map((step) => {
            const text = state.liveText.get(step);
            const reasoning = state.liveReasoning.get(step);
            return (
              <div key={`live-${step}`} class={style.live}>
                {reasoning && (
                  <ReasoningBlock
                    text={reasoning.text}
                    durationMs={reasoning.endedAt === undefined ? undefined : reasoning.endedAt - reasoning.startedAt}
                    id={`live-${step}`}
                  />
                )}
                {text !== undefined && <StreamingBubble step={step} text={text} />}
                {tools
                  .filter((tool) => tool.step === step)
                  .map((tool) => (
                    <ToolCard key={tool.call_id} call={tool} subagent={state.subagents.get(tool.call_id)} compact />
                  ))}
              </div>
            );
          })}
          {activity && !(THINKING_KINDS.has(activity.kind) && thinkingLive(state)) && (
            <WorkingIndicator activity={activity} step={stepText(state.turn)} />
          )}
        </div>
        {footer}
      </div>
      {behind && (
        <button type="button" class={style.jump} onClick={jump} data-testid="jump-to-latest">
          Jump to latest ↓
        </button>
      )}
    </div>
  );
}
