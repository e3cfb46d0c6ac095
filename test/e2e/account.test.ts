// Settings → Account as a user meets it (docs/protocol.md "Sessions and password"), at 1280 and 390 px on
// the shared demo app, with two browsers signed in as one user:
// - a new password, confirmed by the current one, signs the other browser out at once: its open
//   conversation's socket closes and it shows the sign-in page without a reload; this browser stays;
// - "Where you're signed in" lists both, marks this one, and "Sign out everywhere else" ends the other;
// - a forgotten password: an admin's reset link (the admin page) sets a new one once and signs in.
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { asAdmin, E2E_ADMIN } from "./api-client.ts";
import {
  DESKTOP_AND_PHONE,
  E2E_PASSWORD,
  logInInBrowser,
  newConversationInBrowser,
  signUpInBrowser,
  useSharedApp,
  viewportOptions,
  withPage,
} from "./harness.ts";

const live = useSharedApp();

/** Signed out by the server while open: the app falls back to the sign-in page by itself. */
async function shownSignedOut(page: Page) {
  await page.locator("[data-testid=auth-form]").waitFor({ timeout: 10_000 });
  expect(page.url()).toContain("/login");
}

/** A second browser signed in as `username`, with a conversation open (its socket connected). */
async function otherBrowser(
  username: string,
  viewport: (typeof DESKTOP_AND_PHONE)[number],
  run: (page: Page) => Promise<void>,
) {
  await withPage(live, `account-other-${viewport.name}`, viewportOptions(viewport), async (page) => {
    await logInInBrowser(page, username);
    await newConversationInBrowser(page);
    await run(page);
  });
}

describe.each(DESKTOP_AND_PHONE)("Settings → Account at $name", (viewport) => {
  it("a new password signs the other browser out at once, socket and all, and keeps this one", async () => {
    await withPage(live, `account-password-${viewport.name}`, viewportOptions(viewport), async (page) => {
      const username = await signUpInBrowser(page);
      await otherBrowser(username, viewport, async (other) => {
        await page.goto("/settings/account");
        await page.locator("[data-testid=password-current]").fill("not my password");
        await page.locator("[data-testid=password-new]").fill("a much better secret");
        await page.locator("[data-testid=password-new-again]").fill("a much better secret");
        await page.locator("[data-testid=password-submit]").click();
        await expect
          .poll(() => page.locator("[data-testid=password-problem]").textContent())
          .toContain("not your current password");
        // The wrong password changed nothing: the other browser is still in.
        expect(await other.locator("[data-testid=shell]").count()).toBe(1);

        await page.locator("[data-testid=password-current]").fill(E2E_PASSWORD);
        await page.locator("[data-testid=password-submit]").click();
        await expect
          .poll(() => page.locator("[data-testid=password-done]").textContent())
          .toContain("1 other session was signed out");
        await shownSignedOut(other);
        // This browser is still signed in, on the new password's account.
        await page.reload();
        await page.locator("[data-testid=account-password]").waitFor();
      });
      // The new password signs in; the old one does not.
      const old = await fetch(`${live.app.url}/api/auth/login`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ username, password: E2E_PASSWORD }),
      });
      expect(old.status).toBe(401);
    });
  });

  it("lists where the user is signed in and signs out everywhere else", async () => {
    await withPage(live, `account-sessions-${viewport.name}`, viewportOptions(viewport), async (page) => {
      const username = await signUpInBrowser(page);
      await otherBrowser(username, viewport, async (other) => {
        await page.goto("/settings/account");
        const rows = page.locator("[data-testid=session]");
        await rows.nth(1).waitFor({ timeout: 15_000 });
        expect(await rows.count()).toBe(2);
        const mine = page.locator("[data-testid=session][data-current=true]");
        expect(await mine.textContent()).toContain("This browser");
        expect(await mine.locator("[data-testid=session-sign-out]").count()).toBe(0);
        expect(await rows.first().textContent()).toMatch(/Chrome on Linux/);
        await page.locator("[data-testid=sessions-sign-out-others]").click();
        await shownSignedOut(other);
        await expect.poll(() => rows.count()).toBe(1);
        const overflow = await page.evaluate(
          () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
        );
        expect(overflow).toBeLessThanOrEqual(0);
      });
    });
  });
});

describe("a forgotten password", () => {
  it("the sign-in page says what applies, and an admin's reset link sets a new password once", async () => {
    await asAdmin(live.app.url);
    const desktop = DESKTOP_AND_PHONE[0];
    let username = "";
    await withPage(live, "account-forgetful", viewportOptions(desktop), async (page) => {
      username = await signUpInBrowser(page);
    });
    await withPage(live, "account-reset-admin", viewportOptions(desktop), async (page) => {
      await logInInBrowser(page, E2E_ADMIN, "long enough password");
      await page.goto("/admin");
      await page.locator("[data-testid=admin-user-search]").fill(username);
      const row = page.locator(`[data-testid=admin-user-row][data-username="${username}"]`);
      await row.waitFor();
      await row.locator("[data-testid=admin-reset-link]").click();
      const link = await row.locator("[data-testid=admin-reset-url]").inputValue();
      expect(link).toMatch(new RegExp(`^${live.app.url}/reset\\?token=or_`));

      await withPage(live, "account-reset-user", viewportOptions(DESKTOP_AND_PHONE[1]), async (user) => {
        await user.goto("/login");
        await user.locator("[data-testid=forgot-password] summary").click();
        expect(await user.locator("[data-testid=forgot-password]").textContent()).toContain("reset link");
        await user.goto(link);
        await user.locator("[data-testid=reset-password]").fill("remembered this time");
        await user.locator("[data-testid=reset-password-again]").fill("remembered this time");
        await user.locator("[data-testid=reset-submit]").click();
        await user.locator(`[data-testid=shell][data-user="${username}"]`).waitFor();
        // The link worked once.
        await user.goto(link);
        await user.locator("[data-testid=reset-password]").fill("a stranger's password");
        await user.locator("[data-testid=reset-password-again]").fill("a stranger's password");
        await user.locator("[data-testid=reset-submit]").click();
        await expect
          .poll(() => user.locator("[data-testid=reset-error]").textContent())
          .toContain("does not work any more");
      });
    });
  });
});
