// Issue 13, arriving: the home page's composer is ready to type in and its example prompts start a
// conversation the offline demo model answers; the tab says where one is; the favicon is an icon; a
// signed-out deep link survives the login (never to another site); the skip link comes first.
import type { Page } from "playwright-core";
import { expect, it } from "vitest";
import {
  asNewUser,
  E2E_PASSWORD,
  newConversationInBrowser,
  signUpInBrowser,
  uniqueUsername,
  useSharedApp,
  waitTurnEnded,
  withPage,
} from "./harness.ts";

const live = useSharedApp();

const PAGE = { viewport: { width: 1280, height: 800 } };

const focusedTestId = (page: Page) =>
  page.evaluate(() => document.activeElement?.getAttribute("data-testid") ?? document.activeElement?.id ?? null);
const conversationIdOf = (page: Page) => decodeURIComponent(new URL(page.url()).pathname.slice("/c/".length));

it("starts a conversation from an example prompt, and the demo model answers it", async () => {
  await asNewUser(live, "home-example", PAGE, async (page) => {
    await page.locator("[data-testid=home]").waitFor();
    expect(await page.title()).toBe("Oracle");
    await expect.poll(() => focusedTestId(page)).toBe("composer-input"); // ready to type

    await page.locator("[data-testid=example-prompt]", { hasText: "What tasks are open?" }).click();
    await page.waitForURL((url) => url.pathname.startsWith("/c/"), { timeout: 15_000 });
    const id = conversationIdOf(page);
    await page.locator("[data-role=user]", { hasText: "What tasks are open?" }).waitFor({ timeout: 15_000 });
    await waitTurnEnded(page, id);
    // The demo model looked at the task list: there are none yet.
    await expect
      .poll(() => page.locator("[data-role=agent][data-phase=final]").last().textContent(), { timeout: 15_000 })
      .toMatch(/no tasks/i);
    // Named by the demo model after its answer (agent/conversation-title.ts demoTitle).
    await expect.poll(() => page.title(), { timeout: 10_000 }).toBe("What tasks are open · Oracle");
    const list = await page.request.get("/api/conversations");
    expect(((await list.json()) as { id: string }[]).map((c) => c.id)).toEqual([id]);
  });
});

it("sends what is typed on the home page into a new conversation", async () => {
  await asNewUser(live, "home-typed", PAGE, async (page) => {
    const input = page.locator("[data-testid=home] [data-testid=composer-input]");
    await input.fill("Add a task: buy oat milk");
    await input.press("Enter");
    await page.waitForURL((url) => url.pathname.startsWith("/c/"), { timeout: 15_000 });
    const id = conversationIdOf(page);
    await page.locator("[data-role=user]", { hasText: "Add a task: buy oat milk" }).waitFor({ timeout: 15_000 });
    await waitTurnEnded(page, id);
    // The demo model created the task.
    await expect
      .poll(async () => JSON.stringify(await (await page.request.get("/api/tasks")).json()), { timeout: 10_000 })
      .toContain("buy oat milk");
    // Sent exactly once.
    await page.waitForTimeout(500);
    expect(await page.locator("[data-role=user]", { hasText: "Add a task: buy oat milk" }).count()).toBe(1);
  });
});

it("gives a first message back, with the reason, when its conversation cannot be created", async () => {
  await asNewUser(live, "home-create-fails", PAGE, async (page) => {
    await page.route("**/api/conversations", (route) =>
      route.request().method() === "POST"
        ? route.fulfill({
            status: 503,
            contentType: "application/json",
            body: JSON.stringify({ error: { code: "internal", message: "Storage is unavailable" } }),
          })
        : route.continue(),
    );
    const input = page.locator("[data-testid=home] [data-testid=composer-input]");
    await input.fill("Plan my week");
    await input.press("Enter");
    const error = page.locator("[data-testid=home-error]");
    await error.waitFor({ timeout: 10_000 });
    expect(await error.textContent()).toContain("Storage is unavailable");
    expect(await page.locator("[data-testid=home] [data-testid=composer-input]").inputValue()).toBe("Plan my week");
    expect(new URL(page.url()).pathname).toBe("/");

    // Once the server accepts it again, the same text starts the conversation.
    await page.unroute("**/api/conversations");
    await page.locator("[data-testid=home] [data-testid=composer-input]").press("Enter");
    await page.waitForURL((url) => url.pathname.startsWith("/c/"), { timeout: 15_000 });
    await page.locator("[data-role=user]", { hasText: "Plan my week" }).waitFor({ timeout: 15_000 });
  });
});

it("names each page in the tab title", async () => {
  await withPage(live, "home-titles", PAGE, async (page) => {
    await page.goto("/login");
    await expect.poll(() => page.title()).toBe("Log in · Oracle");
    await signUpInBrowser(page);
    await expect.poll(() => page.title()).toBe("Oracle");
    for (const [path, title] of [
      ["/notes", "Notes · Oracle"],
      ["/tasks", "Tasks · Oracle"],
      ["/library", "Library · Oracle"],
      ["/settings/agent", "Settings · Oracle"],
      ["/nowhere", "Not found · Oracle"],
    ]) {
      await page.goto(path as string);
      await expect.poll(() => page.title()).toBe(title);
    }
    await newConversationInBrowser(page);
    await expect.poll(() => page.title()).toBe("New conversation · Oracle");
  });
});

