// The Worker as an OAuth client of its users' MCP servers: its redirect URI and its client ID metadata
// document (draft-ietf-oauth-client-id-metadata-document; MCP 2025-11-25). An authorization server
// that says `client_id_metadata_document_supported` gets the document's https URL as the client id and
// fetches it, instead of the Worker registering anew with it (d1/mcp-oauth.ts). The document is public:
// mounted before identity (worker/app.ts).
import { type Context, Hono } from "hono";
import { MCP_OAUTH_CLIENT_METADATA_PATH } from "../../protocol";
import type { AppEnv } from "../middleware/identity";

export const oauthClientRoutes = new Hono<AppEnv>();

type Ctx = Context<AppEnv>;

const origin = (c: Ctx) => new URL(c.req.url).origin;

/** One redirect URI for every server (it is registered with each authorization server). */
export const oauthRedirectUri = (c: Ctx) => `${origin(c)}/api/mcp-servers/oauth/callback`;

/** A client id must be https with a path (the draft; the SDK checks the same). */
function httpsWithPath(url: string | undefined): string | undefined {
  if (!url || !URL.canParse(url)) return undefined;
  const parsed = new URL(url);
  return parsed.protocol === "https:" && parsed.pathname !== "/" ? parsed.href : undefined;
}

/**
 * The Worker's client id where an authorization server takes metadata documents: MCP_OAUTH_CLIENT_ID_URL
 * when the operator set one (the document served under another public name, or a fixed id for a test
 * suite), else this route's own URL when the Worker is reached over https. Over plain http (`npm start`,
 * tests on loopback) there is none, and the Worker registers itself as before.
 */
export function oauthClientIdUrl(c: Ctx): string | undefined {
  return httpsWithPath(c.env.MCP_OAUTH_CLIENT_ID_URL) ?? httpsWithPath(`${origin(c)}${MCP_OAUTH_CLIENT_METADATA_PATH}`);
}

const DOCUMENT_PATH = MCP_OAUTH_CLIENT_METADATA_PATH.replace(/^\/api\/oauth/, "");

oauthClientRoutes.get(DOCUMENT_PATH, (c) => {
  c.header("Cache-Control", "public, max-age=3600");
  return c.json({
    // Its own URL: an authorization server checks that the document names the URL it fetched.
    client_id: oauthClientIdUrl(c) ?? `${origin(c)}${MCP_OAUTH_CLIENT_METADATA_PATH}`,
    client_name: "Oracle",
    client_uri: origin(c),
    redirect_uris: [oauthRedirectUri(c)],
    grant_types: ["authorization_code", "refresh_token"],
    response_types: ["code"],
    token_endpoint_auth_method: "none",
  });
});
