// What the Worker may fetch on a user's behalf (their MCP servers, model providers, the pages web_fetch
// reads): https to public hosts only. Loopback is allowed only where ALLOW_LOOPBACK (or its older name
// MCP_ALLOW_LOOPBACK) is "true" (local development and tests, never the deployed Worker); private,
// link-local and other reserved addresses and names never. Every request is checked, redirects included
// (none is followed here: the MCP client follows same-origin ones through this fetch again, web-page.ts
// any through refusedUrl), and a response body larger than the cap fails instead of filling memory.
// A public name that resolves to a private address is not caught here (a Worker cannot resolve DNS);
// Cloudflare's edge refuses such fetches from a deployed Worker.
import ipaddr from "ipaddr.js";

export interface OutboundPolicy {
  allowLoopback: boolean;
  maxResponseBytes: number;
}

export const MAX_RESPONSE_BYTES = 4 * 1024 * 1024;

/** The policy from the Worker's variables: ALLOW_LOOPBACK, or MCP_ALLOW_LOOPBACK (its name before web_fetch). */
export function outboundPolicy(env: { ALLOW_LOOPBACK?: string; MCP_ALLOW_LOOPBACK?: string }): OutboundPolicy {
  return {
    allowLoopback: env.ALLOW_LOOPBACK === "true" || env.MCP_ALLOW_LOOPBACK === "true",
    maxResponseBytes: MAX_RESPONSE_BYTES,
  };
}

type HostClass = "public" | "loopback" | "private" | "invalid";

/** Names that only mean something inside a network. */
const PRIVATE_SUFFIXES = [".local", ".internal", ".lan", ".home.arpa", ".localdomain", ".intranet", ".corp"];

/** A DNS name as the URL parser leaves it (lower case, punycode): labels of 1–63 characters, one optional final dot. */
const HOST_NAME =
  /^(?=.{1,253}\.?$)[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?(?:\.[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?)*\.?$/;

/** 2000::/3, the only IPv6 block IANA allocates for global unicast; anything outside it is never a public server. */
const GLOBAL_UNICAST: [ipaddr.IPv6, number] = [ipaddr.IPv6.parse("2000::"), 3];

/**
 * An address is public only where ipaddr.js's table of special-purpose ranges (IANA's registries:
 * private, CGNAT, link-local, documentation, benchmarking, 6to4, Teredo, NAT64 incl. local-use
 * 64:ff9b:1::/48, SIIT, site-local, …) calls it plain `unicast`, and an IPv6 one also lies in
 * 2000::/3 (which refuses IPv4-compatible ::a.b.c.d and any range the table does not know yet). An
 * IPv4-mapped address is judged by the IPv4 address it carries.
 */
function addressClass(address: ipaddr.IPv4 | ipaddr.IPv6): HostClass {
  if (address instanceof ipaddr.IPv6) {
    if (address.isIPv4MappedAddress()) return addressClass(address.toIPv4Address());
    if (address.range() === "loopback") return "loopback";
    return address.range() === "unicast" && address.match(GLOBAL_UNICAST) ? "public" : "private";
  }
  const range = address.range();
  return range === "loopback" ? "loopback" : range === "unicast" ? "public" : "private";
}

function hostClass(hostname: string): HostClass {
  const host = hostname.toLowerCase();
  // The URL parser has already turned every IPv4 spelling (2130706433, 0x7f.1) into dotted decimal.
  if (host.startsWith("[")) {
    const inner = host.slice(1, -1);
    return ipaddr.IPv6.isValid(inner) ? addressClass(ipaddr.IPv6.parse(inner)) : "invalid";
  }
  if (ipaddr.IPv4.isValidFourPartDecimal(host)) return addressClass(ipaddr.IPv4.parse(host));
  if (!HOST_NAME.test(host)) return "invalid";
  const name = host.replace(/\.$/, "");
  if (name === "localhost" || name.endsWith(".localhost")) return "loopback";
  if (!name.includes(".") || PRIVATE_SUFFIXES.some((s) => name.endsWith(s))) return "private";
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
  if (kind === "invalid") return `refused: ${parsed.hostname} is not a valid host name`;
  if (kind === "private") return `refused: ${parsed.hostname} is a private, link-local or reserved address`;
  if (kind === "loopback" && !policy.allowLoopback)
    return `refused: ${parsed.hostname} is a loopback address (allowed only with ALLOW_LOOPBACK for local development)`;
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

/** A time limit in words for an error ("15 s", "2.5 s"). */
export const secondsText = (ms: number) => `${Number((ms / 1000).toFixed(1))} s`;

/** What a failed fetch says, its cause's code first ("ECONNREFUSED"). */
export function fetchCause(error: unknown): string {
  const cause = (error as { cause?: { code?: unknown; message?: unknown } } | undefined)?.cause;
  if (typeof cause?.code === "string") return cause.code;
  if (typeof cause?.message === "string") return cause.message;
  return error instanceof Error ? error.message : String(error);
}
