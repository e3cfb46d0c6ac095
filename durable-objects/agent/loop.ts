// The agent turn: model calls streamed to every socket, each result persisted before it is shown.
import type { LanguageModel } from "ai";
import type { Message, MessageDraft, ServerFrame, TerminationReason, Usage } from "../../protocol";
import { toModelMessages } from "./context";
import { callModel } from "./llm/call-model";

export interface TurnIO {
  messages(): readonly Message[];
  append(draft: MessageDraft): Promise<Message>;
  send(frame: ServerFrame): void;
}

export interface TurnOptions {
  model: LanguageModel;
  system: string;
  maxSteps: number;
  decisionTree: string;
  signal: AbortSignal;
}

export interface TurnOutcome {
  reason: TerminationReason;
  steps: number;
  usage: Usage;
}

const isAbort = (error: unknown, signal: AbortSignal) =>
  signal.aborted || (error instanceof Error && error.name === "AbortError");

export async function runTurn(io: TurnIO, options: TurnOptions): Promise<TurnOutcome> {
  const usage: Usage = { input_tokens: 0, output_tokens: 0, total_tokens: 0 };
  const step = 1;
  let text = "";
  let reason: TerminationReason = "completed";
  let explanation = "";
  io.send({
    type: "agent_update",
    update_type: "agent_start",
    max_steps: options.maxSteps,
    decision_tree: options.decisionTree,
  });
  io.send({ type: "agent_update", update_type: "agent_turn_start", step });
  try {
    const result = await callModel({
      model: options.model,
      system: options.system,
      messages: toModelMessages(io.messages()),
      signal: options.signal,
      onTextDelta: (delta) => {
        text += delta;
        io.send({ type: "text_delta", step, delta });
      },
    });
    usage.input_tokens += result.usage.inputTokens;
    usage.output_tokens += result.usage.outputTokens;
  } catch (error) {
    if (isAbort(error, options.signal)) {
      reason = "user_cancelled";
      explanation = "Stopped by the user.";
    } else {
      reason = "llm_error";
      explanation = `The model call failed: ${error instanceof Error ? error.message : String(error)}`;
    }
  }
  usage.total_tokens = usage.input_tokens + usage.output_tokens;
  const content = [text.trim(), explanation && `_${explanation}_`].filter(Boolean).join("\n\n");
  await io.append({ role: "agent", content, step, phase: "final", termination_reason: reason });
  if (reason === "user_cancelled") io.send({ type: "agent_update", update_type: "agent_stopped", step });
  io.send({ type: "agent_update", update_type: "agent_completion", steps: step, termination_reason: reason });
  io.send({ type: "response_complete", termination_reason: reason, steps: step, usage });
  return { reason, steps: step, usage };
}
