// The admin page as an operator uses it (docs/protocol.md "Administration"), at 1280 and 390 px on the
// shared demo app, whose ADMINS lists e2e_admin: a user who is not an admin sees no link and a 404 at
// /admin; the admin finds a user, sets their quota, disables them (their session ends at once), makes an
// invite link, sees usage as a chart and every one of those actions in the audit log.
import { describe, expect, it } from "vitest";
import { asAdmin, E2E_ADMIN, signUp } from "./api-client.ts";
import { asNewUser, DESKTOP_AND_PHONE, logInInBrowser, useSharedApp, viewportOptions, withPage } from "./harness.ts";

const live = useSharedApp();
const ADMIN_PASSWORD = "long enough password";

describe.each(DESKTOP_AND_PHONE)("the admin page at $name", (viewport) => {
  it("is a 404 with no link for anyone but an admin", async () => {
    await asNewUser(live, `admin-hidden-${viewport.name}`, viewportOptions(viewport), async (page) => {
      expect(await page.locator("[data-testid=admin-link], [data-testid=drawer-admin-link]").count()).toBe(0);
      const response = await page.goto("/admin");
      expect(response?.status()).toBe(404);
      await page.locator("[data-testid=page-not-found]").waitFor();
      expect(await page.locator("[data-testid=admin-page]").count()).toBe(0);
    });
  });

  it("finds a user, sets their quota, disables them at once, makes an invite, shows usage and the audit log", async () => {
    await asAdmin(live.app.url);
    const target = await signUp(live.app.url, `target_${viewport.name}_${Date.now().toString(36)}`);
    const targetName = (
      (await (await fetch(`${live.app.url}/api/me`, { headers: target.headers })).json()) as {
        user: { username: string };
      }
    ).user.username;
    await withPage(live, `admin-${viewport.name}`, viewportOptions(viewport), async (page) => {
      await logInInBrowser(page, E2E_ADMIN, ADMIN_PASSWORD);
      // The admin is offered the page (the header's link, or the drawer's on a phone).
      expect(await page.locator("[data-testid=admin-link], [data-testid=drawer-admin-link]").count()).toBeGreaterThan(
        0,
      );
      const response = await page.goto("/admin");
      expect(response?.status()).toBe(200);
      await page.locator("[data-testid=admin-page]").waitFor();
      // Users: found by part of the name.
      await page.locator("[data-testid=admin-user-search]").fill(targetName.slice(0, -2));
      const row = page.locator(`[data-testid=admin-user-row][data-username="${targetName}"]`);
      await row.waitFor();
      // The search is sent once typing pauses: the unfiltered first page comes before it.
      await expect.poll(() => page.locator("[data-testid=admin-user-row]").count()).toBe(1);
      // A quota for this user.
      await row.locator("[data-testid=admin-quota]").click();
      await row.locator("[data-testid=admin-quota-daily_tokens]").fill("1234");
      await row.locator("[data-testid=admin-quota-save]").click();
      await expect
        .poll(() => row.locator("[data-testid=admin-user-quota]").textContent())
        .toMatch(/1,234 tokens a day/);
      // Disabled: signed out everywhere before the page says so.
      await row.locator("[data-testid=admin-disable]").click();
      await row.locator("[data-testid=admin-disable-confirm]").click();
      await expect.poll(() => row.locator("[data-testid=admin-user-status-badge]").textContent()).toBe("disabled");
      expect((await fetch(`${live.app.url}/api/me`, { headers: target.headers })).status).toBe(401);
      // An invite link, shown in full once.
      await page.locator("[data-testid=admin-tab-invites]").click();
      await page.locator("[data-testid=admin-invite-note]").fill(`for ${targetName}`);
      await page.locator("[data-testid=admin-invite-create]").click();
      const url = page.locator("[data-testid=admin-invite-url]");
      await url.waitFor();
      expect(await url.inputValue()).toMatch(new RegExp(`^${live.app.url}/signup\\?invite=oi_`));
      // Usage across users: the chart, or the words for none.
      await page.locator("[data-testid=admin-tab-usage]").click();
      await page.locator("[data-testid=admin-usage]").waitFor();
      // The audit log names each action, by whom and on whom.
      await page.locator("[data-testid=admin-tab-audit]").click();
      const entries = page.locator("[data-testid=admin-audit-entry]");
      await entries.first().waitFor();
      const text = (await entries.allTextContents()).join("\n");
      expect(text).toContain(`${E2E_ADMIN} disabled ${targetName}`);
      expect(text).toContain(`${E2E_ADMIN} set the quota of ${targetName} (daily tokens 1234)`);
      expect(text).toContain(`${E2E_ADMIN} made an invite link for “for ${targetName}”`);
      const overflow = await page.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      );
      expect(overflow).toBeLessThanOrEqual(0);
    });
  });
});
