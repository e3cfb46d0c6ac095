// Conversations as trees in the chat (issue 27), at 1280×800 and 390×844 (a phone with touch):
// editing the first question of a 3-turn chat makes a second version with its own answer, and ‹ › flips
// between the two, each with the turns that followed it; regenerating the middle answer gives it ‹ 2/2 ›
// without the third turn, and version 1 still has it (with a line saying the note its turn wrote stays);
// a second tab follows every switch, a reload keeps the version chosen, and a link to a message of
// another version (a search hit) shows that version. The controls wait while a turn runs, and fit a
// 390 and a 360 px screen. One user per viewport, on the shared fake-model app.
import type { Locator, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { marker, scriptModel } from "../support/fake-openai-client";
import {
  apiFromPage,
  asNewUser,
  DESKTOP_AND_PHONE,
  newConversationInBrowser,
  type PageOptions,
  sendChat,
  useSharedFakeModelApp,
  waitTurnEnded,
} from "./harness.ts";

const live = useSharedFakeModelApp();

const questions = (page: Page) => page.locator("[data-role=user]");
const answers = (page: Page) => page.locator("[data-role=agent][data-phase=final]");
/** The row under a message (its time, Copy, ‹ n/m ›, Edit or Regenerate): the article's parent. */
const row = (message: Locator) => message.locator("xpath=..");
const versionOf = (message: Locator) => row(message).locator("[data-testid=version-count]");

/** What the chat shows: each question and answer's text, in order. */
async function shown(page: Page): Promise<string[]> {
  return page
    .locator("[data-role=user], [data-role=agent][data-phase=final]")
    .evaluateAll((els) => els.map((el) => (el.textContent ?? "").replace(/\s*\[\[key:[^\]]+\]\]/, "").trim()));
}

const ORIGINAL = ["Q1", "A1", "Q2", "A2", "Q3", "A3"];

