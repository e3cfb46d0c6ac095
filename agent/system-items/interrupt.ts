// The note inserted after a turn that was cut short (seed 002 `Interrupt`): where a resumed turn goes
// on (after the results of the calls that were running: `cancelledCalls` counts them), or, when it
// does not go on, before the next input.
import type { SystemItem } from "../../protocol";

export function interruptItem(
  startedAt: string | undefined,
  cancelledCalls: number,
  { resumed = false } = {},
): Extract<SystemItem, { kind: "interrupt" }> {
  const when = startedAt ? ` (started ${startedAt})` : "";
  if (resumed) {
    const calls = cancelledCalls
      ? ` The results above say which of the ${cancelledCalls} call${cancelledCalls === 1 ? " that was" : "s that were"} running ran again.`
      : "";
    return {
      kind: "interrupt",
      body: `[Interrupted] This turn${when} was cut short: the conversation's server restarted. It goes on from its last saved step.${calls} Anything not shown above was lost.`,
      resumed: true,
      cancelled_calls: cancelledCalls,
    };
  }
  const calls = cancelledCalls
    ? ` ${cancelledCalls} tool call${cancelledCalls === 1 ? " was" : "s were"} cancelled.`
    : "";
  return {
    kind: "interrupt",
    body: `[Interrupted] The previous turn${when} was cut short before it finished: the conversation's server restarted.${calls} Anything not shown above was lost; continue from what is there.`,
    resumed: false,
    cancelled_calls: cancelledCalls,
  };
}
