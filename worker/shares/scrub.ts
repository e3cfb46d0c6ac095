// What a shared page must not reveal of its owner's MCP servers (docs/protocol.md "Share links"): every
// occurrence of a server's URL, origin, host or host name, in any string of the answer (keys included),
// becomes the server's name, and its secret (should a tool have echoed it) becomes "[hidden]". Longer
// forms are replaced first, so a URL never leaves its path behind.

export interface NamedUrl {
  name: string;
  url: string;
  /** The server's token or header value, opened (d1/mcp-servers.ts serverAddresses). */
  secret?: string;
}

export const HIDDEN_SECRET = "[hidden]";

/** The forms under which a server's address can appear in text, longest first. */
function formsOf(url: string): string[] {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return [url];
  }
  const path = parsed.pathname === "/" ? "" : parsed.pathname.replace(/\/$/, "");
  const forms = [
    url,
    parsed.href,
    `${parsed.origin}${path}`,
    `${parsed.host}${path}`,
    parsed.origin,
    parsed.host,
    parsed.hostname,
  ];
  return forms.filter((form) => form.length > 0);
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** A function that replaces the servers' addresses in one string, or null when there is nothing to hide. */
export function addressScrubber(servers: NamedUrl[]): ((text: string) => string) | null {
  const byForm = new Map<string, string>();
  for (const server of servers) {
    if (server.secret) byForm.set(server.secret.toLowerCase(), HIDDEN_SECRET);
    for (const form of formsOf(server.url)) {
      const key = form.toLowerCase();
      if (!byForm.has(key)) byForm.set(key, server.name);
    }
  }
  if (byForm.size === 0) return null;
  const forms = [...byForm.keys()].sort((a, b) => b.length - a.length);
  // Host names are case-insensitive, and one alternation replaces every form in a single pass.
  const pattern = new RegExp(forms.map(escapeRegExp).join("|"), "gi");
  return (text) => text.replace(pattern, (found) => byForm.get(found.toLowerCase()) ?? found);
}

/** A deep copy of a JSON value with `scrub` applied to every string, object keys included. */
export function scrubStrings<T>(value: T, scrub: (text: string) => string): T {
  const walk = (v: unknown): unknown => {
    if (typeof v === "string") return scrub(v);
    if (Array.isArray(v)) return v.map(walk);
    if (v !== null && typeof v === "object") {
      return Object.fromEntries(Object.entries(v).map(([k, inner]) => [scrub(k), walk(inner)]));
    }
    return v;
  };
  return walk(value) as T;
}
