// Identity providers from the operator's variables (worker/auth/oidc-config.ts), the usernames a first
// sign-in makes (oidc-username.ts), and GitHub's OAuth flow (oidc-client.ts), which cannot run end to end
// offline: its authorization URL, its token request and its user request are checked as they leave, with
// GitHub's answers played back.
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  authorizationServer,
  authorizationUrl,
  finishAuthorization,
  GITHUB_USER_URL,
  identityFromClaims,
  identityFromGitHubUser,
} from "../../worker/auth/oidc-client";
import { configuredProviders } from "../../worker/auth/oidc-config";
import { usernameBase, usernameCandidates } from "../../worker/auth/oidc-username";

describe("configuredProviders", () => {
  it("reads each listed id's variables, with a name and scopes by default", () => {
    const providers = configuredProviders({
      OIDC_PROVIDERS: " google, my_idp ,google,github",
      OIDC_GOOGLE_ISSUER: "https://accounts.google.com",
      OIDC_GOOGLE_CLIENT_ID: "g-id",
      OIDC_GOOGLE_CLIENT_SECRET: "g-secret",
      OIDC_MY_IDP_ISSUER: "http://127.0.0.1:8080/realms/x",
      OIDC_MY_IDP_CLIENT_ID: "public-client",
      OIDC_MY_IDP_NAME: "Company login",
      OIDC_MY_IDP_SCOPES: "openid email",
      OIDC_GITHUB_TYPE: "github",
      OIDC_GITHUB_CLIENT_ID: "gh-id",
      OIDC_GITHUB_CLIENT_SECRET: "gh-secret",
    } as { OIDC_PROVIDERS: string });
    expect(providers).toEqual([
      {
        id: "google",
        type: "oidc",
        name: "Google",
        issuer: "https://accounts.google.com",
        clientId: "g-id",
        clientSecret: "g-secret",
        scopes: "openid email profile",
      },
      {
        id: "my_idp",
        type: "oidc",
        name: "Company login",
        issuer: "http://127.0.0.1:8080/realms/x",
        clientId: "public-client",
        clientSecret: undefined,
        scopes: "openid email",
      },
      {
        id: "github",
        type: "github",
        name: "GitHub",
        issuer: "https://github.com",
        clientId: "gh-id",
        clientSecret: "gh-secret",
        scopes: "read:user",
      },
    ]);
  });

  it("leaves out a provider missing what it needs, with a bad id or type, or on plain http away from loopback", () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const providers = configuredProviders({
      OIDC_PROVIDERS: "noclient,plain,bad-id,odd,ok",
      OIDC_NOCLIENT_ISSUER: "https://idp.example",
      OIDC_PLAIN_ISSUER: "http://idp.example",
      OIDC_PLAIN_CLIENT_ID: "x",
      OIDC_ODD_TYPE: "saml",
      OIDC_ODD_ISSUER: "https://idp.example",
      OIDC_ODD_CLIENT_ID: "x",
      OIDC_OK_ISSUER: "https://idp.example",
      OIDC_OK_CLIENT_ID: "x",
    } as { OIDC_PROVIDERS: string });
    expect(providers.map((p) => p.id)).toEqual(["ok"]);
    expect(warn).toHaveBeenCalledTimes(4);
    warn.mockRestore();
    expect(configuredProviders({})).toEqual([]);
  });
});

describe("usernames for a first sign-in", () => {
  it("keeps a–z, 0–9, _ and -, drops accents, and has 3–32 characters", () => {
    expect(usernameBase("Jöhn.Doe")).toBe("john_doe");
    expect(usernameBase("  -Ünïcödé- ")).toBe("unicode");
    expect(usernameBase("李")).toBe("user");
    expect(usernameBase("ab")).toBe("user");
    expect(usernameBase(undefined)).toBe("user");
    expect(usernameBase("a".repeat(40))).toHaveLength(32);
  });

  it("tries the base, then numbers, then random suffixes, all valid usernames", () => {
    const candidates = usernameCandidates("x".repeat(40), () => "r4nd0m");
    expect(candidates[0]).toBe("x".repeat(32));
    expect(candidates[1]).toBe(`${"x".repeat(30)}_2`);
    expect(candidates.at(-1)).toBe(`${"x".repeat(25)}_r4nd0m`);
    for (const name of candidates) expect(name).toMatch(/^[a-z0-9_-]{3,32}$/);
  });
});

