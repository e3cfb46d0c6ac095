// Keyboard and focus, and a few small faults (issue 26), at 1280×800 and 390×844 (a phone with touch;
// the toast also at 360 px, layout.test.ts holds the rest of 360): Esc in the edit box gives the focus back to that message's Edit; deleting a task never leaves
// the focus on another row's Delete; the phone drawer keeps Tab inside itself and Esc closes it back to
// the menu button; Ctrl+Shift+O opens a new chat (home) and Ctrl+K puts the cursor in search (listed under
// Settings → Help); a taken username is said once; the delete toast leaves the composer's Send
// uncovered; a question's deadline reads in words. One user per viewport, on the shared demo app.
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  apiFromPage,
  E2E_PASSWORD,
  leaveEvidence,
  newConversationInBrowser,
  type PageOptions,
  sendChat,
  signUpInBrowser,
  useSharedApp,
  waitTurnEnded,
} from "./harness.ts";

const live = useSharedApp();

const VIEWPORTS: { name: string; phone: boolean; options: PageOptions }[] = [
  { name: "desktop", phone: false, options: { viewport: { width: 1280, height: 800 } } },
  {
    name: "phone",
    phone: true,
    options: { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true },
  },
];

const focused = (page: Page) =>
  page.evaluate(() => {
    const el = document.activeElement;
    return { testid: el?.getAttribute("data-testid") ?? "", tag: el?.tagName ?? "", text: el?.textContent ?? "" };
  });

const inDrawer = (page: Page) => page.evaluate(() => !!document.activeElement?.closest("[data-testid=drawer]"));

type Box = { x: number; y: number; width: number; height: number };
const overlaps = (a: Box, b: Box) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

/** Opens the phone drawer (a no-op on a wide screen, where the sidebar is a column). */
async function openDrawer(page: Page, phone: boolean) {
  if (!phone) return;
  const menu = page.locator("[data-testid=menu-button]");
  if ((await menu.getAttribute("aria-expanded")) !== "true") await menu.click();
  await page.locator("[data-testid=drawer][data-open=true]").waitFor();
}

