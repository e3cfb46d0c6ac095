// How long a provider asked us to wait before trying again: OpenAI's `retry-after-ms`, else the
// standard `Retry-After` (RFC 9110 §10.2.3: a number of seconds or an HTTP date). Anything unreadable
// counts as no answer, and the caller falls back on its own backoff.
const NUMBER = /^\d+(\.\d+)?$/;
/** The three HTTP date forms all begin with the day's name ("Sun, 06 Nov 1994 08:49:37 GMT"). */
const HTTP_DATE = /^(mon|tue|wed|thu|fri|sat|sun)/i;

export function retryAfterMs(headers: Record<string, string> | undefined, now = Date.now()): number | undefined {
  const header = (name: string) =>
    Object.entries(headers ?? {})
      .find(([key]) => key.toLowerCase() === name)?.[1]
      ?.trim();
  const ms = header("retry-after-ms");
  if (ms && NUMBER.test(ms)) return Number(ms);
  const after = header("retry-after");
  if (!after) return undefined;
  if (NUMBER.test(after)) return Number(after) * 1000;
  const date = HTTP_DATE.test(after) ? Date.parse(after) : Number.NaN;
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}
