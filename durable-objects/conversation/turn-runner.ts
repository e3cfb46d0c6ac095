// Owns the one running turn of a conversation: refuses a second (busy), keeps the abort controller
// that Stop trips, and marks the turn in Durable Object storage while it runs.
import type { ChatFrame } from "../../protocol";
import { DEFAULT_AGENT_CONFIG } from "../../protocol";
import { llmSettings } from "../agent/llm/config";
import { languageModel } from "../agent/llm/model";
import { runTurn, type TurnIO } from "../agent/loop";
import { SYSTEM_PROMPT } from "../agent/prompts/system";

export const RUNNING_TURN_KEY = "running-turn";

interface RunningTurn {
  abort: AbortController;
  done: Promise<void>;
}

export class TurnRunner {
  private current: RunningTurn | undefined;

  constructor(
    private readonly ctx: DurableObjectState,
    private readonly env: Env,
    private readonly io: TurnIO,
  ) {}

  get running(): boolean {
    return this.current !== undefined;
  }

  /** Starts a turn for a chat frame; the user's message is persisted before this returns. */
  async start(frame: ChatFrame): Promise<void> {
    const abort = new AbortController();
    const turn: RunningTurn = { abort, done: Promise.resolve() };
    this.current = turn;
    try {
      await this.ctx.storage.put(RUNNING_TURN_KEY, { started_at: new Date().toISOString() });
      await this.io.append({ role: "user", content: frame.content });
    } catch (error) {
      this.current = undefined;
      throw error;
    }
    turn.done = this.run(frame, abort.signal).finally(async () => {
      this.current = undefined;
      await this.ctx.storage.delete(RUNNING_TURN_KEY);
    });
    this.ctx.waitUntil(turn.done);
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

  private async run(frame: ChatFrame, signal: AbortSignal): Promise<void> {
    const maxSteps = frame.agent_max_steps ?? DEFAULT_AGENT_CONFIG.maxIterations;
    try {
      await runTurn(this.io, {
        model: languageModel(llmSettings(this.env)),
        system: SYSTEM_PROMPT,
        maxSteps,
        decisionTree: frame.decision_tree ?? DEFAULT_AGENT_CONFIG.decisionTree,
        signal,
      });
    } catch (error) {
      console.error("turn failed", this.ctx.id.toString(), error);
      this.io.send({ type: "error", code: "internal", message: "The turn failed unexpectedly" });
    }
  }
}
