// The user's MCP servers (GET /api/mcp-servers) and what can be done to one: add (POST, then a
// connection test at once), change (PATCH: enabled, disabled_tools, a new secret), test (POST …/test)
// and delete (the list itself: use-row-list.ts). Settings → Tools uses all of it; an "MCP server
// unavailable" card turns a server off or on and tests it again.
import { useCallback } from "preact/hooks";
import {
  type McpServer,
  type McpServerCreate,
  McpServerListSchema,
  type McpServerPatch,
  McpServerSchema,
  type McpTestResult,
  McpTestResultSchema,
} from "../../../protocol";
import { type ApiResult, requestJson } from "./api";
import { couldNot, useRowList } from "./use-row-list";

const BASE = "/api/mcp-servers";
const ServerList = McpServerListSchema.transform((answer) => answer.servers);
const byName = (a: McpServer, b: McpServer) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

/** The same server with `tool` (its own name) on or off for the agent, as the PATCH will store it. */
export function withToolEnabled(server: McpServer, tool: string, enabled: boolean): McpServer {
  const disabled = server.disabled_tools.filter((name) => name !== tool);
  if (!enabled) disabled.push(tool);
  return {
    ...server,
    disabled_tools: disabled,
    tools: server.tools.map((t) => (t.name === tool ? { ...t, enabled } : t)),
  };
}

export function useMcpServers() {
  // A server without MCP routes answers 404: "not available yet", not an error.
  const rows = useRowList<McpServer, McpServerCreate, McpServerPatch>({
    base: BASE,
    list: ServerList,
    item: McpServerSchema,
    order: byName,
    unavailable: 404,
  });
  const { put, pathOf, setRowError, whileBusy } = rows;

  const test = useCallback(
    async (id: string): Promise<ApiResult<McpTestResult>> => {
      setRowError(id, null);
      const result = await whileBusy(id, () => requestJson(`${pathOf(id)}/test`, McpTestResultSchema, "POST"));
      if (result.ok) put(result.data.server);
      else setRowError(id, couldNot("test the connection", result.error));
      return result;
    },
    [put, pathOf, setRowError, whileBusy],
  );

  /** POST; on success the new server is listed and tested at once. The caller shows a failure's fields. */
  const create = useCallback(
    async (input: McpServerCreate): Promise<ApiResult<McpServer>> => {
      const result = await rows.create(input);
      if (result.ok) void test(result.data.id);
      return result;
    },
    [rows.create, test],
  );

  const { state, busy: testing, rowErrors, update, remove } = rows;
  return { state, testing, rowErrors, test, create, update, remove };
}