it("serves a favicon, not the app's HTML", async () => {
  await withPage(live, "home-favicon", PAGE, async (page) => {
    const ico = await page.request.get("/favicon.ico");
    expect(ico.status()).toBe(200);
    expect(ico.headers()["content-type"]).toMatch(/^image\/(x-icon|vnd\.microsoft\.icon)/);
    expect([...(await ico.body()).subarray(0, 4)]).toEqual([0, 0, 1, 0]); // the ICO header
    expect(ico.headers()["cache-control"]).toContain("max-age=86400"); // client/public/_headers
    const svg = await page.request.get("/favicon.svg");
    expect(svg.status()).toBe(200);
    expect(svg.headers()["content-type"]).toMatch(/^image\/svg\+xml/);
    expect(await svg.text()).toContain("<svg");
    await page.goto("/login");
    const icons = await page.locator("link[rel=icon]").evaluateAll((els) => els.map((e) => e.getAttribute("href")));
    expect(icons).toEqual(expect.arrayContaining(["/favicon.ico", "/favicon.svg"]));
  });
});

it("keeps a deep link through log in and sign up", async () => {
  await asNewUser(live, "home-deep-link", PAGE, async (page, username) => {
    const id = await newConversationInBrowser(page);
    await page.locator("[data-testid=logout]").click();
    await page.waitForURL((url) => url.pathname === "/login");
    expect(new URL(page.url()).search).toBe(""); // a deliberate log out does not come back

    await page.goto(`/c/${id}`);
    await page.waitForURL((url) => url.pathname === "/login");
    expect(new URL(page.url()).searchParams.get("next")).toBe(`/c/${id}`);
    await page.locator("[data-testid=auth-username]").fill(username);
    await page.locator("[data-testid=auth-password]").fill(E2E_PASSWORD);
    await page.locator("[data-testid=auth-submit]").click();
    await page.waitForURL((url) => url.pathname === `/c/${id}`, { timeout: 15_000 });
    await page.locator(`[data-testid=chat][data-conversation-id="${id}"]`).waitFor();

    // Signed out again, a link to a note: on to sign up (the way back goes along), as a new user.
    await page.locator("[data-testid=logout]").click();
    await page.waitForURL((url) => url.pathname === "/login");
    await page.goto("/notes/ideas.md");
    await page.waitForURL((url) => url.pathname === "/login");
    expect(new URL(page.url()).searchParams.get("next")).toBe("/notes/ideas.md");
    await page.getByRole("link", { name: "Create an account" }).click();
    await page.waitForURL((url) => url.pathname === "/signup");
    expect(new URL(page.url()).searchParams.get("next")).toBe("/notes/ideas.md");
    await page.locator("[data-testid=auth-username]").fill(uniqueUsername());
    await page.locator("[data-testid=auth-password]").fill(E2E_PASSWORD);
    await page.locator("[data-testid=auth-submit]").click();
    await page.waitForURL((url) => url.pathname === "/notes/ideas.md", { timeout: 15_000 });
  });
});

it("refuses to follow ?next= anywhere but a path of its own", async () => {
  await asNewUser(live, "home-open-redirect", PAGE, async (page, username) => {
    const origin = new URL(live.app.url).origin;
    for (const next of [
      "//evil.example/steal",
      "https://evil.example/",
      "/\\evil.example",
      "javascript:alert(1)",
      "%2F%2Fevil.example",
    ]) {
      await page.locator("[data-testid=logout]").click();
      await page.waitForURL((url) => url.pathname === "/login");
      await page.goto(`/login?next=${encodeURIComponent(next)}`);
      await page.locator("[data-testid=auth-username]").fill(username);
      await page.locator("[data-testid=auth-password]").fill(E2E_PASSWORD);
      await page.locator("[data-testid=auth-submit]").click();
      await page.locator("[data-testid=home]").waitFor({ timeout: 15_000 });
      const url = new URL(page.url());
      expect({ next, at: `${url.origin}${url.pathname}` }).toEqual({ next, at: `${origin}/` });
    }
  });
});

it("puts a skip link first in the tab order, and it moves focus to the page", async () => {
  await asNewUser(live, "home-skip-link", PAGE, async (page) => {
    await page.goto("/settings/agent");
    await page.locator("[data-testid=tab-agent]").waitFor();
    await page.keyboard.press("Tab");
    await expect.poll(() => focusedTestId(page)).toBe("skip-link");
    const skip = page.locator("[data-testid=skip-link]");
    expect(await skip.textContent()).toBe("Skip to content");
    const box = await skip.boundingBox();
    expect(box && box.y >= 0 && box.height > 0).toBe(true); // shown while focused
    await page.keyboard.press("Enter");
    await expect.poll(() => focusedTestId(page)).toBe("main");
    expect(await page.evaluate(() => document.activeElement?.tagName)).toBe("MAIN");
    await page.keyboard.press("Tab"); // on into the page, past the header
    expect(await page.evaluate(() => Boolean(document.activeElement?.closest("#main")))).toBe(true);

    // In a chat it is "Skip to chat" and lands in the composer; it is the first focusable element.
    await newConversationInBrowser(page);
    expect(await skip.textContent()).toBe("Skip to chat");
    const first = await page.evaluate(() => {
      const focusable = document.querySelectorAll<HTMLElement>(
        "a[href], button:not([disabled]), input, textarea, select, [tabindex]:not([tabindex='-1'])",
      );
      return [...focusable].find((el) => el.offsetParent !== null || el.getClientRects().length > 0)?.dataset.testid;
    });
    expect(first).toBe("skip-link");
    await skip.focus();
    await page.keyboard.press("Enter");
    await expect.poll(() => focusedTestId(page)).toBe("composer-input");
  });
});
