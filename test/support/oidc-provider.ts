// A real OpenID provider on loopback for the end-to-end tests (test/e2e/oidc.test.ts): panva's certified
// `oidc-provider`, with one confidential client for the app's callback (PKCE required), RS256 ID tokens
// from a key of its own, and its development sign-in page, which the browser fills in (any login is
// accepted, and names the account: its subject, preferred_username and email). Consent is granted
// without a page, as a provider does for its own first-party applications.
import { exportJWK, generateKeyPair } from "jose";
import Provider, { type Configuration, type KoaContextWithOIDC } from "oidc-provider";

export interface OidcProviderOptions {
  /** Where it listens on 127.0.0.1 (the app is configured with its issuer before it starts). */
  port: number;
  clientId: string;
  clientSecret: string;
  redirectUri: string;
}

export interface RunningOidcProvider {
  issuer: string;
  close(): Promise<void>;
}

export async function startOidcProvider(options: OidcProviderOptions): Promise<RunningOidcProvider> {
  const issuer = `http://127.0.0.1:${options.port}`;
  const { privateKey } = await generateKeyPair("RS256", { extractable: true });
  const configuration: Configuration = {
    clients: [
      {
        client_id: options.clientId,
        client_secret: options.clientSecret,
        redirect_uris: [options.redirectUri],
        grant_types: ["authorization_code"],
        response_types: ["code"],
        token_endpoint_auth_method: "client_secret_basic",
      },
    ],
    pkce: { required: () => true },
    jwks: { keys: [{ ...(await exportJWK(privateKey)), kid: "e2e", alg: "RS256", use: "sig" }] },
    cookies: { keys: ["e2e-oidc-provider-cookie-key"] },
    claims: { openid: ["sub"], email: ["email", "email_verified"], profile: ["preferred_username", "name"] },
    findAccount: (_ctx, id) => ({
      accountId: id,
      claims: () => ({
        sub: id,
        email: `${id}@example.test`,
        email_verified: true,
        preferred_username: id,
        name: id,
      }),
    }),
    loadExistingGrant,
    ttl: { Interaction: 600, Session: 3600, Grant: 3600 },
    features: { devInteractions: { enabled: true } },
  };
  const provider = new Provider(issuer, configuration);
  // Its warnings about development-only settings (the sign-in page, http) are expected here.
  provider.on("server_error", (_ctx: unknown, error: Error) => console.error("oidc-provider:", error));
  const server = provider.listen(options.port, "127.0.0.1");
  await new Promise<void>((resolve, reject) => {
    server.once("listening", resolve);
    server.once("error", reject);
  });
  return {
    issuer,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Consent without a page: the grant the session already has, or a new one for the scopes asked. */
async function loadExistingGrant(ctx: KoaContextWithOIDC) {
  const { client, session, params } = ctx.oidc;
  if (!client || !session?.accountId) return undefined;
  const grantId = ctx.oidc.result?.consent?.grantId ?? session.grantIdFor(client.clientId);
  if (grantId) return ctx.oidc.provider.Grant.find(grantId);
  const grant = new ctx.oidc.provider.Grant({ clientId: client.clientId, accountId: session.accountId });
  grant.addOIDCScope(String(params?.scope ?? "openid"));
  await grant.save();
  return grant;
}
