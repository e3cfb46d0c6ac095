// Issue 41, starting and finding a chat, at 1280×800 and on a 390×844 phone, on the shared demo app:
// "New conversation" and Ctrl/⌘+Shift+O go home (its examples), and the first message makes the
// conversation, so no empty row appears (4); titles are distinct and meaningful, a stopped first answer
// gets one, and the sidebar shows them up to the row's end while its buttons are hidden (5); a share
// link opens at the top of the conversation (8); the header names the model the open conversation
// uses, not the app's default (12).
import type { Page } from "playwright-core";
import { describe, type ExpectStatic, it } from "vitest";
import {
  apiFromPage,
  asNewUser,
  DESKTOP_AND_PHONE,
  useSharedApp,
  viewportOptions,
  waitTurnEnded,
  withPage,
} from "./harness.ts";

const live = useSharedApp();

type Conversation = { id: string; title: string; title_source?: string };

const row = (page: Page, id: string) => page.locator(`[data-testid=conversation-item][data-id=${JSON.stringify(id)}]`);
const focusedTestId = (page: Page) => page.evaluate(() => document.activeElement?.getAttribute("data-testid"));
const conversationIdOf = (page: Page) => decodeURIComponent(new URL(page.url()).pathname.slice("/c/".length));
const listed = async (page: Page) =>
  (await apiFromPage<Conversation[]>(page, "GET", "/api/conversations")).body.map((c) => c.id);

/** The sidebar in view: on a phone it is the drawer, opened by the menu button. */
async function openSidebar(page: Page, phone: boolean) {
  if (phone && (await page.locator("[data-testid=menu-button]").getAttribute("aria-expanded")) !== "true")
    await page.locator("[data-testid=menu-button]").click();
  await page.locator("[data-testid=new-conversation]").waitFor({ state: "visible" });
}

/** Opens a conversation from its sidebar row and waits until its chat is connected. */
async function openFromSidebar(page: Page, phone: boolean, id: string) {
  await openSidebar(page, phone);
  await row(page, id).locator("[data-testid=conversation-link]").click();
  await page
    .locator(`[data-testid=chat][data-conversation-id=${JSON.stringify(id)}] [data-status=connected]`)
    .waitFor({ state: "attached", timeout: 15_000 });
}

/** Home with its examples, the cursor in its composer. */
async function expectHome(page: Page, expect: ExpectStatic) {
  await expect.poll(() => new URL(page.url()).pathname, { timeout: 15_000 }).toBe("/");
  await page.locator("#main [data-testid=home]").waitFor();
  expect(await page.locator("#main [data-testid=example-prompt]").count()).toBeGreaterThan(0);
  expect(await page.locator("[data-testid=chat]").count()).toBe(0);
  await expect.poll(() => focusedTestId(page)).toBe("composer-input");
}

/** Types a first message on home and sends it: the chat it made, by id. */
async function startFromHome(page: Page, text: string): Promise<string> {
  // Home as a link to it opens it (in the page, without a reload), whatever "New conversation" does.
  await page.evaluate(() => {
    history.pushState(null, "", "/");
    dispatchEvent(new PopStateEvent("popstate"));
  });
  await page.locator("#main [data-testid=home] [data-testid=composer-input]").fill(text);
  await page.locator("#main [data-testid=send]").click();
  await page.waitForURL((url) => url.pathname.startsWith("/c/"), { timeout: 15_000 });
  await page.locator("[data-role=user]").first().waitFor({ timeout: 15_000 });
  return conversationIdOf(page);
}

/**
 * Three chats started from home whose first answers the model titles: two first messages with no "key
 * words" (both were "Quick chat") and a first answer stopped while it streams. Their ids, once titled.
 */
async function titledByTurns(page: Page, expect: ExpectStatic): Promise<[string, string, string]> {
  const what = await startFromHome(page, "What can you do?");
  await waitTurnEnded(page, what);
  const how = await startFromHome(page, "How are you?");
  await waitTurnEnded(page, how);
  // A first answer stopped while it streams is named as well.
  const story = await startFromHome(page, "tell me a long story");
  await page.locator("[data-testid=streaming]").first().waitFor({ timeout: 15_000 });
  await page.locator("[data-testid=stop]").click();
  await waitTurnEnded(page, story);

  const titleOf = async (id: string) =>
    (await apiFromPage<Conversation>(page, "GET", `/api/conversations/${encodeURIComponent(id)}`)).body;
  for (const [id, title] of [
    [what, "What can you do"],
    [how, "How are you"],
    [story, "Long story"],
  ] as const) {
    await expect.poll(async () => (await titleOf(id)).title_source, { timeout: 15_000 }).toBe("model");
    expect((await titleOf(id)).title).toBe(title);
  }
  return [what, how, story];
}

