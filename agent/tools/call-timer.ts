// A tool call's time limit that pauses while the user answers for the call (an MCP server's
// elicitation): waiting for a person is not the tool being slow. Pauses may nest.
/**
 * Fires `fire` after `ms` of unpaused time. A timer we clear ourselves:
 * AbortSignal.timeout would stay pending after the call and keep the Durable Object from hibernating.
 */
export function callTimer(ms: number, fire: () => void) {
  let left = ms;
  let since = Date.now();
  let timer = setTimeout(fire, left);
  let pauses = 0;
  return {
    pause() {
      if (pauses++ > 0) return;
      clearTimeout(timer);
      left -= Date.now() - since;
    },
    resume() {
      if (--pauses > 0) return;
      since = Date.now();
      timer = setTimeout(fire, Math.max(0, left));
    },
    clear: () => clearTimeout(timer),
  };
}

export type CallTimer = ReturnType<typeof callTimer>;
