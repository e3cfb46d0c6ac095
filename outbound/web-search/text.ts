// What a search provider's words become before the model reads them (outbound/web-search.ts): plain text
// out of HTML fragments (Brave marks the query's words with <strong>, some SearXNG engines send markup),
// capped at a length; a date as `YYYY-MM-DD` where the provider's is one.

/** Tags that only style words inside a sentence: removed without a space, so "<strong>co</strong>de" stays one word. */
const INLINE_TAG =
  /<\/?(?:a|abbr|b|bdi|bdo|cite|code|data|dfn|em|font|i|kbd|mark|q|s|samp|small|span|strong|sub|sup|time|u|var|wbr)\b[^>]*>/gi;
/** Any other tag (and comments, a doctype) stands for a break between words. */
const OTHER_TAG = /<!--[\s\S]*?-->|<![^>]*>|<\/?[a-z][^>]*>/gi;
const ENTITY = /&(?:#(\d{1,7})|#x([0-9a-f]{1,6})|([a-z][a-z0-9]{1,31}));/gi;

const NAMED: Record<string, string> = {
  amp: "&",
  lt: "<",
  gt: ">",
  quot: '"',
  apos: "'",
  nbsp: " ",
  ndash: "–",
  mdash: "—",
  hellip: "…",
  lsquo: "‘",
  rsquo: "’",
  ldquo: "“",
  rdquo: "”",
  laquo: "«",
  raquo: "»",
  middot: "·",
  bull: "•",
  copy: "©",
  reg: "®",
  trade: "™",
  deg: "°",
  euro: "€",
  pound: "£",
  times: "×",
};

function decodeEntities(text: string): string {
  return text.replace(
    ENTITY,
    (whole, decimal: string | undefined, hex: string | undefined, name: string | undefined) => {
      if (name !== undefined) return NAMED[name.toLowerCase()] ?? whole;
      const code = decimal !== undefined ? Number(decimal) : Number.parseInt(hex ?? "", 16);
      return code > 0 && code <= 0x10ffff && (code < 0xd800 || code > 0xdfff) ? String.fromCodePoint(code) : "";
    },
  );
}

/** At most `max` characters, cut at a word where one is near, with "…" when anything was cut. */
export function capText(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max - 1);
  const space = cut.lastIndexOf(" ");
  return `${(space > max - 40 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

/** An HTML fragment (or plain text) as one line of plain text: no tags, entities decoded, spaces collapsed. */
export function plainText(fragment: string, max: number): string {
  const text = decodeEntities(fragment.replace(INLINE_TAG, "").replace(OTHER_TAG, " "))
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it removes
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g, "")
    .replace(/\s+/g, " ")
    .trim();
  return capText(text, max);
}

const ISO_DAY = /^(\d{4})-(\d{2})-(\d{2})(?:$|[T ])/;
/** A zone at the end of a date ("GMT", "Z", "+01:00"): the day is then taken in UTC, else as written. */
const ZONED = /(?:\bGMT|\bUTC|Z|[+-]\d{2}:?\d{2})$/i;
const MAX_DATE = 40;

const pad = (n: number) => String(n).padStart(2, "0");

/**
 * A provider's date as `YYYY-MM-DD` when it is one ("2024-03-05T10:00:00", "Tue, 05 Mar 2024 14:00:00 GMT",
 * "March 5, 2024"); anything else ("2 days ago") as given; nothing for an empty one.
 */
export function dayOf(value: string | null | undefined): string | undefined {
  const given = plainText(value ?? "", MAX_DATE);
  if (!given) return undefined;
  const iso = ISO_DAY.exec(given);
  if (iso) {
    const [, year, month, day] = iso;
    return Number(month) >= 1 && Number(month) <= 12 && Number(day) >= 1 && Number(day) <= 31
      ? `${year}-${month}-${day}`
      : given;
  }
  // A year or a month alone is not a day.
  if (/^\d{4}(?:-\d{2})?$/.test(given)) return given;
  // Date.parse reads almost anything ("5" is May 2001): only a text that names a year is a date.
  const time = /\b\d{4}\b/.test(given) ? Date.parse(given) : Number.NaN;
  if (!Number.isFinite(time)) return given;
  const date = new Date(time);
  return ZONED.test(given)
    ? `${date.getUTCFullYear()}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())}`
    : `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}