// The tests run side by side (each its own user and browser context; `expect` is each test's own, as
// concurrent tests need): half the wall time.
describe.concurrent.each(DESKTOP_AND_PHONE)("a new chat at $name", (viewport) => {
  const options = viewportOptions(viewport);
  const { phone } = viewport;

  it("opens home with its examples from New conversation and Ctrl+Shift+O; the first message makes the conversation", async ({
    expect,
  }) => {
    await asNewUser(live, `new-chat-home-${viewport.name}`, options, async (page) => {
      // A conversation made through the API, with nothing said in it, is listed as before.
      const made = await apiFromPage<Conversation>(page, "POST", "/api/conversations", { title: "Made by a script" });
      expect(made.status).toBe(201);
      await page.reload();
      await openFromSidebar(page, phone, made.body.id);

      // From a chat, "New conversation" goes home: no conversation is made, no row appears.
      await openSidebar(page, phone);
      await page.locator("[data-testid=new-conversation]").click();
      await expectHome(page, expect);
      expect(await page.locator("[data-testid=drawer][data-open=true]").count()).toBe(0);
      expect(await listed(page)).toEqual([made.body.id]);

      // The shortcut does the same.
      await openFromSidebar(page, phone, made.body.id);
      await page.keyboard.press("Control+Shift+O");
      await expectHome(page, expect);
      expect(await listed(page)).toEqual([made.body.id]);
      expect(await page.locator("[data-testid=conversation-item]").count()).toBe(1);

      // The first message makes the conversation; its row is named by the message from the start.
      await page.evaluate(() => {
        const seen: string[] = [];
        (window as unknown as { seenTitles: string[] }).seenTitles = seen;
        const look = () => {
          for (const title of document.querySelectorAll("[data-testid=conversation-title]"))
            seen.push(title.textContent ?? "");
        };
        new MutationObserver(look).observe(document.body, { subtree: true, childList: true, characterData: true });
      });
      const id = await startFromHome(page, "Hello from home, my first message");
      expect(id).not.toBe(made.body.id);
      await expect.poll(() => listed(page)).toEqual([id, made.body.id]);
      await row(page, id).waitFor({ state: "attached" });
      await waitTurnEnded(page, id);
      const seen = await page.evaluate(() => (window as unknown as { seenTitles: string[] }).seenTitles);
      expect(seen.length).toBeGreaterThan(0);
      expect(seen).not.toContain("New conversation");
    });
  });

  it("titles chats distinctly (a stopped first answer too) and shows a title up to the row's end", async ({
    expect,
  }) => {
    await asNewUser(live, `new-chat-titles-${viewport.name}`, options, async (page) => {
      // The titles the model gives are the server's, the same at any size: made by three turns once
      // (desktop); the phone's rows get the same titles through the API, for the rows' own layout.
      const made = async (title: string) =>
        (await apiFromPage<Conversation>(page, "POST", "/api/conversations", { title })).body.id;
      const [what, how, story] = phone
        ? [await made("What can you do"), await made("How are you"), await made("Long story")]
        : await titledByTurns(page, expect);

      // A title longer than the row is cut where the row ends, not where hidden buttons would be.
      const long = "A conversation title long enough to need the whole row of the sidebar";
      expect((await apiFromPage(page, "PATCH", `/api/conversations/${story}`, { title: long })).status).toBe(200);
      await page.reload();
      await openSidebar(page, phone);
      for (const [id, title] of [
        [what, "What can you do"],
        [how, "How are you"],
      ] as const)
        expect(await row(page, id).locator("[data-testid=conversation-title]").textContent()).toBe(title);
      const storyRow = row(page, story);
      await expect.poll(() => storyRow.locator("[data-testid=conversation-title]").textContent()).toBe(long);
      if (!phone) await page.mouse.move(900, 400); // away from the rows
      const measure = () =>
        storyRow.evaluate((li) => {
          const title = li.querySelector("[data-testid=conversation-title]") as HTMLElement;
          const buttons = li.querySelector("[data-testid=delete-conversation]")?.parentElement as HTMLElement;
          return {
            rowRight: li.getBoundingClientRect().right,
            titleRight: title.getBoundingClientRect().right,
            buttonsLeft: buttons.getBoundingClientRect().left,
            cut: title.scrollWidth > title.clientWidth,
            shown: getComputedStyle(buttons).opacity,
          };
        });
      const at = await measure();
      expect(at.cut).toBe(true);
      if (phone) {
        // No hover on a touch screen: the buttons are always there, and the title reaches them.
        expect(at.shown).toBe("1");
        expect(at.titleRight).toBeLessThanOrEqual(at.buttonsLeft + 1);
        expect(at.buttonsLeft - at.titleRight).toBeLessThan(16);
      } else {
        // Hidden, they take no room: the title runs to the row's end (its padding aside)…
        expect(at.shown).toBe("0");
        expect(at.rowRight - at.titleRight, JSON.stringify(at)).toBeLessThan(16);
        // …and they show over its end on hover.
        await storyRow.hover();
        await expect.poll(async () => (await measure()).shown).toBe("1");
        expect((await measure()).titleRight).toBe(at.titleRight);
      }
    });
  });

  it("opens a share link at the top of the conversation", async ({ expect }) => {
    await asNewUser(live, `new-chat-share-${viewport.name}`, options, async (page) => {
      const lines = Array.from({ length: 60 }, (_, i) => `Line ${i + 1} of a long first message`);
      const id = await startFromHome(page, ["The beginning of the shared chat", ...lines].join("\n"));
      await waitTurnEnded(page, id);
      const share = await apiFromPage<{ url: string }>(page, "POST", `/api/conversations/${id}/shares`, {});
      expect(share.status).toBe(201);

      await withPage(live, `new-chat-share-visitor-${viewport.name}`, options, async (visitor) => {
        await visitor.goto(share.body.url);
        await visitor.locator("[data-testid=shared-page][data-status=ready]").waitFor({ timeout: 15_000 });
        await visitor.locator("[data-role=agent]").last().waitFor();
        const at = await visitor.locator("[data-testid=message-list]").evaluate((list) => ({
          overflow: list.scrollHeight - list.clientHeight,
          top: list.scrollTop,
          page: document.scrollingElement?.scrollTop ?? 0,
        }));
        expect(at.overflow).toBeGreaterThan(200); // long enough to open anywhere but the top
        expect(at).toMatchObject({ top: 0, page: 0 });
        // The first message's start is in view.
        const first = await visitor.locator("[data-testid=message-list] [data-role=user]").first().boundingBox();
        expect(first && first.y >= 0 && first.y < viewport.height / 2, JSON.stringify(first)).toBe(true);
      });
    });
  });

  it("names in the header the model the open conversation uses, and the default elsewhere", async ({ expect }) => {
    await asNewUser(live, `new-chat-model-${viewport.name}`, options, async (page) => {
      // A provider of the user's own (never called here) and a conversation that uses its model.
      const provider = await apiFromPage<{ id: string }>(page, "POST", "/api/providers", {
        name: "Mine",
        base_url: "http://127.0.0.1:9/v1",
        style: "chat",
        models: [{ id: "my-model", context_window: 8192 }],
      });
      expect(provider.status).toBe(201);
      const mine = { provider_id: provider.body.id, model: "my-model" };
      const made = await apiFromPage<Conversation>(page, "POST", "/api/conversations", { title: "On my model" });
      expect((await apiFromPage(page, "PATCH", `/api/conversations/${made.body.id}`, { model: mine })).status).toBe(
        200,
      );
      const demoBadge = page.locator("[data-testid=demo-badge]");
      const chatDemoBadge = page.locator("[data-testid=chat-demo-badge]");
      const modelBadge = page.locator("[data-testid=model-badge]");

      // Home: the user's default, the demo model.
      await page.reload();
      await demoBadge.waitFor({ state: "visible", timeout: 15_000 });
      // The conversation on the user's model: never "Demo model (offline)".
      await openFromSidebar(page, phone, made.body.id);
      await page.locator(`[data-testid=model-picker][data-model="my-model"]`).waitFor({ timeout: 15_000 });
      if (!phone) await expect.poll(() => modelBadge.textContent(), { timeout: 10_000 }).toBe("my-model");
      expect(await demoBadge.isVisible()).toBe(false);
      expect(await chatDemoBadge.count()).toBe(0); // a phone's chat row has no Demo badge either
      // Home again: the default again.
      await page.goto("/");
      await demoBadge.waitFor({ state: "visible", timeout: 10_000 });
      expect(await modelBadge.count()).toBe(0);

      // The user's default model named on home once it is theirs.
      expect((await apiFromPage(page, "PUT", "/api/models/default", { model: mine })).status).toBe(200);
      await page.reload();
      await page.locator("#main [data-testid=home]").waitFor();
      await page.locator(`[data-testid=model-picker][data-model="my-model"]`).waitFor({ timeout: 15_000 });
      if (!phone) await expect.poll(() => modelBadge.textContent(), { timeout: 10_000 }).toBe("my-model");
      expect(await demoBadge.count()).toBe(0);
    });
  });
});
