// What the Worker may fetch for a user's MCP server (outbound/policy.ts): https to public hosts, loopback
// only with ALLOW_LOOPBACK (or its older name MCP_ALLOW_LOOPBACK), never private or link-local; no
// redirect followed; bodies capped.
import { describe, expect, inject, it } from "vitest";
import { guardedFetch, type OutboundPolicy, outboundPolicy, refusedUrl } from "../../outbound/policy";

const base = new URL(inject("mcpUrl")).origin;
const deployed: OutboundPolicy = { allowLoopback: false, maxResponseBytes: 1000 };
const dev: OutboundPolicy = { allowLoopback: true, maxResponseBytes: 1000 };

describe("refusedUrl", () => {
  it.each([
    "https://mcp.example.com/mcp",
    "https://mcp.example.com:8443/mcp",
    "https://8.8.8.8/mcp",
    "https://[2606:4700::1111]/mcp",
    "https://[::ffff:8.8.8.8]/mcp",
    "https://mcp.example.com./mcp",
  ])("allows %s", (url) => {
    expect(refusedUrl(url, deployed)).toBeUndefined();
  });

  it.each([
    ["http://mcp.example.com/mcp", /https/],
    ["ftp://mcp.example.com/", /https/],
    ["https://localhost/mcp", /loopback/],
    ["https://api.localhost/mcp", /loopback/],
    ["https://127.0.0.1/mcp", /loopback/],
    ["https://2130706433/mcp", /loopback/], // 127.0.0.1 written as one number
    ["https://0x7f.1/mcp", /loopback/],
    ["https://[::1]/mcp", /loopback/],
    ["https://[::ffff:127.0.0.1]/mcp", /loopback/],
    ["https://10.1.2.3/", /private/],
    ["https://172.16.0.1/", /private/],
    ["https://192.168.1.1/", /private/],
    ["https://100.64.0.1/", /private/],
    ["https://169.254.169.254/latest/meta-data", /private/],
    ["https://0.0.0.0/", /private/],
    ["https://[fe80::1]/", /private/],
    ["https://[fc00::1]/", /private/],
    ["https://[::]/", /private/],
    ["https://[64:ff9b::a00:1]/", /private/], // NAT64 of 10.0.0.1
    ["https://[64:ff9b:1::a00:1]/", /private/], // local-use NAT64 (RFC 8215)
    ["https://[::a00:1]/", /private/], // IPv4-compatible 10.0.0.1
    ["https://[::10.0.0.1]/", /private/],
    ["https://[::ffff:0:a00:1]/", /private/], // SIIT, IPv4-translated (RFC 6145)
    ["https://[2002:a00:1::]/", /private/], // 6to4 around 10.0.0.1
    ["https://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/", /private/], // Teredo
    ["https://[fec0::1]/", /private/], // site-local
    ["https://[2001:db8::1]/", /private/], // documentation
    ["https://[3fff::1]/", /private/], // documentation (RFC 9637)
    ["https://[100::1]/", /private/], // discard-only
    ["https://[::ffff:10.0.0.1]/", /private/],
    ["https://192.0.2.10/", /private/], // documentation (TEST-NET-1)
    ["https://198.51.100.10/", /private/],
    ["https://203.0.113.10/", /private/],
    ["https://255.255.255.255/", /private/],
    ["https://mcp.example.com../", /not a valid host name/],
    ["https://mcp..example.com/", /not a valid host name/],
    ["https://intranet/", /private/],
    ["https://nas.local/", /private/],
    ["https://db.internal/", /private/],
    ["https://u:p@mcp.example.com/", /credentials/],
  ])("refuses %s in a deployed Worker", (url, reason) => {
    expect(refusedUrl(url, deployed)).toMatch(reason);
  });

  it("allows loopback, over http too, only with ALLOW_LOOPBACK; never a private address", () => {
    expect(refusedUrl("http://127.0.0.1:8080/mcp", dev)).toBeUndefined();
    expect(refusedUrl("http://localhost:8080/mcp", dev)).toBeUndefined();
    expect(refusedUrl("http://192.168.1.10/mcp", dev)).toMatch(/private/);
    expect(refusedUrl("http://mcp.example.com/mcp", dev)).toMatch(/https/);
    expect(refusedUrl("http://127.0.0.1:8080/mcp", deployed)).toBe(
      "refused: 127.0.0.1 is a loopback address (allowed only with ALLOW_LOOPBACK for local development)",
    );
  });

  it("reads ALLOW_LOOPBACK, and still the older MCP_ALLOW_LOOPBACK", () => {
    expect(outboundPolicy({ ALLOW_LOOPBACK: "true" }).allowLoopback).toBe(true);
    expect(outboundPolicy({ MCP_ALLOW_LOOPBACK: "true" }).allowLoopback).toBe(true);
    expect(outboundPolicy({ ALLOW_LOOPBACK: "true", MCP_ALLOW_LOOPBACK: "false" }).allowLoopback).toBe(true);
    expect(outboundPolicy({}).allowLoopback).toBe(false);
    expect(outboundPolicy({ ALLOW_LOOPBACK: "1", MCP_ALLOW_LOOPBACK: "yes" }).allowLoopback).toBe(false);
    expect(refusedUrl("http://127.0.0.1:8080/mcp", outboundPolicy({ ALLOW_LOOPBACK: "true" }))).toBeUndefined();
  });
});

describe("guardedFetch", () => {
  it("refuses a URL before any request, and does not follow a redirect to a private address", async () => {
    await expect(guardedFetch(deployed)(`${base}/bytes/10`)).rejects.toThrow(/loopback/);
    const redirect = await guardedFetch(dev)(`${base}/redirect`);
    expect(redirect.status).toBe(302);
    await expect(guardedFetch(dev)(redirect.headers.get("location") ?? "")).rejects.toThrow(/private/);
  });

  it("passes a body within the cap and fails one beyond it, declared or streamed", async () => {
    expect(await (await guardedFetch(dev)(`${base}/bytes/1000`)).text()).toHaveLength(1000);
    await expect(guardedFetch(dev)(`${base}/bytes/1001`)).rejects.toThrow(/too large/);
    const streamed = await guardedFetch(dev)(`${base}/chunked/5000`);
    await expect(streamed.text()).rejects.toThrow(/larger than 1000 bytes/);
  });
});
