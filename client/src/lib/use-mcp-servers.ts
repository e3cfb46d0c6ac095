// The user's MCP servers (GET /api/mcp-servers) and what can be done to one: add (POST switched off, then
// a connection test at once, which switches it on when it works: a server that fails would make every
// turn warn about it), change (PATCH: enabled, disabled_tools, a new secret), test (POST …/test)
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

/** How an added server's first test went: switched on, or left off and why. */
export type AddOutcome = { server: McpServer; on: true } | { server: McpServer; on: false; why: string };

// The servers added here that stay off until they work (an OAuth one until it is connected), in this
// tab's session: the popup's callback can bring the tab back to a new page when popups are blocked.
const HELD_KEY = "oracle.mcp-held-off";
function held(): Set<string> {
  try {
    return new Set(JSON.parse(sessionStorage.getItem(HELD_KEY) ?? "[]") as string[]);
  } catch {
    return new Set();
  }
}
function hold(id: string, on: boolean): void {
  const ids = held();
  if (on) ids.add(id);
  else ids.delete(id);
  try {
    sessionStorage.setItem(HELD_KEY, JSON.stringify([...ids]));
  } catch {
    // nothing to remember it in: it stays off until switched on by hand
  }
}

/** Its last test found its tools, and an OAuth server is connected. */
const works = (server: McpServer) =>
  server.checked_at !== null &&
  server.last_error === null &&
  (server.auth.type !== "oauth" || server.auth.status === "connected");

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

  /** A server held off since it was added, working now: switched on (then listed), once. */
  const settle = useCallback(
    async (server: McpServer): Promise<McpServer> => {
      if (server.enabled || !works(server) || !held().has(server.id)) return server;
      hold(server.id, false);
      const result = await requestJson(pathOf(server.id), McpServerSchema, "PATCH", { enabled: true });
      return result.ok ? result.data : server;
    },
    [pathOf],
  );

  const test = useCallback(
    async (id: string): Promise<ApiResult<McpTestResult>> => {
      setRowError(id, null);
      const result = await whileBusy(id, async () => {
        const tested = await requestJson(`${pathOf(id)}/test`, McpTestResultSchema, "POST");
        return tested.ok ? { ...tested, data: { ...tested.data, server: await settle(tested.data.server) } } : tested;
      });
      if (result.ok) put(result.data.server);
      else setRowError(id, couldNot("test the connection", result.error));
      return result;
    },
    [put, pathOf, setRowError, whileBusy, settle],
  );

  /**
   * POST switched off, listed, then tested at once: switched on when it works, else left off (held) and
   * `tested` says why. The caller shows a failure's fields.
   */
  const create = useCallback(
    async (input: McpServerCreate, tested?: (outcome: AddOutcome) => void): Promise<ApiResult<McpServer>> => {
      const result = await rows.create({ ...input, enabled: false });
      if (!result.ok) return result;
      hold(result.data.id, true);
      void test(result.data.id).then((answer) => {
        const server = answer.ok ? answer.data.server : result.data;
        if (server.enabled) tested?.({ server, on: true });
        else tested?.({ server, on: false, why: answer.ok ? (answer.data.error ?? "") : answer.error.message });
      });
      return result;
    },
    [rows.create, test],
  );

  /** Switched on or off by hand: no longer held off. */
  const enable = useCallback(
    (server: McpServer, enabled: boolean) => {
      hold(server.id, false);
      return rows.update(server, { enabled }, { optimistic: { ...server, enabled } });
    },
    [rows.update],
  );

  /** GET one server again: after the popup says it is done, or the window gets the focus back. */
  const refresh = useCallback(
    async (id: string) => {
      const result = await requestJson(pathOf(id), McpServerSchema);
      if (result.ok) put(await settle(result.data));
      else if (result.error.status === 404) hold(id, false);
    },
    [pathOf, put, settle],
  );

  // Back in a tab that went to the authorization server itself (popups blocked): a held server is on now.
  const loaded = rows.state.status === "ready";
  useEffect(() => {
    if (!loaded) return;
    for (const id of held()) void refresh(id);
  }, [loaded, refresh]);

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
  return { state, testing, rowErrors, test, create, enable, update, remove, connect, disconnect };
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
