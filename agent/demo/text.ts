// Small text helpers the demo's parts share: cleaning, clipping, quoting and reading JSON-ish values.

export const clean = (s: string) =>
  s
    .trim()
    .replace(/^["“'`]+|["”'`.!?]+$/g, "")
    .trim();
export const clip = (s: string, n: number) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

/** Text as a markdown block quote, line by line, so the quoted note's own markdown still reads as such. */
export const blockQuote = (text: string) =>
  text
    .split("\n")
    .map((line) => (line.trim() ? `> ${line}` : ">"))
    .join("\n");

export const count = (n: number, noun: string) => `${n} ${noun}${n === 1 ? "" : "s"}`;

export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

export function field(value: unknown, key: string): unknown {
  return value && typeof value === "object" && !Array.isArray(value)
    ? (value as Record<string, unknown>)[key]
    : undefined;
}

export function arrayField(value: unknown, key: string): unknown[] {
  const found = field(value, key);
  return Array.isArray(found) ? found : [];
}