for (const { name, width, height, phone } of DESKTOP_AND_PHONE) {
  const options: PageOptions = { viewport: { width, height }, ...(phone ? { isMobile: true, hasTouch: true } : {}) };
  describe(name, () => {
    it("edits the first question and regenerates the middle answer as versions; ‹ › flips, a second tab follows, a reload keeps the choice", async () => {
      await asNewUser(live, `branches-${name.replace(" ", "-")}`, options, async (page) => {
        const id = await newConversationInBrowser(page);
        const key = `branches-${name.replace(" ", "")}-${Date.now().toString(36)}`;
        await scriptModel(live.llm.url, key, [
          { text: "A1" },
          { tool_calls: [{ name: "vault_write", arguments: { path: `branch-${key}.md`, content: "kept" } }] },
          { text: "A2" },
          { text: "A3", delay_ms: 1200 },
          { text: "A1 edited" },
          { text: "A2 again" },
        ]);
        await sendChat(page, `Q1 ${marker(key)}`);
        await expect.poll(() => answers(page).count(), { timeout: 30_000 }).toBe(1);
        await waitTurnEnded(page, id);
        await sendChat(page, "Q2");
        await expect.poll(() => answers(page).count(), { timeout: 30_000 }).toBe(2);
        await waitTurnEnded(page, id);
        await sendChat(page, "Q3");
        // While the answer is on its way, Edit and Regenerate wait, and say why.
        const firstEdit = row(questions(page).first()).locator("[data-testid=edit-message]");
        await expect.poll(() => firstEdit.isDisabled(), { timeout: 10_000 }).toBe(true);
        expect(await firstEdit.getAttribute("title")).toBe("Wait for the answer to finish");
        expect(await row(answers(page).first()).locator("[data-testid=regenerate]").isDisabled()).toBe(true);
        await expect.poll(() => answers(page).count(), { timeout: 30_000 }).toBe(3);
        await waitTurnEnded(page, id);
        await expect.poll(() => firstEdit.isEnabled()).toBe(true);
        expect(await shown(page)).toEqual(ORIGINAL);
        // Edit on every question, Regenerate on every answer; no versions yet.
        expect(await page.locator("[data-testid=edit-message]").count()).toBe(3);
        expect(await page.locator("[data-testid=regenerate]").count()).toBe(3);
        expect(await page.locator("[data-testid=version-switcher]").count()).toBe(0);

        // A second tab on the same chat.
        const other = await page.context().newPage();
        await other.goto(`/c/${id}`);
        await expect.poll(() => shown(other), { timeout: 15_000 }).toEqual(ORIGINAL);

        // (a) Edit the first question: its new version with its own answer, the later turns out of view.
        await firstEdit.click();
        await page.locator("[data-testid=edit-input]").fill(`Q1 edited ${marker(key)}`);
        await page.locator("[data-testid=edit-save]").click();
        await expect.poll(() => shown(page), { timeout: 30_000 }).toEqual(["Q1 edited", "A1 edited"]);
        await waitTurnEnded(page, id);
        expect(await versionOf(questions(page).first()).textContent()).toContain("Version 2 of 2");
        await expect.poll(() => shown(other), { timeout: 10_000 }).toEqual(["Q1 edited", "A1 edited"]);

        // ‹ to version 1: the original three turns are all there; › back to the edit.
        const switcher = row(questions(page).first()).locator("[data-testid=version-switcher]");
        await switcher.locator("[data-testid=version-previous]").click();
        await expect.poll(() => shown(page), { timeout: 10_000 }).toEqual(ORIGINAL);
        expect(await versionOf(questions(page).first()).textContent()).toContain("Version 1 of 2");
        // The pressed button's neighbour keeps the focus (‹ is disabled on version 1).
        await expect
          .poll(() => page.evaluate(() => document.activeElement?.getAttribute("data-testid")))
          .toBe("version-next");
        await expect.poll(() => shown(other), { timeout: 10_000 }).toEqual(ORIGINAL);
        await switcher.locator("[data-testid=version-next]").click();
        await expect.poll(() => shown(page), { timeout: 10_000 }).toEqual(["Q1 edited", "A1 edited"]);
        await expect.poll(() => shown(other), { timeout: 10_000 }).toEqual(["Q1 edited", "A1 edited"]);

        // (c) The other way round: a switch in the second tab switches the first.
        await row(questions(other).first()).locator("[data-testid=version-previous]").click();
        await expect.poll(() => shown(page), { timeout: 10_000 }).toEqual(ORIGINAL);

        // (b) Regenerate the middle answer: ‹ 2/2 › on it, and no third turn on the new version.
        await row(answers(page).nth(1)).locator("[data-testid=regenerate]").click();
        await expect.poll(() => shown(page), { timeout: 30_000 }).toEqual(["Q1", "A1", "Q2", "A2 again"]);
        await waitTurnEnded(page, id);
        const middle = answers(page).nth(1);
        expect(await versionOf(middle).textContent()).toContain("Version 2 of 2");
        // Version 1's turn wrote a note: switching does not take it back, and the chat says so.
        const stays = row(middle).locator("[data-testid=versions-changes-stay]");
        expect(await stays.textContent()).toBe("Changes to notes and tasks made in other versions stay.");
        expect(await page.locator("[data-testid=versions-changes-stay]").count()).toBe(1);
        await expect.poll(() => shown(other), { timeout: 10_000 }).toEqual(["Q1", "A1", "Q2", "A2 again"]);
        // The edited first question still has its two versions on this branch too.
        expect(await versionOf(questions(page).first()).textContent()).toContain("Version 1 of 2");

        // On a phone the controls fit: nothing sticks out of the screen, nor of a 360 px one (the same
        // page narrowed: a context of its own at 360 px cost a whole run of this test).
        for (const w of phone ? [width, 360] : [width]) {
          if (w !== width) await page.setViewportSize({ width: w, height });
          for (const control of [row(middle), row(questions(page).first())]) {
            const box = await control.boundingBox();
            expect(box && box.x >= 0 && box.x + box.width <= w, `${w} px`).toBe(true);
          }
          expect(
            await page.locator("[data-testid=message-list]").evaluate((el) => el.scrollWidth <= el.clientWidth),
            `${w} px`,
          ).toBe(true);
        }
        if (phone) await page.setViewportSize({ width, height });

        await row(middle).locator("[data-testid=version-previous]").click();
        await expect.poll(() => shown(page), { timeout: 10_000 }).toEqual(ORIGINAL);
        expect(await versionOf(answers(page).nth(1)).textContent()).toContain("Version 1 of 2");
        await expect.poll(() => shown(other), { timeout: 10_000 }).toEqual(ORIGINAL);

        // A reload keeps the version chosen (not the newest one).
        await page.reload();
        await expect.poll(() => shown(page), { timeout: 15_000 }).toEqual(ORIGINAL);
        expect(await versionOf(answers(page).nth(1)).textContent()).toContain("Version 1 of 2");

        // A link to a message of another version (a search hit: search covers every branch) shows it.
        const tree = await apiFromPage<{ messages: { seq: number; content?: string }[] }>(
          page,
          "GET",
          `/api/conversations/${id}/messages?view=tree`,
        );
        const again = tree.body.messages.find((m) => m.content === "A2 again");
        await page.goto(`/c/${id}#m${again?.seq}`);
        await expect.poll(() => shown(page), { timeout: 15_000 }).toEqual(["Q1", "A1", "Q2", "A2 again"]);
        await expect.poll(() => answers(page).nth(1).getAttribute("data-target")).toBe("true");
        await other.close();
      });
    });
  });
}
