// Issue 26, titles, the sidebar and search, on a desktop and a phone (the sidebar is a drawer there):
// after the first answer the demo model names the conversation with a short plain title (not the raw
// first message with its markdown), shown without a reload; the sidebar groups conversations under
// headings (Today here; Yesterday and older are in test/node/conversation-groups.test.ts, since the API
// cannot date a conversation back); pinning moves one to Pinned and survives a reload; and a search
// shows the user's own message first, above the turn's narration and answer. Last, on the fake model: a
// title that comes seconds after the turn still reaches the open sidebar (the conversation_title frame).
import type { Page } from "playwright-core";
import { expect, it } from "vitest";
import type { Conversation } from "../../protocol";
import { marker, scriptModel } from "../support/fake-openai-client";
import {
  apiFromPage,
  asNewUser,
  DESKTOP_AND_PHONE,
  newConversationInBrowser,
  sendChat,
  uniqueUsername,
  useSharedApp,
  useSharedFakeModelApp,
  waitTurnEnded,
} from "./harness.ts";

const live = useSharedApp();
const fake = useSharedFakeModelApp();

/** The demo model's task demo: its narration and answer repeat the task's words. */
const FIRST_MESSAGE = "add task **Feed** the `quokka` before noon";

/** On a phone the sidebar is a drawer: opened by the menu button. */
async function openSidebar(page: Page): Promise<void> {
  await page.locator("[data-testid=shell]").waitFor({ timeout: 15_000 }); // a reload: the app is drawn first
  const menu = page.locator("[data-testid=menu-button]");
  if ((await menu.isVisible()) && (await menu.getAttribute("aria-expanded")) !== "true") await menu.click();
  await page.locator("[data-testid=conversation-list]").waitFor({ state: "visible" });
}

const row = (page: Page, id: string) => page.locator(`[data-testid=conversation-item][data-id=${JSON.stringify(id)}]`);
const group = (page: Page, name: string) =>
  page.locator(`[data-testid=conversation-group][data-group=${JSON.stringify(name)}]`);

for (const { width, height, phone } of DESKTOP_AND_PHONE) {
  it(`names, groups, pins and searches conversations at ${width}×${height}`, async () => {
    const options = { viewport: { width, height }, hasTouch: phone, isMobile: phone };
    await asNewUser(live, `titles-sidebar-${width}`, options, async (page) => {
      const id = await newConversationInBrowser(page);
      await sendChat(page, FIRST_MESSAGE);
      await waitTurnEnded(page, id);

      // The model's title, after the first answer: plain, short, not the first message.
      let title = "";
      await expect
        .poll(
          async () => {
            const got = await apiFromPage<Conversation>(page, "GET", `/api/conversations/${id}`);
            title = got.body.title;
            return got.body.title_source;
          },
          { timeout: 10_000 },
        )
        .toBe("model");
      expect(title).toBe("Add task Feed the quokka before noon");
      await openSidebar(page);
      // It reached the open tab without a reload (the `conversation_title` frame or the turn-end refresh).
      await expect.poll(() => row(page, id).locator("[data-testid=conversation-title]").textContent()).toBe(title);
      expect(title).not.toMatch(/[*`#]/);

      // Grouped under a heading by last activity: a conversation of today is under "Today".
      await expect
        .poll(() =>
          group(page, "Today")
            .locator(`[data-id=${JSON.stringify(id)}]`)
            .count(),
        )
        .toBe(1);
      await expect.poll(() => page.getByRole("heading", { name: "Today" }).isVisible()).toBe(true);

      // Pinned: moves to the Pinned group on top, and stays there after a reload.
      await row(page, id).locator("[data-testid=pin-conversation]").click();
      await group(page, "Pinned")
        .locator(`[data-id=${JSON.stringify(id)}]`)
        .waitFor();
      expect(await row(page, id).getAttribute("data-pinned")).toBe("true");
      expect(await page.locator("[data-testid=conversation-group]").first().getAttribute("data-group")).toBe("Pinned");
      await page.reload();
      await openSidebar(page);
      await group(page, "Pinned")
        .locator(`[data-id=${JSON.stringify(id)}]`)
        .waitFor();
      expect(await row(page, id).locator("[data-testid=pin-conversation]").getAttribute("aria-label")).toBe(
        "Unpin conversation",
      );

      // Search: the user's own message comes first, before the narration and the answer that repeat it.
      await page.locator("[data-testid=search-input]").fill("quokka");
      const results = page.locator("[data-testid=search-result]");
      await expect.poll(() => results.count(), { timeout: 10_000 }).toBeGreaterThanOrEqual(3);
      const first = results.first();
      expect(await first.getAttribute("data-kind")).toBe("user");
      expect(await first.textContent()).toContain("You:");
      expect(await first.getAttribute("href")).toMatch(/#m1$/);
    });
  });
}

it("shows a title the model wrote well after the turn's end, from its frame, without a reload", async () => {
  // Longer than the sidebar's own refreshes after a turn (at its end and 1.5 s later): only the
  // conversation_title frame can bring it.
  const key = uniqueUsername("title");
  await scriptModel(fake.llm.url, key, [{ text: "An answer." }], undefined, {
    text: "Slow model title",
    delay_ms: 2_500,
  });
  await asNewUser(fake, "titles-sidebar-frame", { viewport: { width: 1280, height: 800 } }, async (page) => {
    const id = await newConversationInBrowser(page);
    await sendChat(page, `Name this later ${marker(key)}`);
    await waitTurnEnded(page, id);
    const title = row(page, id).locator("[data-testid=conversation-title]");
    await expect.poll(() => title.textContent(), { timeout: 10_000 }).toBe("Slow model title");
  });
});
