// Tiny OpenID Connect issuers on loopback for the checks a real provider never fails (test/workers/oidc.test.ts):
// each path `/<mode>` is an issuer of its own with discovery, an authorization endpoint that approves at
// once (the subject is the request's `login_hint`, or "alice"), a token endpoint that checks the client's
// secret, the redirect URI and PKCE (S256) before it answers, and its published keys. A mode decides
// what its ID token gets wrong: `good` nothing; `forged` is signed with a key not in the JWKS (same kid);
// `wrong_aud`, `wrong_iss`, `expired`, `wrong_nonce` one claim each; `alg_none` is not signed at all;
// `userinfo` puts the email and username at its UserInfo endpoint only, `userinfo_other` another subject's.
// The workers global setup starts it (workerd cannot listen); tests reach it by `inject("tinyIssuerUrl")`
// (tiny-issuer-client.ts).
import { createHash, randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { exportJWK, generateKeyPair, type JWK, SignJWT } from "jose";
import { listenOnLoopback } from "./loopback-server.ts";
import { TINY_CLIENT, TINY_MODES, type TinyMode } from "./tiny-issuer-client.ts";

interface Grant {
  mode: TinyMode;
  sub: string;
  nonce?: string;
  challenge: string;
  redirectUri: string;
}

const b64url = (bytes: Buffer) => bytes.toString("base64url");

export async function startTinyIssuer(): Promise<{ url: string; close(): Promise<void> }> {
  const good = await generateKeyPair("RS256", { extractable: true });
  const other = await generateKeyPair("RS256");
  const publicJwk: JWK = { ...(await exportJWK(good.publicKey)), kid: "k1", alg: "RS256", use: "sig" };
  const grants = new Map<string, Grant>();
  /** Access tokens → the grant they were issued for (UserInfo). */
  const accessTokens = new Map<string, Grant>();
  let origin = "";

  async function idToken(grant: Grant, issuer: string): Promise<string> {
    const now = Math.floor(Date.now() / 1000);
    const profile = grant.mode.startsWith("userinfo") ? {} : profileOf(grant.sub);
    const claims = { sub: grant.sub, ...profile, nonce: grant.mode === "wrong_nonce" ? "not-the-nonce" : grant.nonce };
    const iss = grant.mode === "wrong_iss" ? `${origin}/elsewhere` : issuer;
    const aud = grant.mode === "wrong_aud" ? "another-client" : TINY_CLIENT.id;
    const [iat, exp] = grant.mode === "expired" ? [now - 7200, now - 3600] : [now, now + 300];
    if (grant.mode === "alg_none") {
      const header = b64url(Buffer.from(JSON.stringify({ alg: "none", typ: "JWT" })));
      const body = b64url(Buffer.from(JSON.stringify({ ...claims, iss, aud, iat, exp })));
      return `${header}.${body}.`;
    }
    return new SignJWT(claims)
      .setProtectedHeader({ alg: "RS256", kid: "k1" })
      .setIssuer(iss)
      .setAudience(aud)
      .setIssuedAt(iat)
      .setExpirationTime(exp)
      .sign(grant.mode === "forged" ? other.privateKey : good.privateKey);
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? "/", origin);
    const [, mode, ...rest] = url.pathname.split("/");
    const path = rest.join("/");
    if (!TINY_MODES.includes(mode as TinyMode)) return send(res, 404, { error: "no such issuer" });
    const issuer = `${origin}/${mode}`;
    if (path === ".well-known/openid-configuration")
      return send(res, 200, {
        issuer,
        authorization_endpoint: `${issuer}/authorize`,
        token_endpoint: `${issuer}/token`,
        jwks_uri: `${issuer}/jwks`,
        userinfo_endpoint: `${issuer}/userinfo`,
        response_types_supported: ["code"],
        subject_types_supported: ["public"],
        id_token_signing_alg_values_supported: ["RS256"],
        code_challenge_methods_supported: ["S256"],
        token_endpoint_auth_methods_supported: ["client_secret_basic"],
      });
    if (path === "jwks") return send(res, 200, { keys: [publicJwk] });
    if (path === "userinfo") return userinfo(req, res);
    if (path === "authorize") return authorize(url, mode as TinyMode, res);
    if (path === "token" && req.method === "POST") return token(req, issuer, res);
    return send(res, 404, { error: "not found" });
  }

  function authorize(url: URL, mode: TinyMode, res: ServerResponse): void {
    const q = url.searchParams;
    const redirectUri = q.get("redirect_uri") ?? "";
    if (q.get("client_id") !== TINY_CLIENT.id || q.get("code_challenge_method") !== "S256" || !redirectUri) {
      send(res, 400, { error: "invalid_request" });
      return;
    }
    const code = randomUUID();
    grants.set(code, {
      mode,
      sub: q.get("login_hint") ?? "alice",
      nonce: q.get("nonce") ?? undefined,
      challenge: q.get("code_challenge") ?? "",
      redirectUri,
    });
    const back = new URL(redirectUri);
    back.searchParams.set("code", code);
    back.searchParams.set("state", q.get("state") ?? "");
    res.writeHead(302, { location: back.toString() }).end();
  }

  async function token(req: IncomingMessage, issuer: string, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const form = new URLSearchParams(Buffer.concat(chunks).toString("utf8"));
    // RFC 6749 2.3.1: the id and secret are form-urlencoded before they are joined and base64-encoded.
    const basic = Buffer.from(req.headers.authorization?.replace(/^Basic /, "") ?? "", "base64").toString("utf8");
    const [id = "", secret = ""] = basic.split(":").map((part) => decodeURIComponent(part.replaceAll("+", " ")));
    if (id !== TINY_CLIENT.id || secret !== TINY_CLIENT.secret) return send(res, 401, { error: "invalid_client" });
    const code = form.get("code") ?? "";
    const grant = grants.get(code);
    grants.delete(code);
    const verifier = form.get("code_verifier") ?? "";
    const challenge = b64url(createHash("sha256").update(verifier).digest());
    if (!grant || grant.redirectUri !== form.get("redirect_uri") || grant.challenge !== challenge)
      return send(res, 400, { error: "invalid_grant" });
    const id_token = await idToken(grant, issuer);
    const access_token = randomUUID();
    accessTokens.set(access_token, grant);
    send(res, 200, { access_token, token_type: "Bearer", expires_in: 300, id_token });
  }

  function userinfo(req: IncomingMessage, res: ServerResponse): void {
    const grant = accessTokens.get(req.headers.authorization?.replace(/^Bearer /, "") ?? "");
    if (!grant) send(res, 401, { error: "invalid_token" });
    else {
      const sub = grant.mode === "userinfo_other" ? `${grant.sub}_other` : grant.sub;
      send(res, 200, { sub, ...profileOf(sub) });
    }
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => send(res, 500, { error: String(error) }));
  });
  const listening = await listenOnLoopback(server);
  origin = listening.origin;
  return { url: origin, close: listening.close };
}

/** What the issuer says of a subject beside it: an email and a username. */
const profileOf = (sub: string) => ({
  email: `${sub.toLowerCase().replace(/[^a-z0-9.]/g, "")}@example.test`,
  preferred_username: sub,
});

function send(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { "content-type": "application/json", "cache-control": "no-store" });
  res.end(JSON.stringify(body));
}
