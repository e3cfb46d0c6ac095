// Share links (issue 27), at 1280×800 and 390×844 (a phone with touch; layout.test.ts holds 360 px): the owner makes two
// links from the conversation's ⋯ menu (with and without System messages); a browser with no cookies
// opens them and sees exactly the snapshot (a message sent after the link is absent, the System
// message only where included, nothing of the owner, no way to write, noindex); that visitor's
// "Continue in your account" goes through sign-up and back and opens a new conversation of theirs
// holding the copied messages; they cannot share the owner's conversation (404); the owner revokes a
// link in Settings → Shared links and it answers 404 at once, the page saying so. Fake OpenAI model.
import type { Page } from "playwright-core";
import { expect, it } from "vitest";
import { marker, scriptModel } from "../support/fake-openai-client";
import {
  apiFromPage,
  asNewUser,
  DESKTOP_AND_PHONE,
  E2E_PASSWORD,
  newConversationInBrowser,
  type PageOptions,
  sendChat,
  uniqueUsername,
  useSharedFakeModelApp,
  waitTurnEnded,
  withPage,
} from "./harness.ts";

const live = useSharedFakeModelApp();

type Share = { id: string; url: string; title: string; include_system: boolean };

const finals = (page: Page) => page.locator("[data-role=agent][data-phase=final]");
const focusedTestId = (page: Page) => page.evaluate(() => document.activeElement?.getAttribute("data-testid") ?? "");

/** Sends `text` and waits for the turn's answer and its end. */
async function ask(page: Page, id: string, text: string): Promise<void> {
  const before = await finals(page).count();
  await sendChat(page, text);
  await finals(page).nth(before).waitFor({ timeout: 30_000 });
  await waitTurnEnded(page, id);
}

/** Share… from the ⋯ menu, the System box as asked, Create link: the new link's address. */
async function createLink(page: Page, includeSystem: boolean): Promise<string> {
  const dialog = page.locator("[data-testid=share-dialog]");
  if (!(await dialog.isVisible())) {
    await page.locator("[data-testid=conversation-menu-button]").click();
    await page.locator("[data-testid=share-conversation]").click();
    await dialog.waitFor({ timeout: 5_000 });
  }
  await page.locator("[data-testid=share-include-system]").setChecked(includeSystem);
  const before = await page.locator("[data-testid=share-dialog] [data-testid=share-row]").count();
  await page.locator("[data-testid=share-create]").click();
  await page.locator("[data-testid=share-dialog] [data-testid=share-row]").nth(before).waitFor({ timeout: 10_000 });
  return page.locator("[data-testid=share-link]").inputValue();
}

/** The text of every message the page shows, by role. */
async function shown(page: Page): Promise<{ role: string; text: string }[]> {
  return page
    .locator("[data-testid=message-list] [data-role]")
    .evaluateAll((els) => els.map((el) => ({ role: el.getAttribute("data-role") ?? "", text: el.textContent ?? "" })));
}

async function signUpFromLoginPage(page: Page): Promise<string> {
  const username = uniqueUsername("fork");
  await page.locator("a", { hasText: "Create an account" }).click();
  await page.waitForURL((url) => url.pathname === "/signup");
  await page.locator("[data-testid=auth-username]").fill(username);
  await page.locator("[data-testid=auth-password]").fill(E2E_PASSWORD);
  await page.locator("[data-testid=auth-submit]").click();
  return username;
}

