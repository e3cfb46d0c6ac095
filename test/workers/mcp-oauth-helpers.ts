// The OAuth flow as Settings → Tools and its popup drive it, for workers tests: add a server, Connect
// (…/oauth/start, the authorization server's redirect followed by fetch, the Worker's callback with the
// user's cookie), each against an authorization server of the test's own (test/support/oauth-factory.ts).
// `workerAt` reaches the Worker on another origin than helpers.ts's (https, for what only an https Worker does).
import { exports } from "cloudflare:workers";
import { expect, inject } from "vitest";
import type { McpOAuthStartResult, McpServer } from "../../protocol";
import { type OAuthServerOptions, type RemoteOAuthServer, remoteOAuthServer } from "../support/oauth-factory";
import { ORIGIN, type Session } from "./helpers";

export type Worker = (path: string, session?: Session, init?: { method?: string; json?: unknown }) => Promise<Response>;

/** The Worker as a browser on `origin` reaches it: the session's cookie, a same-origin Origin, no redirect followed. */
export function workerAt(origin: string): Worker {
  return (path, session, init = {}) => {
    const headers = new Headers(session ? { Cookie: session.cookie, Origin: origin } : {});
    let body: string | undefined;
    if (init.json !== undefined) {
      headers.set("content-type", "application/json");
      body = JSON.stringify(init.json);
    }
    const request = new Request(`${origin}${path}`, {
      method: init.method ?? "GET",
      headers,
      body,
      redirect: "manual",
    });
    return exports.default.fetch(request);
  };
}

export const worker = workerAt(ORIGIN);

/** An authorization server and the MCP server behind it, for this test alone (the factory closes it at the end). */
export const authorizationServer = (options: OAuthServerOptions = {}): Promise<RemoteOAuthServer> =>
  remoteOAuthServer(inject("oauthFactoryUrl"), options);

export async function addServer(
  session: Session,
  body: Record<string, unknown>,
  at: Worker = worker,
): Promise<McpServer> {
  const res = await at("/api/mcp-servers", session, { method: "POST", json: body });
  expect(res.status, await res.clone().text()).toBe(201);
  return res.json();
}

export async function readServer(session: Session, id: string, at: Worker = worker): Promise<McpServer> {
  return (await at(`/api/mcp-servers/${id}`, session)).json();
}

/** POST …/oauth/start: the answer as it is (a refusal is a 409 with words). */
export const startConnecting = (session: Session, id: string, at: Worker = worker) =>
  at(`/api/mcp-servers/${id}/oauth/start`, session, { method: "POST" });

/**
 * Connect as the popup does: the URL to open, the authorization server approving at once (a redirect
 * back with code and state), the Worker's callback with the user's cookie. The outcome it lands on.
 */
export async function connect(
  session: Session,
  id: string,
  at: Worker = worker,
): Promise<{ outcome: string | null; authorizationUrl: URL }> {
  const start = await startConnecting(session, id, at);
  expect(start.status, await start.clone().text()).toBe(200);
  const { authorization_url } = (await start.json()) as McpOAuthStartResult;
  const approved = await fetch(authorization_url, { redirect: "manual" });
  expect(approved.status, await approved.clone().text()).toBe(302);
  const back = new URL(approved.headers.get("location") ?? "");
  const callback = await at(`${back.pathname}${back.search}`, session);
  expect(callback.status, await callback.clone().text()).toBe(302);
  const landing = new URL(callback.headers.get("location") ?? "", back);
  return { outcome: landing.searchParams.get("mcp_oauth"), authorizationUrl: new URL(authorization_url) };
}
