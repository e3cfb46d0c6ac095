// How long to wait before reconnecting a dropped socket: 0.5 s, 1 s, 2 s … capped at 10 s, with a little
// jitter so many tabs dropped by one deploy do not all knock at the same instant.
const BASE_MS = 500;
const MAX_MS = 10_000;

export function reconnectDelay(attempt: number, random: () => number = Math.random): number {
  const exact = Math.min(MAX_MS, BASE_MS * 2 ** attempt);
  return Math.round(exact * (0.85 + 0.15 * random()));
}
