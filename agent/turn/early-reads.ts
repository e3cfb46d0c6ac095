// Read-only tool calls start as soon as the model has streamed their arguments, while the rest of its
// answer (the finish, the usage) is still on its way, as the AI SDK's own loop runs tools. Only tools
// that only read (AgentTool.readOnly): a call the step ends up not running changed nothing. Nothing
// else moves: the executor still reports each call where it always did (tool_start once the model
// call is over, then the result), and just awaits the result already under way, which from then on
// follows the call's own signal (its timeout, Stop), as a call the executor started would.
// A read is matched to its call by tool and arguments, not by the model's id, which may repeat within
// an answer and is not yet the call's own (call-ids.ts): two reads alike are one and the same read.

import type { ModelToolCall } from "../llm/call-model";
import { canonicalJson } from "../state";
import type { Turn } from "./turn";

interface Started {
  tool: string;
  argsKey: string;
  result: Promise<unknown>;
  abort: AbortController;
}

export class EarlyReads {
  private started: Started[] = [];

  constructor(private readonly turn: Turn) {}

  /** A call's arguments are complete (callModel's onToolInput): a read-only tool starts now. */
  start(callId: string, toolName: string, args: Record<string, unknown>): void {
    const tool = this.turn.tools.get(toolName);
    if (!tool?.readOnly || this.turn.signal.aborted) return;
    // A read the user wants to approve first waits for them like any other call.
    if (this.turn.setup.approvals?.needs(tool)) return;
    const parsed = tool.args.safeParse(args);
    if (!parsed.success) return;
    const abort = new AbortController();
    const result = Promise.resolve().then(() =>
      tool.execute(parsed.data, {
        ...this.turn.setup.toolContext,
        signal: AbortSignal.any([this.turn.signal, abort.signal]),
        step: this.turn.state.step,
        callId,
      }),
    );
    // Awaited later or never: a failure is the executor's to report, never an unhandled rejection.
    result.catch(() => undefined);
    this.started.push({ tool: toolName, argsKey: canonicalJson(parsed.data), result, abort });
  }

  /**
   * The result under way for this call, if a read of its tool was started with these very arguments;
   * aborted with `signal` from now on.
   */
  take(call: ModelToolCall, args: unknown, signal: AbortSignal): Promise<unknown> | undefined {
    if (!this.started.length) return undefined;
    const argsKey = canonicalJson(args);
    const at = this.started.findIndex((s) => s.tool === call.tool && s.argsKey === argsKey);
    const started = this.started[at];
    if (!started) return undefined;
    this.started.splice(at, 1);
    const follow = () => started.abort.abort(signal.reason);
    if (signal.aborted) follow();
    else signal.addEventListener("abort", follow, { once: true });
    return started.result;
  }

  /** The step is over: what it did not use (a call whose final arguments differ, one not run) is stopped. */
  discard(): void {
    for (const s of this.started) s.abort.abort();
    this.started = [];
  }
}
