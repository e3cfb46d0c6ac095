// Issue 14: what a user's MCP server costs a turn. Each turn connects (initialize + initialized) and
// lists the tools once before its first model request, then each call is one request. Measured with
// the Worker's own client code (mcp/client.ts, guarded fetch) against the SDK's server on loopback, so
// the figures are the protocol's and the code's overhead without a network in between.
import { connectMcp } from "../mcp/client.ts";
import { startMcpServer } from "../test/support/mcp-server.ts";

const policy = { allowLoopback: true, maxResponseBytes: 4 * 1024 * 1024 };

export async function measureMcp(turns: number, calls: number): Promise<{ turnStartMs: number[]; callMs: number[] }> {
  const server = await startMcpServer();
  const endpoint = { name: "bench", url: server.url, headers: {} };
  try {
    const turnStartMs: number[] = [];
    for (let i = 0; i < turns + 5; i++) {
      const started = performance.now();
      const session = await connectMcp(endpoint, policy);
      await session.listTools();
      if (i >= 5) turnStartMs.push(performance.now() - started); // the first 5 warm up
      await session.close();
    }
    const session = await connectMcp(endpoint, policy);
    const callMs: number[] = [];
    const signal = new AbortController().signal;
    for (let i = 0; i < calls + 10; i++) {
      const started = performance.now();
      await session.callTool("echo", { text: `call ${i}` }, { signal, timeoutMs: 5000 });
      if (i >= 10) callMs.push(performance.now() - started);
    }
    await session.close();
    return { turnStartMs, callMs };
  } finally {
    await server.close();
  }
}
