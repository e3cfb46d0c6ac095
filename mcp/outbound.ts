// What the Worker may fetch on a user's behalf (their MCP servers): https to public hosts only. Loopback
// is allowed only where MCP_ALLOW_LOOPBACK is "true" (local development and tests, never the deployed
// Worker); private, link-local and other reserved addresses and names never. Every request is checked,
// redirects included (none is followed here: the MCP client follows same-origin ones through this fetch
// again), and a response body larger than the cap fails instead of filling memory.
// A public name that resolves to a private address is not caught here (a Worker cannot resolve DNS);
// Cloudflare's edge refuses such fetches from a deployed Worker.

export interface OutboundPolicy {
  allowLoopback: boolean;
  maxResponseBytes: number;
}

export const MAX_RESPONSE_BYTES = 4 * 1024 * 1024;

export function outboundPolicy(env: { MCP_ALLOW_LOOPBACK?: string }): OutboundPolicy {
  return { allowLoopback: env.MCP_ALLOW_LOOPBACK === "true", maxResponseBytes: MAX_RESPONSE_BYTES };
}

type HostClass = "public" | "loopback" | "private";

/** Names that only mean something inside a network. */
const PRIVATE_SUFFIXES = [".local", ".internal", ".lan", ".home.arpa", ".localdomain", ".intranet", ".corp"];

function ipv4Class(host: string): HostClass | undefined {
  const parts = host.split(".");
  if (parts.length !== 4 || !parts.every((p) => /^\d{1,3}$/.test(p))) return undefined;
  const [a = 0, b = 0] = parts.map(Number);
  if (a === 127) return "loopback";
  if (
    a === 0 || // "this network"
    a === 10 ||
    (a === 100 && b >= 64 && b <= 127) || // carrier-grade NAT
    (a === 169 && b === 254) || // link-local (cloud metadata lives here)
    (a === 172 && b >= 16 && b <= 31) ||
    (a === 192 && b === 168) ||
    (a === 192 && b === 0) || // IETF protocol assignments
    (a === 198 && (b === 18 || b === 19)) || // benchmarking
    a >= 224 // multicast and reserved
  )
    return "private";
  return "public";
}

/** The eight 16-bit groups of an IPv6 address as the URL parser writes it (compressed, lower case). */
function ipv6Groups(host: string): number[] | undefined {
  const [head = "", tail] = host.split("::");
  const part = (s: string) => (s ? s.split(":").map((g) => Number.parseInt(g, 16)) : []);
  const left = part(head);
  const right = tail === undefined ? [] : part(tail);
  const groups = tail === undefined ? left : [...left, ...new Array(8 - left.length - right.length).fill(0), ...right];
  return groups.length === 8 && groups.every((g) => Number.isInteger(g) && g >= 0 && g <= 0xffff) ? groups : undefined;
}

function ipv6Class(host: string): HostClass {
  const g = ipv6Groups(host);
  if (!g) return "private"; // not an address we understand: refuse
  const [first = 0] = g;
  if (g.every((x, i) => x === (i === 7 ? 1 : 0))) return "loopback"; // ::1
  if (g.every((x) => x === 0)) return "private"; // ::
  // ::ffff:a.b.c.d (IPv4-mapped) and 64:ff9b::a.b.c.d (NAT64) carry an IPv4 address in their last 32 bits.
  const mapped = g.slice(0, 5).every((x) => x === 0) && g[5] === 0xffff;
  const nat64 = first === 0x64 && g[1] === 0xff9b && g.slice(2, 6).every((x) => x === 0);
  if (mapped || nat64) {
    const [hi = 0, lo = 0] = g.slice(6);
    return ipv4Class(`${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`) ?? "private";
  }
  if ((first & 0xfe00) === 0xfc00) return "private"; // unique local fc00::/7
  if ((first & 0xffc0) === 0xfe80) return "private"; // link-local fe80::/10
  if ((first & 0xff00) === 0xff00) return "private"; // multicast
  return "public";
}

function hostClass(hostname: string): HostClass {
  const host = hostname.toLowerCase().replace(/\.$/, "");
  if (host.startsWith("[")) return ipv6Class(host.slice(1, -1));
  if (host === "localhost" || host.endsWith(".localhost")) return "loopback";
  const v4 = ipv4Class(host);
  if (v4) return v4;
  if (!host.includes(".") || PRIVATE_SUFFIXES.some((s) => host.endsWith(s))) return "private";
  return "public";
}

/** Why the Worker will not fetch this URL, or undefined when it may. */
export function refusedUrl(url: string | URL, policy: OutboundPolicy): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return "not a valid URL";
  }
  if (parsed.protocol !== "https:" && parsed.protocol !== "http:") return "only https URLs are allowed";
  if (parsed.username || parsed.password)
    return "credentials in the URL are not allowed; use the authentication fields";
  const kind = hostClass(parsed.hostname);
  if (kind === "private") return `refused: ${parsed.hostname} is a private, link-local or reserved address`;
  if (kind === "loopback" && !policy.allowLoopback)
    return `refused: ${parsed.hostname} is a loopback address (allowed only with MCP_ALLOW_LOOPBACK for local development)`;
  if (parsed.protocol === "http:" && kind !== "loopback") return "only https URLs are allowed (http only on loopback)";
  return undefined;
}

export class OutboundRefused extends Error {
  override name = "OutboundRefused";
}

/** A fetch that refuses what refusedUrl refuses, never follows a redirect itself, and caps the body. */
export function guardedFetch(policy: OutboundPolicy): typeof fetch {
  return async (input, init) => {
    const url = input instanceof Request ? input.url : String(input);
    const refused = refusedUrl(url, policy);
    if (refused) throw new OutboundRefused(refused);
    const response = await fetch(input, { ...init, redirect: "manual" });
    const declared = Number(response.headers.get("content-length") ?? 0);
    if (declared > policy.maxResponseBytes) {
      await response.body?.cancel();
      throw new OutboundRefused(`response too large (${declared} bytes; at most ${policy.maxResponseBytes})`);
    }
    if (!response.body) return response;
    return new Response(capped(response.body, policy.maxResponseBytes), response);
  };
}

/** The body as it streams, failing once it passes `max` bytes. */
function capped(body: ReadableStream<Uint8Array>, max: number): ReadableStream<Uint8Array> {
  let seen = 0;
  return body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        seen += chunk.byteLength;
        if (seen > max) controller.error(new OutboundRefused(`response larger than ${max} bytes`));
        else controller.enqueue(chunk);
      },
    }),
  );
}
