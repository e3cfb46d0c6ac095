// Signing in with an identity provider in the browser (docs/protocol.md "Identity providers"), at 1280
// and 390 px, against a real OpenID provider on loopback (test/support/oidc-provider.ts: panva's
// oidc-provider, its own sign-in page filled in by the browser), on an app of the file's own (its
// OIDC_* variables name that provider):
// - a first sign-in with "Continue with <Name>" makes an account and lands where the visitor was going;
//   the provider's callback opened again (replayed) or with its state changed is refused, in words on
//   the sign-in page; signed out and in again, it is the same account; unlinking the provider, its only
//   way in, is refused in words;
// - a password user links the provider in Settings → Account, signs in with it, and unlinks it.
// The checks a real provider never fails (a forged signature, the wrong audience…) are test/workers/oidc.test.ts's.
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startOidcProvider } from "../support/oidc-provider.ts";
import {
  type App,
  apiFromPage,
  asNewUser,
  DESKTOP_AND_PHONE,
  freePort,
  sharedBrowser,
  startApp,
  uniqueUsername,
  viewportOptions,
  withPage,
} from "./harness.ts";

const CLIENT = { id: "oracle-e2e", secret: "e2e-client-secret" };
const NAME = "Test ID";
const shared = {} as { app: App; browser: Browser; closeProvider: () => Promise<void> };

beforeAll(async () => {
  // The app knows the issuer before it starts; the provider learns the app's callback once it has.
  const port = await freePort();
  const env = {
    OIDC_PROVIDERS: "test",
    OIDC_TEST_ISSUER: `http://127.0.0.1:${port}`,
    OIDC_TEST_CLIENT_ID: CLIENT.id,
    OIDC_TEST_CLIENT_SECRET: CLIENT.secret,
    OIDC_TEST_NAME: NAME,
  };
  [shared.app, shared.browser] = await Promise.all([startApp({ direct: true, env }), sharedBrowser()]);
  const redirectUri = `${shared.app.url}/api/auth/oidc/test/callback`;
  const provider = await startOidcProvider({ port, clientId: CLIENT.id, clientSecret: CLIENT.secret, redirectUri });
  shared.closeProvider = provider.close;
}, 120_000);

afterAll(async () => {
  await shared.browser?.close();
  await Promise.all([shared.app?.stop(), shared.closeProvider?.()]);
});

/** Signs in at the provider's own page (any login is an account there). */
async function signInAtProvider(page: Page, login: string): Promise<void> {
  await page.locator("input[name=login]").fill(login);
  await page.locator("input[name=password]").fill("anything");
  await page.locator("button[type=submit]").click();
}

async function signedInAs(page: Page, username: string): Promise<string> {
  await page.locator(`[data-testid=shell][data-user=${JSON.stringify(username)}]`).waitFor({ timeout: 15_000 });
  const me = await apiFromPage<{ user: { id: string } }>(page, "GET", "/api/me");
  return me.body.user.id;
}

async function logOut(page: Page): Promise<void> {
  expect((await apiFromPage(page, "POST", "/api/auth/logout")).status).toBe(204);
}

const button = (page: Page) => page.getByRole("link", { name: `Continue with ${NAME}` });

describe.each(DESKTOP_AND_PHONE)("identity providers at $name", (viewport) => {
  const options = viewportOptions(viewport);

  it("a first sign-in makes an account and lands where the visitor was going; a callback is good once; the provider is then the account's way in", async () => {
    await withPage(shared, `oidc-first-${viewport.name}`, options, async (page) => {
      const login = uniqueUsername("op");
      await page.goto("/settings/account");
      await page.waitForURL(/\/login\?next=/);
      const box = await button(page).boundingBox();
      expect(box && box.x + box.width).toBeLessThanOrEqual(viewport.width);
      let callback = "";
      page.on("request", (r) => {
        if (r.url().includes("/api/auth/oidc/test/callback")) callback = r.url();
      });
      await button(page).click();
      await signInAtProvider(page, login);
      const id = await signedInAs(page, login);
      await page.waitForURL(/\/settings\/account$/);

      // The provider's answer again, after signing out: spent. Its state altered: refused too.
      await logOut(page);
      const refusal = page.locator("[data-testid=auth-error]");
      await page.goto(callback);
      await expect.poll(() => page.url()).toContain("/login?error=oidc_state");
      await expect.poll(() => refusal.textContent()).toMatch(/expired or was already used/);
      const tampered = new URL(callback);
      tampered.searchParams.set("state", `${tampered.searchParams.get("state")}0`);
      await page.goto(tampered.toString());
      await expect.poll(() => refusal.textContent()).toMatch(/expired or was already used/);

      // Signed out and in again (the provider remembers its own session): the same account.
      await button(page).click();
      expect(await signedInAs(page, login)).toBe(id);

      // The provider is this account's only way in: unlinking it is refused, in words.
      await page.goto("/settings/account");
      const row = page.locator("[data-testid=linked-provider][data-provider=test]");
      await expect.poll(() => row.textContent()).toContain(`${login}@example.test`);
      await row.locator("[data-testid=provider-unlink]").click();
      await expect
        .poll(() => row.locator("[data-testid=provider-unlink-problem]").textContent())
        .toMatch(/only way to sign in/);
      await page.reload();
      await row.waitFor();
    });
  });

  it("a password user links the provider in Settings → Account, signs in with it, and unlinks it", async () => {
    await asNewUser(shared, `oidc-link-${viewport.name}`, options, async (page, username) => {
      await page.goto("/settings/account");
      await page.getByRole("link", { name: `Link ${NAME}` }).click();
      await signInAtProvider(page, uniqueUsername("op"));
      await page.waitForURL(/\/settings\/account$/);
      await expect
        .poll(() => page.locator("[data-testid=linked-providers-said]").textContent())
        .toContain(`Linked ${NAME}`);
      const row = page.locator("[data-testid=linked-provider][data-provider=test]");
      await row.waitFor();

      await logOut(page);
      await page.goto("/login");
      await button(page).click();
      await signedInAs(page, username);

      await page.goto("/settings/account");
      await row.locator("[data-testid=provider-unlink]").click();
      await row.waitFor({ state: "detached" });
      await page.getByRole("link", { name: `Link ${NAME}` }).waitFor();
    });
  });
});
