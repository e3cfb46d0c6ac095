/** "1 step", "3 steps", "1,968 tokens": a count with its noun, plural when it is not one (`many` where it is not `one` + s). */
export const plural = (n: number, one: string, many = `${one}s`) =>
  `${n.toLocaleString("en-US")} ${n === 1 ? one : many}`;