for (const { name, phone, options } of VIEWPORTS) {
  describe(name, () => {
    let context: BrowserContext;
    let page: Page;
    let username = "";
    let chatId = "";
    const pageErrors: string[] = [];

    beforeAll(async () => {
      const browser: Browser = live.browser;
      context = await browser.newContext({ ...options, baseURL: live.app.url });
      page = await context.newPage();
      page.on("pageerror", (e) => pageErrors.push(String(e)));
      username = await signUpInBrowser(page);
      chatId = await newConversationInBrowser(page);
      await sendChat(page, "hello there");
      await page.locator("[data-role=agent][data-phase=final]").first().waitFor({ timeout: 30_000 });
      await waitTurnEnded(page, chatId);
    });

    afterAll(async () => {
      expect(pageErrors).toEqual([]);
      await context?.close();
    });

    /** Runs one check on the viewport's page, leaving a screenshot when it fails. */
    const check = (title: string, run: () => Promise<void>) =>
      it(title, async () => {
        try {
          await run();
        } catch (error) {
          await leaveEvidence(page, live.app, `keyboard-${name}-${title.split(" ")[0]}`, pageErrors);
          throw error;
        }
      });

    check("Esc in the edit box gives the focus back to the message's Edit button", async () => {
      await page.goto(`/c/${chatId}`);
      const edit = page.locator("[data-testid=edit-message]");
      await edit.click();
      const editor = page.locator("[data-testid=edit-input]");
      await expect.poll(async () => (await focused(page)).testid).toBe("edit-input");
      await editor.press("Escape");
      await editor.waitFor({ state: "detached" });
      await expect.poll(async () => (await focused(page)).testid).toBe("edit-message");
    });

    check("a question's deadline reads in words, not as '(299 s left)'", async () => {
      await page.goto(`/c/${chatId}`);
      await sendChat(page, "ask me a question");
      const deadline = page.locator("[data-testid=request-input-deadline]");
      await deadline.waitFor({ timeout: 15_000 });
      const text = (await deadline.textContent()) ?? "";
      expect(text).not.toMatch(/\d+\s*s left\)/);
      expect(text).toMatch(/\b((about )?\d+ minutes|about a minute|\d+ seconds?) left\b/);
      await page.locator("[data-testid=request-input-answer]").fill("Ada");
      await page.locator("[data-testid=request-input-send]").click();
      await deadline.waitFor({ state: "detached", timeout: 15_000 });
      await waitTurnEnded(page, chatId);
    });

    check("the delete toast leaves the composer's Send button uncovered", async () => {
      // Another conversation to delete, while this chat stays open with its composer.
      const other = await apiFromPage<{ id: string }>(page, "POST", "/api/conversations", {});
      expect(other.status).toBe(201);
      await page.goto(`/c/${chatId}`);
      await openDrawer(page, phone);
      const row = page.locator(`[data-testid=conversation-item][data-id=${JSON.stringify(other.body.id)}]`);
      await row.locator("[data-testid=delete-conversation]").click();
      await row.waitFor({ state: "detached" });
      if (phone) {
        await page.keyboard.press("Escape");
        await page.locator("[data-testid=drawer][data-open=false]").waitFor();
      }
      const toast = page.locator("[data-testid=delete-toast]");
      await toast.waitFor();
      // Send, or Stop in its place while a turn runs.
      const send = page.locator("#main :is([data-testid=send], [data-testid=stop])");
      const input = page.locator("#main [data-testid=composer-input]");
      // A phone's also at 360×740, the narrowest (the same page narrowed: a context of its own at 360 px
      // cost a whole run of this file).
      for (const size of phone ? [undefined, { width: 360, height: 740 }] : [undefined]) {
        if (size) await page.setViewportSize(size);
        const toastBox = await toast.boundingBox();
        const sendBox = await send.boundingBox();
        const inputBox = await input.boundingBox();
        expect(toastBox && sendBox && inputBox).toBeTruthy();
        if (!toastBox || !sendBox || !inputBox) return;
        expect(overlaps(toastBox, sendBox), JSON.stringify({ size, toastBox, sendBox })).toBe(false);
        expect(overlaps(toastBox, inputBox), JSON.stringify({ size, toastBox, inputBox })).toBe(false);
      }
      if (phone && options.viewport) await page.setViewportSize(options.viewport);
      await page.locator("[data-testid=undo-delete]").click(); // leave the list as it was
      await row.waitFor({ state: "attached" });
    });

    check("Ctrl+Shift+O opens a new chat and Ctrl+K puts the cursor in search; Help lists them", async () => {
      await page.goto(`/c/${chatId}`);
      await page.locator("#main [data-testid=composer-input]").waitFor();
      await page.keyboard.press("Control+Shift+O");
      // A new chat starts at home (its first message makes the conversation). The app moves by
      // pushState: poll the address rather than wait for a navigation event.
      await expect.poll(() => new URL(page.url()).pathname, { timeout: 15_000 }).toBe("/");
      await page.locator("#main [data-testid=home]").waitFor({ timeout: 15_000 });
      await expect.poll(async () => (await focused(page)).testid).toBe("composer-input");

      // From the composer (typing), the modifier shortcut still works.
      await page.keyboard.press("Control+K");
      await expect.poll(async () => (await focused(page)).testid).toBe("search-input");
      // From a page without the sidebar, too.
      await page.goto("/tasks");
      await page.locator("[data-testid=tasks-page]").waitFor();
      await page.keyboard.press("Control+K");
      await expect.poll(async () => (await focused(page)).testid).toBe("search-input");

      await page.goto("/settings/help");
      const list = page.locator("[data-testid=shortcuts]");
      await list.waitFor();
      const text = (await list.textContent()) ?? "";
      expect(text).toMatch(/New chat/i);
      expect(text).toMatch(/Search/i);
      expect(text).toContain("K");
      expect(text).toContain("O");
    });

    check("deleting a task puts the focus on the next task, never on a Delete button", async () => {
      await page.goto("/tasks");
      const input = page.locator("[data-testid=task-input]");
      for (const title of ["First task", "Second task", "Third task"]) {
        await input.fill(title);
        await input.press("Enter");
        await page.locator("[data-testid=task-title]", { hasText: title }).waitFor();
      }
      // Newest first: Third, Second, First. Delete the middle one from the keyboard.
      const task = (title: string) => page.locator("[data-testid=task-item]", { hasText: title });
      await task("Second task").locator("[data-testid=task-delete]").focus();
      await page.keyboard.press("Enter");
      await task("Second task").waitFor({ state: "detached" });
      const onToggleOf = (title: string) =>
        task(title)
          .locator("[data-testid=task-toggle]")
          .evaluate((el) => el === document.activeElement);
      await expect.poll(() => onToggleOf("First task")).toBe(true);
      expect((await focused(page)).testid).not.toBe("task-delete");
      // Undo brings it back and the focus with it (not lost to the page when the Undo button goes).
      await page.locator("[data-testid=task-undo]").click();
      await task("Second task").waitFor();
      await expect.poll(() => onToggleOf("Second task")).toBe(true);
    });

    if (phone) {
      check("the open drawer keeps Tab inside it, and Esc closes it back to the menu button", async () => {
        await page.goto(`/c/${chatId}`);
        await page.locator("#main [data-testid=composer-input]").waitFor();
        await openDrawer(page, true);
        await expect.poll(() => inDrawer(page)).toBe(true);
        const count = await page
          .locator("[data-testid=drawer]")
          .evaluate((d) => d.querySelectorAll("a[href], button:not(:disabled), input").length);
        for (let i = 0; i < count + 2; i++) {
          await page.keyboard.press("Tab");
          expect(await inDrawer(page), `Tab ${i + 1}`).toBe(true);
        }
        for (let i = 0; i < 3; i++) {
          await page.keyboard.press("Shift+Tab");
          expect(await inDrawer(page), `Shift+Tab ${i + 1}`).toBe(true);
        }
        await page.keyboard.press("Escape");
        await page.locator("[data-testid=drawer][data-open=false]").waitFor();
        await expect.poll(async () => (await focused(page)).testid).toBe("menu-button");
      });
    }

    check("a taken username is said once on the sign-up form", async () => {
      const visitor = await live.browser.newContext({ ...options, baseURL: live.app.url });
      try {
        const signup = await visitor.newPage();
        await signup.goto("/signup");
        await signup.locator("[data-testid=auth-username]").fill(username);
        await signup.locator("[data-testid=auth-password]").fill(E2E_PASSWORD);
        await signup.locator("[data-testid=auth-submit]").click();
        const form = signup.locator("form");
        await expect.poll(async () => (await form.textContent()) ?? "", { timeout: 10_000 }).toMatch(/taken/i);
        const said = ((await form.textContent()) ?? "").match(/taken/gi) ?? [];
        expect(said.length).toBe(1);
        // The field says it, and the field is marked so: a screen reader hears it there.
        const field = signup.locator("[data-testid=auth-username]");
        expect(await field.getAttribute("aria-invalid")).toBe("true");
      } finally {
        await visitor.close();
      }
    });
  });
}
