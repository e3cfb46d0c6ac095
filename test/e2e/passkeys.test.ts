// Passkeys in the browser (docs/protocol.md "Passkeys"), with Chromium's virtual authenticator (the
// DevTools protocol's WebAuthn domain: a platform authenticator with resident keys and user
// verification, always present), at 1280 and 390 px:
// - a passkey alone: sign up with only a username and a passkey, log out, sign in with no username
//   typed; in Settings → Account the same device is refused a second passkey in words, another device
//   adds one, which is renamed; one is removed, and removing the last is refused in words;
// - a password account: a passkey prompt with nothing to offer is said quietly (cancelled), then the
//   user adds a passkey in Settings and signs in with it.
// The shared app is reached as http://localhost:<port>: a relying party id must be a domain, and
// Chromium refuses WebAuthn on an IP address such as 127.0.0.1 ("This is an invalid domain").
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { addDevice, webAuthn } from "../support/virtual-authenticator.ts";
import {
  type AppAndBrowser,
  DESKTOP_AND_PHONE,
  signUpInBrowser,
  uniqueUsername,
  useSharedApp,
  viewportOptions,
  withPage,
} from "./harness.ts";

const live = useSharedApp();

/** The shared app by name instead of by address (see the top of the file). */
const byName = (): AppAndBrowser => ({
  browser: live.browser,
  app: { url: live.app.url.replace("//127.0.0.1:", "//localhost:"), output: () => live.app.output() },
});

const signedIn = (page: Page, username: string) =>
  page.locator(`[data-testid=shell][data-user=${JSON.stringify(username)}]`).waitFor({ timeout: 15_000 });

async function logOut(page: Page): Promise<void> {
  await page.goto("/settings/account");
  await page.locator("[data-testid=account-logout]").click();
  await page.waitForURL((url) => url.pathname === "/login", { timeout: 10_000 });
}

/** The page is no wider than the viewport (nothing to scroll sideways on a phone). */
const fitsWidth = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth);

describe.each(DESKTOP_AND_PHONE)("passkeys at $width px", (viewport) => {
  const options = viewportOptions(viewport);

  it("signs up with a passkey alone, back in with no username, adds, renames and removes one, keeps the last", async () => {
    await withPage(byName(), `passkeys-alone-${viewport.name}`, options, async (page) => {
      const cdp = await webAuthn(page);
      const laptop = await addDevice(cdp);
      const username = uniqueUsername("pk");
      await page.goto("/signup");
      await page.locator("[data-testid=auth-username]").fill(username);
      await page.locator("[data-testid=passkey-signup]").click();
      await signedIn(page, username);

      await logOut(page);
      expect(await page.locator("[data-testid=auth-username]").inputValue()).toBe("");
      await page.locator("[data-testid=passkey-signin]").click();
      await signedIn(page, username);

      await page.goto("/settings/account");
      const rows = page.locator("[data-testid=passkey]");
      await expect.poll(() => rows.count(), { timeout: 10_000 }).toBe(1);
      expect(await rows.first().locator("[data-testid=passkey-name]").textContent()).toBe("Chrome on Linux");
      // This device holds a passkey for the account already: said in words, nothing added.
      const said = page.locator("[data-testid=passkey-add-said]");
      await page.locator("[data-testid=passkey-add]").click();
      await expect.poll(() => said.textContent(), { timeout: 10_000 }).toMatch(/already holds a passkey/);
      expect(await rows.count()).toBe(1);

      // Another device adds a second passkey (listed first, newest first), renamed to say which it is.
      await cdp.send("WebAuthn.removeVirtualAuthenticator", { authenticatorId: laptop });
      await addDevice(cdp);
      await page.locator("[data-testid=passkey-add]").click();
      await expect.poll(() => rows.count(), { timeout: 10_000 }).toBe(2);
      await rows.first().locator("[data-testid=passkey-rename]").click();
      await rows.first().locator("[data-testid=passkey-rename-input]").fill("Work phone");
      await rows.first().locator("[data-testid=passkey-rename-save]").click();
      await page.locator("[data-testid=passkey][data-name='Work phone']").waitFor({ timeout: 10_000 });

      // The first one goes; the last one stays, and the page says why.
      await rows.nth(1).locator("[data-testid=passkey-remove]").click();
      await rows.nth(1).locator("[data-testid=passkey-remove-confirm]").click();
      await expect.poll(() => rows.count(), { timeout: 10_000 }).toBe(1);
      await rows.first().locator("[data-testid=passkey-remove]").click();
      await rows.first().locator("[data-testid=passkey-remove-confirm]").click();
      const problem = rows.first().locator("[data-testid=passkey-problem]");
      await expect.poll(() => problem.textContent(), { timeout: 10_000 }).toMatch(/only way into your account/);
      expect(await problem.getAttribute("role")).toBe("alert");
      expect(await rows.count()).toBe(1);
      expect(await fitsWidth(page)).toBe(true);

      // The one kept still signs in.
      await logOut(page);
      await page.locator("[data-testid=passkey-signin]").click();
      await signedIn(page, username);
    });
  });

  it("a password account adds a passkey and signs in with it; a prompt with no passkey is said quietly", async () => {
    await withPage(byName(), `passkeys-password-${viewport.name}`, options, async (page) => {
      const cdp = await webAuthn(page);
      await addDevice(cdp);
      // Nothing on this device for this site yet: the browser's prompt ends as cancelled, said as a status.
      await page.goto("/login");
      await page.locator("[data-testid=passkey-signin]").click();
      const said = page.locator("[data-testid=passkey-said]");
      await expect.poll(() => said.textContent(), { timeout: 15_000 }).toMatch(/No passkey was used/);
      expect(await said.getAttribute("role")).toBe("status");
      expect(await fitsWidth(page)).toBe(true);

      const username = await signUpInBrowser(page);
      await page.goto("/settings/account");
      await page.locator("[data-testid=passkeys-empty]").waitFor({ timeout: 10_000 });
      await page.locator("[data-testid=passkey-add]").click();
      await page.locator("[data-testid=passkey]").waitFor({ timeout: 10_000 });
      await expect.poll(() => page.locator("[data-testid=passkey-add-said]").textContent()).toMatch(/^Added/);

      await logOut(page);
      await page.locator("[data-testid=passkey-signin]").click();
      await signedIn(page, username);
    });
  });
});

it("on 127.0.0.1, where browsers refuse passkeys, says to open the app as localhost", async () => {
  await withPage(live, "passkeys-by-address", viewportOptions(DESKTOP_AND_PHONE[0]), async (page) => {
    await addDevice(await webAuthn(page));
    await page.goto("/login");
    await page.locator("[data-testid=passkey-signin]").click();
    const port = new URL(live.app.url).port;
    await expect
      .poll(() => page.locator("[data-testid=passkey-said]").textContent(), { timeout: 15_000 })
      .toContain(`open the app as http://localhost:${port}`);
  });
});
