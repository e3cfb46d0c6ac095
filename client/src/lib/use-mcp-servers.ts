// The user's MCP servers (GET /api/mcp-servers) and what can be done to one: add (POST, then a
// connection test at once), change (PATCH: enabled, disabled_tools, a new secret), test (POST …/test)
// and delete (the list itself: use-row-list.ts), and an OAuth server's connect (a popup to its
// authorization server) and disconnect. Settings → Tools uses all of it; an "MCP server unavailable" card
// turns a server off or on and tests it again.
import { useCallback, useEffect } from "preact/hooks";
import {
  isLoopbackHost,
  MCP_OAUTH_OUTCOME_PARAM,
  McpOAuthDisconnectResultSchema,
  type McpOAuthMessage,
  McpOAuthMessageSchema,
  McpOAuthOutcomeSchema,
  McpOAuthStartResultSchema,
  type McpServer,
  type McpServerCreate,
  McpServerListSchema,
  type McpServerPatch,
  McpServerSchema,
  type McpTestResult,
  McpTestResultSchema,
  openableUrl,
} from "../../../protocol";
import { type ApiResult, requestJson } from "./api";
import { couldNot, useRowList } from "./use-row-list";

const BASE = "/api/mcp-servers";
/** The popup's window name, so a second Connect reuses it. */
const POPUP_NAME = "mcp-oauth";
/** Same-origin only by construction: what the popup says when it has lost its opener. */
const channel = () => (typeof BroadcastChannel === "function" ? new BroadcastChannel("mcp-oauth") : undefined);
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

  /** GET one server again: after the popup says it is done, or the window gets the focus back. */
  const refresh = useCallback(
    async (id: string) => {
      const result = await requestJson(pathOf(id), McpServerSchema);
      if (result.ok) put(result.data);
    },
    [pathOf, put],
  );

  /**
   * Opens the popup at once (while the click still allows it), then points it at the authorization
   * server; blocked, the tab itself goes there and the callback brings it back to /settings/tools.
   */
  const connect = useCallback(
    async (id: string) => {
      setRowError(id, null);
      const popup = window.open("", POPUP_NAME, "popup,width=520,height=720");
      const result = await whileBusy(id, () =>
        requestJson(`${pathOf(id)}/oauth/start`, McpOAuthStartResultSchema, "POST"),
      );
      // A 409 already says "Could not start connecting <name>: why".
      if (!result.ok) {
        popup?.close();
        setRowError(
          id,
          result.error.code === "conflict" ? result.error.message : couldNot("start connecting", result.error),
        );
        return;
      }
      // Only a web page leaves for the popup: never file:, blob: or the like, whatever the answer says.
      const url = result.data.authorization_url;
      if (!openableUrl(url, isLoopbackHost(window.location.hostname))) {
        popup?.close();
        setRowError(id, "Could not start connecting: the sign-in page is not an https address");
        return;
      }
      if (popup && !popup.closed) popup.location.href = url;
      else window.location.assign(url);
    },
    [pathOf, setRowError, whileBusy],
  );

  const disconnect = useCallback(
    async (id: string) => {
      setRowError(id, null);
      const result = await whileBusy(id, () =>
        requestJson(`${pathOf(id)}/oauth/disconnect`, McpOAuthDisconnectResultSchema, "POST"),
      );
      if (result.ok) put(result.data.server);
      else setRowError(id, couldNot("disconnect", result.error));
    },
    [pathOf, put, setRowError, whileBusy],
  );

  const ids = rows.state.status === "ready" ? rows.state.items.map((s) => s.id).join(",") : "";
  useEffect(() => {
    // The popup's page posts here when the authorization is done: only from this very origin.
    const onMessage = (event: MessageEvent) => {
      if (event.origin !== window.location.origin) return;
      const message = McpOAuthMessageSchema.safeParse(event.data);
      if (message.success) void refresh(message.data.server);
    };
    // A popup closed by hand, or a tab that comes back: read the OAuth servers again.
    const onFocus = () => {
      for (const id of ids.split(",").filter(Boolean)) void refresh(id);
    };
    const fromChannel = (event: MessageEvent) => {
      const message = McpOAuthMessageSchema.safeParse(event.data);
      if (message.success) void refresh(message.data.server);
    };
    const popupChannel = channel();
    window.addEventListener("message", onMessage);
    popupChannel?.addEventListener("message", fromChannel);
    window.addEventListener("focus", onFocus);
    return () => {
      window.removeEventListener("message", onMessage);
      popupChannel?.close();
      window.removeEventListener("focus", onFocus);
    };
  }, [ids, refresh]);

  const { state, busy: testing, rowErrors, update, remove } = rows;
  return { state, testing, rowErrors, test, create, update, remove, connect, disconnect };
}

/**
 * The callback's landing (/settings/tools?mcp_oauth=…&server=…): in the popup, tell the opener (same
 * origin only) and close; in a tab that went there itself, the outcome to show once, the URL cleaned.
 */
export function oauthLanding(): McpOAuthMessage | undefined {
  const params = new URLSearchParams(window.location.search);
  const outcome = McpOAuthOutcomeSchema.safeParse(params.get(MCP_OAUTH_OUTCOME_PARAM));
  const server = params.get("server");
  if (!outcome.success || !server) return undefined;
  const message: McpOAuthMessage = { type: "mcp_oauth", server, outcome: outcome.data };
  const opener = window.opener as Window | null;
  if (opener && !opener.closed) opener.postMessage(message, window.location.origin);
  // The callback's Cross-Origin-Opener-Policy (the API's secure headers) cuts the popup from its opener;
  // a same-origin channel still reaches the Settings tab.
  else channel()?.postMessage(message);
  // A popup closes; a tab that came here itself is not closable by script, and stays.
  window.close();
  window.history.replaceState(window.history.state, "", window.location.pathname);
  return message;
}
