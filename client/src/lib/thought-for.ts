// How long a model thought, as its folded reasoning says it: "Thought for 12 s".

/** "a moment", "12 s", "1 min 5 s": a duration as the summary says it. */
export function thoughtFor(ms: number): string {
  const seconds = Math.round(ms / 1000);
  if (seconds < 1) return "a moment";
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  const rest = seconds % 60;
  return rest ? `${minutes} min ${rest} s` : `${minutes} min`;
}
