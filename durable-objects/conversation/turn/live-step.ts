// What the running turn has shown, followed frame by frame (every frame leaves through the frame port,
// sockets/frame-port.ts): the text and reasoning the current step has streamed so far, for a tab that
// joins mid-step, and whether a turn resumed after a restart has shown anything new yet (hello `resuming`).
import type { ServerFrame } from "../../../protocol";
import type { RunningTurn } from "./running-turn";

/** What the current step has streamed so far, for a tab that joins mid-step. */
export interface LiveStep {
  step: number;
  text: string;
  reasoning: string;
}

/** Frames that show progress: a resumed turn is no longer "resuming" once one leaves. */
const showsProgress = (frame: ServerFrame) =>
  frame.type === "text_delta" ||
  frame.type === "reasoning_delta" ||
  frame.type === "tool_start" ||
  frame.type === "tool_approval_request" ||
  (frame.type === "agent_update" && frame.update_type === "agent_request_input");

/** Keeps the turn's live step and `resuming` current with a frame that leaves. */
export function followFrame(turn: RunningTurn, frame: ServerFrame): void {
  if (turn.resuming && showsProgress(frame)) turn.resuming = false;
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
}

/** The text streamed so far in the running step, if any. */
export function liveStepOf(turn: RunningTurn | undefined): LiveStep | undefined {
  const live = turn?.live;
  return live && (live.text || live.reasoning) ? live : undefined;
}