for (const viewport of DESKTOP_AND_PHONE) {
  const options: PageOptions = {
    viewport: { width: viewport.width, height: viewport.height },
    ...(viewport.phone ? { isMobile: true, hasTouch: true } : {}),
  };
  const fits = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);

  it(`shares a snapshot, forks it, refuses a stranger and revokes (${viewport.name})`, async () => {
    await asNewUser(live, `share-${viewport.width}`, options, async (owner, ownerName) => {
      const id = await newConversationInBrowser(owner);
      const key = `share-${viewport.width}-${Date.now().toString(36)}`;
      await scriptModel(live.llm.url, key, [{ text: "The first answer." }, { text: "The later answer." }]);
      await ask(owner, id, `The first question ${marker(key)}`);
      const notified = await apiFromPage(owner, "POST", `/api/conversations/${id}/notify`, {
        message: "Backup finished",
      });
      expect(notified.status).toBe(202);
      await owner.locator("[data-role=system]").waitFor({ timeout: 10_000 });

      // Two links from the menu's dialog: with System messages, then without. Both listed under it.
      const withSystem = await createLink(owner, true);
      expect(await owner.locator("[data-testid=share-note]").textContent()).toContain("later messages are not shown");
      const withoutSystem = await createLink(owner, false);
      expect(withSystem).toMatch(new RegExp(`^${live.app.url}/s/\\d+\\.[A-Za-z0-9_-]{24}$`));
      expect(withoutSystem).not.toBe(withSystem);
      expect(await owner.locator("[data-testid=share-dialog] [data-testid=share-row]").count()).toBe(2);
      expect(await fits(owner)).toBe(true);
      // Tab and Shift+Tab stay inside the dialog.
      const inDialog = () => owner.evaluate(() => !!document.activeElement?.closest("[data-testid=share-dialog]"));
      for (const key of ["Tab", "Shift+Tab"])
        for (let i = 0; i < 12; i++) {
          await owner.keyboard.press(key);
          expect(await inDialog(), `${key} ×${i + 1}`).toBe(true);
        }
      // Esc closes the dialog and gives the focus back to the ⋯ button.
      await owner.keyboard.press("Escape");
      await owner.locator("[data-testid=share-dialog]").waitFor({ state: "detached", timeout: 5_000 });
      expect(await focusedTestId(owner)).toBe("conversation-menu-button");
      const shares = (await apiFromPage<{ shares: Share[] }>(owner, "GET", "/api/shares")).body.shares;

      // A message after the links: not in the snapshot.
      await ask(owner, id, `The later question ${marker(key)}`);

      // A browser with no cookies sees exactly the snapshot; the System message only where included.
      await withPage(live, `share-visitor-${viewport.width}`, options, async (visitor) => {
        await visitor.goto(withSystem);
        await visitor.locator("[data-testid=shared-page][data-status=ready]").waitFor({ timeout: 15_000 });
        expect(await visitor.locator("[data-testid=shared-title]").textContent()).toBe(shares[0]?.title);
        expect(await visitor.locator("[data-testid=shared-meta]").textContent()).toMatch(
          /^Shared conversation · snapshot of /,
        );
        expect((await shown(visitor)).map((m) => m.role)).toEqual(["user", "agent", "system"]);
        const text = (await visitor.locator("body").textContent()) ?? "";
        expect(text).toContain("The first question");
        expect(text).toContain("The first answer.");
        expect(text).toContain("Backup finished");
        expect(text).not.toContain("The later");
        expect(text).not.toContain(ownerName);
        expect(await visitor.locator("meta[name=robots]").getAttribute("content")).toBe("noindex");
        // Read-only: nothing to write with, nothing to resend.
        for (const control of ["composer-input", "regenerate", "edit-message", "retry", "shell"])
          expect(await visitor.locator(`[data-testid=${control}]`).count(), control).toBe(0);
        expect(await fits(visitor)).toBe(true);

        await visitor.goto(withoutSystem);
        await visitor.locator("[data-testid=shared-page][data-status=ready]").waitFor({ timeout: 15_000 });
        expect((await shown(visitor)).map((m) => m.role)).toEqual(["user", "agent"]);

        // Continue in your account: sign up first, then back here, then the new conversation.
        await visitor.locator("[data-testid=shared-fork]").click();
        await visitor.waitForURL((url) => url.pathname === "/login");
        const forker = await signUpFromLoginPage(visitor);
        await visitor.waitForURL((url) => url.pathname.startsWith("/c/"), { timeout: 15_000 });
        const forkId = decodeURIComponent(new URL(visitor.url()).pathname.slice("/c/".length));
        expect(forkId).not.toBe(id);
        await visitor.locator(`[data-testid=shell][data-user=${JSON.stringify(forker)}]`).waitFor();
        await finals(visitor).first().waitFor({ timeout: 15_000 });
        const copied = await apiFromPage<{ messages: { role: string; content?: string }[] }>(
          visitor,
          "GET",
          `/api/conversations/${encodeURIComponent(forkId)}/messages`,
        );
        expect(copied.body.messages.map((m) => m.role)).toEqual(["user", "agent"]);
        expect(copied.body.messages[1]?.content).toBe("The first answer.");

        // Another user cannot share the owner's conversation.
        const stranger = await apiFromPage(visitor, "POST", `/api/conversations/${encodeURIComponent(id)}/shares`, {});
        expect(stranger.status).toBe(404);
      });

      // Settings → Shared links: both links; revoking one (after a confirm) makes it 404 at once.
      await owner.goto("/settings/shares");
      const rows = owner.locator("[data-testid=shared-links-list] [data-testid=share-row]");
      await rows.first().waitFor({ timeout: 15_000 });
      expect(await rows.count()).toBe(2);
      const revokedId = new URL(withSystem).pathname.slice("/s/".length);
      const row = owner.locator(`[data-testid=share-row][data-share-id="${revokedId}"]`);
      expect(await row.locator("[data-testid=share-includes]").textContent()).toBe("With system messages");
      await row.locator("[data-testid=share-revoke]").click();
      await row.locator("[data-testid=share-revoke-confirm]").click();
      await row.waitFor({ state: "detached", timeout: 10_000 });
      expect(await rows.count()).toBe(1);
      expect(await fits(owner)).toBe(true);

      await withPage(live, `share-revoked-${viewport.width}`, options, async (visitor) => {
        expect((await visitor.request.get(`/api/shared/${revokedId}`)).status()).toBe(404);
        expect((await visitor.goto(withSystem))?.status()).toBe(404);
        await visitor.locator("[data-testid=shared-not-found]").waitFor({ timeout: 15_000 });
        expect(await visitor.locator("[data-testid=shared-not-found]").textContent()).toBe(
          "This link doesn't exist or was revoked",
        );
        expect(await visitor.locator("[data-role]").count()).toBe(0);
      });
    });
  }, 90_000);
}