describe("identities from what the provider says", () => {
  it("an ID token's claims: the subject, a label, a username hint", () => {
    expect(identityFromClaims({ sub: "1", email: "ann@example.com", name: "Ann" })).toEqual({
      subject: "1",
      label: "ann@example.com",
      usernameHint: "ann",
    });
    expect(identityFromClaims({ sub: "2", preferred_username: "bob", name: "Bob" }).usernameHint).toBe("bob");
    expect(() => identityFromClaims({ email: "no-subject@example.com" })).toThrow();
  });
});

describe("GitHub's OAuth flow", () => {
  const github = {
    id: "github",
    type: "github" as const,
    name: "GitHub",
    issuer: "https://github.com",
    clientId: "gh-id",
    clientSecret: "gh-secret",
    scopes: "read:user",
  };
  const flow = { state: "state-123", nonce: "nonce-123", verifier: "v".repeat(43) };
  const redirectUri = "https://oracle.example/api/auth/oidc/github/callback";

  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  it("sends the browser to GitHub's authorize page with PKCE and the state, and no nonce", async () => {
    const url = await authorizationUrl(github, await authorizationServer(github), redirectUri, flow);
    expect(url.origin + url.pathname).toBe("https://github.com/login/oauth/authorize");
    expect(Object.fromEntries(url.searchParams)).toEqual({
      response_type: "code",
      client_id: "gh-id",
      redirect_uri: redirectUri,
      scope: "read:user",
      state: "state-123",
      code_challenge: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      code_challenge_method: "S256",
    });
  });

  it("exchanges the code with the secret in the body, then reads the user: the numeric id is the subject", async () => {
    const seen: Request[] = [];
    vi.stubGlobal("fetch", async (input: RequestInfo | URL, init?: RequestInit) => {
      const request = new Request(input, init);
      seen.push(request.clone());
      if (request.url === "https://github.com/login/oauth/access_token")
        return Response.json({ access_token: "gho_token", token_type: "bearer", scope: "read:user" });
      if (request.url === GITHUB_USER_URL) return Response.json({ id: 4242, login: "octo-cat", email: null });
      return new Response("unexpected", { status: 500 });
    });
    const callback = new URL(`${redirectUri}?code=the-code&state=state-123`);
    const identity = await finishAuthorization(github, callback, redirectUri, flow);
    expect(identity).toEqual({ subject: "4242", label: "octo-cat", usernameHint: "octo-cat" });

    const [token, user] = seen;
    expect(token?.method).toBe("POST");
    expect(Object.fromEntries(new URLSearchParams(await token?.text()))).toEqual({
      grant_type: "authorization_code",
      code: "the-code",
      redirect_uri: redirectUri,
      code_verifier: flow.verifier,
      client_id: "gh-id",
      client_secret: "gh-secret",
    });
    expect(token?.headers.get("accept")).toBe("application/json");
    expect(user?.headers.get("authorization")).toBe("Bearer gho_token");
    expect(user?.headers.get("user-agent")).toBe("Oracle");
    expect(identityFromGitHubUser({ id: 1, login: "a", email: "a@example.com" }).label).toBe("a@example.com");
  });

  it("refuses a callback whose state is not the flow's, and GitHub's error answer, without signing anyone in", async () => {
    const wrongState = new URL(`${redirectUri}?code=c&state=another`);
    await expect(finishAuthorization(github, wrongState, redirectUri, flow)).rejects.toMatchObject({
      code: "oidc_failed",
    });
    vi.stubGlobal("fetch", async () => Response.json({ error: "bad_verification_code" }));
    vi.spyOn(console, "warn").mockImplementation(() => {});
    const callback = new URL(`${redirectUri}?code=old&state=state-123`);
    await expect(finishAuthorization(github, callback, redirectUri, flow)).rejects.toMatchObject({
      code: "oidc_failed",
    });
  });
});
