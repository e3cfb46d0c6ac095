// Finds a turn that a previous instance of the object was running when it died (the marker is still
// in storage, but no turn runs here). Its open tool calls get a cancelled result, so the history stays
// valid for the provider (an assistant tool call needs its tool message), and an interrupt item tells
// the agent and the user what happened. A turn waiting for the user's answer is not dead: the question
// stays open until its deadline (alarm) or its answer (which carries the turn on).

import { interruptItem } from "../../agent/system-items/interrupt";
import type { MessageDraft } from "../../protocol";
import type { PendingInput } from "./pending-input";
import type { TurnMarkerStore } from "./turn-marker";

export async function recoverInterruptedTurn(
  marker: TurnMarkerStore,
  pending: PendingInput,
  append: (draft: MessageDraft) => Promise<unknown>,
): Promise<boolean> {
  const stored = await marker.stored();
  if (!stored || (await pending.current())) return false;
  const open = Object.entries(stored.calls);
  for (const [callId, call] of open) {
    await append({
      role: "tool",
      call_id: callId,
      tool: call.tool,
      args: call.args,
      status: "error",
      error: "Cancelled: the turn was interrupted before this call finished",
      step: call.step,
      duration_ms: 0,
    });
  }
  await append({
    role: "system",
    source: "Turn Control",
    severity: "warning",
    item: interruptItem(stored.started_at, open.length),
  });
  await marker.end();
  return true;
}
