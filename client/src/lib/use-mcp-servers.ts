// The user's MCP servers (GET /api/mcp-servers) and what can be done to one: add (POST, then a
// connection test at once), change (PATCH: enabled, disabled_tools, a new secret), test (POST …/test)
// and delete. Each server row has its own busy flags and its own error line. Settings → Tools uses all
// of it; an "MCP server unavailable" card turns a server off or on and tests it again.
import { useCallback, useEffect, useRef, useState } from "preact/hooks";
import {
  type McpServer,
  type McpServerCreate,
  McpServerListSchema,
  type McpServerPatch,
  McpServerSchema,
  type McpTestResult,
  McpTestResultSchema,
} from "../../../protocol";
import { type ApiResult, requestEmpty, requestJson } from "./api";

export type ServersState =
  | { status: "loading" }
  | { status: "unavailable" }
  | { status: "failed"; message: string }
  | { status: "ready"; servers: McpServer[] };

const BASE = "/api/mcp-servers";
const pathOf = (id: string) => `${BASE}/${encodeURIComponent(id)}`;
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
  const [state, setState] = useState<ServersState>({ status: "loading" });
  const [testing, setTesting] = useState<Record<string, boolean>>({});
  const [rowErrors, setRowErrors] = useState<Record<string, string>>({});
  // The latest PATCH per server: an older answer arriving late must not undo a newer change.
  const latest = useRef<Record<string, number>>({});

  useEffect(() => {
    let live = true;
    void requestJson(BASE, McpServerListSchema).then((result) => {
      if (!live) return;
      if (result.ok) setState({ status: "ready", servers: result.data.servers });
      else if (result.error.status === 404) setState({ status: "unavailable" });
      else setState({ status: "failed", message: result.error.message });
    });
    return () => {
      live = false;
    };
  }, []);

  /** Puts `server` in the list (replacing the one with its id), kept in name order. */
  const put = useCallback((server: McpServer) => {
    setState((current) => {
      if (current.status !== "ready") return current;
      const others = current.servers.filter((s) => s.id !== server.id);
      return { ...current, servers: [...others, server].sort(byName) };
    });
  }, []);

  const setRowError = useCallback((id: string, message: string | null) => {
    setRowErrors(({ [id]: _, ...rest }) => (message ? { ...rest, [id]: message } : rest));
  }, []);

  const test = useCallback(
    async (id: string): Promise<ApiResult<McpTestResult>> => {
      setTesting((t) => ({ ...t, [id]: true }));
      setRowError(id, null);
      const result = await requestJson(`${pathOf(id)}/test`, McpTestResultSchema, "POST");
      setTesting(({ [id]: _, ...rest }) => rest);
      if (result.ok) put(result.data.server);
      else setRowError(id, `Could not test the connection: ${result.error.message}`);
      return result;
    },
    [put, setRowError],
  );

  /** POST; on success the new server is listed and tested at once. The caller shows a failure's fields. */
  const create = useCallback(
    async (input: McpServerCreate): Promise<ApiResult<McpServer>> => {
      const result = await requestJson(BASE, McpServerSchema, "POST", input);
      if (result.ok) {
        put(result.data);
        void test(result.data.id);
      }
      return result;
    },
    [put, test],
  );

  /**
   * PATCH; `optimistic` is shown at once and undone if the server says no. A failure is shown on the
   * row unless `quiet` (a form that shows it by its fields itself).
   */
  const update = useCallback(
    async (
      server: McpServer,
      patch: McpServerPatch,
      options: { optimistic?: McpServer; quiet?: boolean } = {},
    ): Promise<ApiResult<McpServer>> => {
      const request = (latest.current[server.id] ?? 0) + 1;
      latest.current[server.id] = request;
      if (options.optimistic) put(options.optimistic);
      setRowError(server.id, null);
      const result = await requestJson(pathOf(server.id), McpServerSchema, "PATCH", patch);
      if (latest.current[server.id] !== request) return result;
      if (result.ok) put(result.data);
      else {
        if (options.optimistic) put(server);
        if (!options.quiet) setRowError(server.id, `Could not save: ${result.error.message}`);
      }
      return result;
    },
    [put, setRowError],
  );

  const remove = useCallback(
    async (id: string): Promise<boolean> => {
      const result = await requestEmpty(pathOf(id), "DELETE");
      if (!result.ok && result.error.status !== 404) {
        setRowError(id, `Could not delete: ${result.error.message}`);
        return false;
      }
      setState((current) =>
        current.status === "ready" ? { ...current, servers: current.servers.filter((s) => s.id !== id) } : current,
      );
      setRowError(id, null);
      return true;
    },
    [setRowError],
  );

  return { state, testing, rowErrors, test, create, update, remove };
}
