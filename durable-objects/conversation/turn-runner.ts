// Owns the one running turn of a conversation: refuses a second (busy), keeps the abort controller
// that Stop trips, marks the turn in storage while it runs, remembers the text streamed so far for
// tabs that join mid-turn, and asks the user on the agent's behalf.
import type { ChatFrame, Message, MessageDraft, ServerFrame } from "../../protocol";
import { loadAgentConfig } from "../../worker/settings/agent-config-store";
import { findDecisionTree } from "../agent/decision-trees";
import { llmSettings } from "../agent/llm/config";
import { languageModel } from "../agent/llm/model";
import { runTurn } from "../agent/loop";
import { BUILTIN_TOOLS } from "../agent/tools";
import type { Notifier } from "../notifications/notifier";
import { PendingInput } from "./pending-input";
import type { SocketMeta } from "./socket-hub";

export const RUNNING_TURN_KEY = "running-turn";

export interface RunnerIO {
  messages(): readonly Message[];
  append(draft: MessageDraft): Promise<Message>;
  broadcast(frame: ServerFrame): void;
  notifier: Notifier;
}

interface RunningTurn {
  abort: AbortController;
  done: Promise<void>;
  live: { step: number; text: string } | undefined;
  timeoutSeconds: number;
}

export class TurnRunner {
  private current: RunningTurn | undefined;
  readonly pending: PendingInput;

  constructor(
    private readonly ctx: DurableObjectState,
    private readonly env: Env,
    private readonly meta: SocketMeta,
    private readonly io: RunnerIO,
  ) {
    this.pending = new PendingInput(ctx.storage);
  }

  get running(): boolean {
    return this.current !== undefined;
  }

  /** The text streamed so far in the running step, for a tab that joins mid-turn. */
  get liveText(): { step: number; text: string } | undefined {
    return this.current?.live?.text ? this.current.live : undefined;
  }

  /** Checks a chat frame, persists the user's message, and starts the turn; returns an error to send, if any. */
  async start(frame: ChatFrame): Promise<{ code: string; message: string } | undefined> {
    if (this.current) return { code: "busy", message: "A turn is already running; stop it or wait for it to finish" };
    const treeName = frame.decision_tree;
    if (treeName !== undefined && !findDecisionTree(treeName)) {
      return { code: "invalid_frame", message: `decision_tree: unknown decision tree "${treeName}"` };
    }
    const turn: RunningTurn = {
      abort: new AbortController(),
      done: Promise.resolve(),
      live: undefined,
      timeoutSeconds: 0,
    };
    this.current = turn;
    try {
      await this.ctx.storage.put(RUNNING_TURN_KEY, { started_at: new Date().toISOString() });
      await this.io.append({ role: "user", content: frame.content });
    } catch (error) {
      this.current = undefined;
      throw error;
    }
    turn.done = this.run(turn, frame).finally(async () => {
      this.current = undefined;
      await this.ctx.storage.delete(RUNNING_TURN_KEY);
    });
    this.ctx.waitUntil(turn.done);
    return undefined;
  }

  /**
   * The question's deadline passed. A live turn gets the timeout and ends itself; a question left by a
   * turn that died with an evicted object is closed here, with the answer the turn would have saved.
   */
  async expireQuestion(): Promise<void> {
    if (this.pending.expire()) return;
    const question = await this.pending.current();
    if (!question) return;
    await this.pending.clear();
    await this.ctx.storage.delete(RUNNING_TURN_KEY);
    const content = `I asked: "${question.question}"\n\n— Stopped because my question was not answered in time.`;
    await this.io.append({
      role: "agent",
      content,
      step: question.step,
      phase: "final",
      termination_reason: "input_timeout",
    });
    this.io.broadcast({ type: "agent_update", update_type: "agent_request_input_timeout", step: question.step });
    this.io.broadcast({
      type: "response_complete",
      termination_reason: "input_timeout",
      steps: question.step,
      usage: { input_tokens: 0, output_tokens: 0, total_tokens: 0 },
    });
  }

  stop(): boolean {
    if (!this.current) return false;
    this.current.abort.abort(new DOMException("stopped by the user", "AbortError"));
    return true;
  }

  async stopAndWait(): Promise<void> {
    const turn = this.current;
    if (!turn) return;
    this.stop();
    await turn.done.catch(() => undefined);
  }

  private send = (frame: ServerFrame): void => {
    const live = this.current;
    if (live) {
      if (frame.type === "text_delta") {
        live.live =
          live.live?.step === frame.step
            ? { step: frame.step, text: live.live.text + frame.delta }
            : { step: frame.step, text: frame.delta };
      } else if (frame.type === "agent_update" || frame.type === "tool_start") {
        live.live = undefined;
      }
    }
    this.io.broadcast(frame);
  };

  private async run(turn: RunningTurn, frame: ChatFrame): Promise<void> {
    try {
      const saved = await loadAgentConfig(this.env.DB, this.meta.userId);
      const config = {
        ...saved,
        maxIterations: Math.min(saved.maxIterations, frame.agent_max_steps ?? saved.maxIterations),
        decisionTree: frame.decision_tree ?? saved.decisionTree,
      };
      const tree = findDecisionTree(config.decisionTree) ?? findDecisionTree("default");
      if (!tree) throw new Error("no decision tree registered");
      await runTurn(
        {
          messages: this.io.messages,
          append: (draft) => {
            if (draft.role === "agent" && this.current) this.current.live = undefined;
            return this.io.append(draft);
          },
          send: this.send,
          emit: (event) => this.io.notifier.emit(event),
          flush: (point) => this.io.notifier.flush(point),
          askUser: async (question, step, signal) => {
            this.send({
              type: "agent_update",
              update_type: "agent_request_input",
              question,
              step,
              timeout_s: config.requestInputTimeoutSeconds,
            });
            return this.pending.ask(question, step, config.requestInputTimeoutSeconds, signal);
          },
        },
        {
          model: languageModel(llmSettings(this.env)),
          config,
          tree,
          tools: [...BUILTIN_TOOLS],
          toolContext: { db: this.env.DB, userId: this.meta.userId, conversationId: this.meta.conversationId },
          signal: turn.abort.signal,
        },
      );
    } catch (error) {
      // The loop turns model and tool failures into a saved answer; reaching here means storage failed.
      console.error("ConversationObject", this.ctx.id.toString(), "turn failed", error);
      this.io.broadcast({
        type: "error",
        code: "internal",
        message: "The turn failed unexpectedly; your message is saved",
      });
      this.io.broadcast({
        type: "response_complete",
        termination_reason: "llm_error",
        steps: 0,
        usage: { input_tokens: 0, output_tokens: 0, total_tokens: 0 },
      });
    }
  }
}
