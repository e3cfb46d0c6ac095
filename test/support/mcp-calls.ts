// What a test MCP server (mcp-server.ts) recorded, read over HTTP so tests inside workerd can check it.
export const MCP_TEST_TOKEN = "mcp-test-token-0123456789";
/**
 * What a ReDoS pattern such as ^(a+)+$ backtracks on (the test server's `/hostile` tools): 2^33 paths,
 * about 50 s in workerd's V8 (30 a's took 6 s), so a check that ran the pattern outlasts a test's 20 s.
 */
export const REDOS_TEXT = `${"a".repeat(33)}!`;

export interface McpRecord {
  calls: { tool: string; args: unknown }[];
  /** Tools whose call the client cancelled (a Stop or a timeout reached the server). */
  cancelled: string[];
  /** The Authorization (or custom) header each MCP request carried. */
  authSeen: (string | null)[];
  /** Each `notifications/cancelled` the client sent: the id of the request it cancels, the reason, the URL's `tag`. */
  cancelNotices: { requestId: unknown; reason?: string; tag?: string }[];
  /** Each request to a URL with `?tag=…` (a test's own connection): its JSON-RPC id, method and tool. */
  requests: { tag: string; id: unknown; method: string; tool?: string }[];
}

export async function mcpCalls(mcpUrl: string): Promise<McpRecord> {
  const res = await fetch(new URL("/calls", mcpUrl));
  if (!res.ok) throw new Error(`GET /calls: ${res.status}`);
  return res.json();
}
