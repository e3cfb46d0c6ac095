/** "1 step", "3 steps", "1,968 tokens": a count with its noun, plural when it is not one. */
export const plural = (n: number, one: string) => `${n.toLocaleString("en-US")} ${one}${n === 1 ? "" : "s"}`;
