// Issue 39: a streamed delta costs the message it belongs to, not the conversation. While an answer
// streams, the finished turns above it are not rendered again: their buttons keep the very handlers
// they had (Preact stores an element's handlers on it, and every render of these components makes new
// ones), and nothing in the persisted part of the list is touched. Their text stays in the DOM, where
// find-in-page (Ctrl+F) finds it. Counts, never timings.
import { expect, it } from "vitest";
import { marker, scriptModel } from "../support/fake-openai-client";
import { asNewUser, newConversationInBrowser, sendChat, useSharedFakeModelApp, waitTurnEnded } from "./harness.ts";

const live = useSharedFakeModelApp();

const WORDS = Array.from({ length: 60 }, (_, i) => `word${i} `);

it("leaves finished turns untouched while an answer streams, and their text findable", async () => {
  await asNewUser(live, "streaming-renders", { viewport: { width: 1200, height: 900 } }, async (page) => {
    const id = await newConversationInBrowser(page);
    const key = `streaming-renders-${Date.now().toString(36)}`;
    await scriptModel(live.llm.url, key, [
      { text: "Let me look.", tool_calls: [{ name: "vault_list", arguments: {} }] },
      { text: "## First\n\nThe **alpha** answer, findable-alpha-words.\n\n- one\n- two" },
      { text: "The beta answer, findable-beta-words." },
      { text: WORDS, chunk_delay_ms: 120 },
    ]);
    const answers = page.locator("[data-role=agent][data-phase=final]");
    await sendChat(page, `First question ${marker(key)}`);
    await answers.nth(0).waitFor({ timeout: 30_000 });
    await waitTurnEnded(page, id);
    await sendChat(page, "Second question");
    await answers.nth(1).waitFor({ timeout: 30_000 });
    await waitTurnEnded(page, id);

    await sendChat(page, "Third question, answered slowly");
    const streaming = page.locator("[data-testid=streaming]");
    await expect.poll(() => streaming.textContent(), { timeout: 20_000 }).toContain("word3 ");
    // The page asks for reduced motion (the harness's default): the caret shows, still, not blinking.
    const caret = await streaming.locator("[aria-hidden=true]").evaluate((el) => {
      const { animationIterationCount, animationName } = getComputedStyle(el);
      return { animationIterationCount, animationName };
    });
    expect(caret).toEqual({ animationName: expect.stringContaining("blink"), animationIterationCount: "1" });

    // The handlers of every finished row's buttons (Edit, Regenerate, Details, a turn's steps), and
    // every change to the persisted part of the list from now on.
    const found = await page.evaluate(() => {
      const buttons = [
        ...document.querySelectorAll<HTMLElement>(
          "[role=log] :is([data-testid=edit-message], [data-testid=regenerate], [data-testid=message-details-toggle], [data-testid=turn-group-toggle])",
        ),
      ];
      const handlerOf = (element: HTMLElement) => {
        for (const value of Object.values(element))
          if (value && typeof value === "object" && typeof (value as { onClick?: unknown }).onClick === "function")
            return (value as { onClick: unknown }).onClick;
        return null;
      };
      const seen = buttons.map(handlerOf);
      const mutations: string[] = [];
      new MutationObserver((records) => {
        for (const r of records) mutations.push(`${r.type} ${(r.target as Element).outerHTML?.slice(0, 80) ?? ""}`);
      }).observe(document.querySelector("[role=log]") as Node, {
        subtree: true,
        childList: true,
        attributes: true,
        characterData: true,
      });
      const w = window as unknown as { __check: () => { same: boolean[]; mutations: string[] } };
      w.__check = () => ({ same: buttons.map((b, i) => handlerOf(b) === seen[i]), mutations });
      return seen.map((h) => h !== null);
    });
    // 3 Edits, 2 Regenerates, 2 Details, 1 turn's steps; each with the handler Preact keeps on it.
    expect(found).toHaveLength(8);
    expect(found.every(Boolean)).toBe(true);

    // Many more deltas arrive…
    await expect.poll(() => streaming.textContent(), { timeout: 20_000 }).toContain("word20 ");
    const check = await page.evaluate(() =>
      (window as unknown as { __check: () => { same: boolean[]; mutations: string[] } }).__check(),
    );
    // …and no finished row was rendered again, nor anything of the persisted list touched.
    expect(check.same).toEqual(found.map(() => true));
    expect(check.mutations).toEqual([]);

    // The old answers are in the page for find-in-page (and for links to a message).
    // (window.find, Chromium's own find, answers false in the headless shell whatever the page holds.)
    const text = (await page.locator("[role=log]").textContent()) ?? "";
    expect(text).toContain("findable-alpha-words");
    expect(text).toContain("findable-beta-words");
    expect(await page.locator("[role=log] [data-seq]").count()).toBe(5); // 3 questions, 2 answers

    await expect.poll(() => answers.count(), { timeout: 30_000 }).toBe(3);
    await waitTurnEnded(page, id);
    expect(await answers.nth(2).textContent()).toContain("word59");
  });
});
