// The token meter, as a person sees it: the app answers through the fake OpenAI server with prices set
// (OPENAI_PRICE_*), two scripted turns report exact usage, and each final answer's Details show its
// tokens (input, the cached part, output) and cost, while the chat header's usage button opens their
// sum, updated live and again after a reload. The figures are one tap away, not in the default view. On a desktop and on a phone (390 and 360 wide), with no horizontal scroll.
import type { Page } from "playwright-core";
import { expect, it } from "vitest";
import { marker, modelRequests, scriptModel } from "../support/fake-openai-client";
import {
  fakeModelAppForFile,
  newConversationInBrowser,
  sendChat,
  signUpInBrowser,
  waitTurnEnded,
  withPage,
} from "./harness.ts";

const PRICES = { OPENAI_PRICE_INPUT: "2.5", OPENAI_PRICE_CACHED_INPUT: "1.25", OPENAI_PRICE_OUTPUT: "10" };

// Turn 1: (200 × 2.5 + 1,000 × 1.25 + 768 × 10) / 1e6 = $0.00943
// Turn 2: (500 × 2.5 + 2,000 × 1.25 + 432 × 10) / 1e6 = $0.00807
const TURNS = [
  {
    answer: "The first answer.",
    usage: { prompt_tokens: 1200, completion_tokens: 768, cached_tokens: 1000 },
    meter: "1,968 tokens · 1,200 in (1,000 cached) · 768 out · ≈ $0.0094",
  },
  {
    answer: "The second answer.",
    usage: { prompt_tokens: 2500, completion_tokens: 432, cached_tokens: 2000 },
    meter: "2,932 tokens · 2,500 in (2,000 cached) · 432 out · ≈ $0.0081",
  },
];
const FIRST_TOTAL = "Total 1,968 tokens · 1,200 in (1,000 cached) · 768 out · ≈ $0.0094";
const TOTAL = "Total 4,900 tokens · 3,700 in (3,000 cached) · 1,200 out · ≈ $0.0175";

const live = fakeModelAppForFile(PRICES);

/** Text as it reads on screen, whitespace collapsed. */
const text = async (page: Page, selector: string) =>
  page.locator(selector).evaluateAll((els) => els.map((e) => (e.textContent ?? "").replace(/\s+/g, " ").trim()));

/** Opens what is folded away: every answer's Details, and the header's usage panel. */
async function showMeters(page: Page) {
  const closed = page.locator("[data-testid=message-details-toggle][aria-expanded=false]");
  while ((await closed.count()) > 0) await closed.first().click();
  const usage = page.locator("[data-testid=usage-button]");
  if ((await usage.getAttribute("aria-expanded")) === "false") await usage.click();
}

/** What scrolls sideways: the page itself, or any element that scrolls with content wider than it. */
const horizontalOverflow = (page: Page) =>
  page.evaluate(() => {
    const found: string[] = [];
    const root = document.documentElement;
    if (root.scrollWidth > root.clientWidth) found.push(`page ${root.scrollWidth} > ${root.clientWidth}`);
    for (const el of document.querySelectorAll<HTMLElement>("body *")) {
      const { overflowX } = getComputedStyle(el);
      if ((overflowX === "auto" || overflowX === "scroll") && el.scrollWidth > el.clientWidth + 1)
        found.push(`${el.tagName}.${el.className} ${el.scrollWidth} > ${el.clientWidth}`);
    }
    for (const el of document.querySelectorAll("[data-testid=token-meter], [data-testid=conversation-usage]")) {
      const box = el.getBoundingClientRect();
      if (box.right > root.clientWidth + 0.5) found.push(`${el.getAttribute("data-testid")} ends at ${box.right}`);
    }
    return found;
  });

const viewports = [
  { name: "desktop", width: 1280, height: 800 },
  { name: "phone", width: 390, height: 844 },
];

for (const viewport of viewports) {
  it(`shows each answer's tokens and cost, and the conversation's total (${viewport.name})`, async () => {
    const options = { viewport: { width: viewport.width, height: viewport.height }, locale: "en-US" };
    await withPage(live, `token-meter-${viewport.name}`, options, async (page) => {
      // /api/health carries the prices the meters use.
      const health = (await (await page.request.get("/api/health")).json()) as { model: unknown };
      expect(health.model).toMatchObject({
        provider: "openai",
        model: "m",
        prices: { input: 2.5, cached_input: 1.25, output: 10 },
      });

      // signUpInBrowser waits for the username, which the header hides on a phone: sign up wide.
      await page.setViewportSize({ width: 1280, height: 800 });
      await signUpInBrowser(page);
      await page.setViewportSize({ width: viewport.width, height: viewport.height });
      const id = await newConversationInBrowser(page);
      const key = `meter-${viewport.name}-${Date.now().toString(36)}`;
      await scriptModel(
        live.llm.url,
        key,
        TURNS.map((t) => ({ text: t.answer, usage: t.usage })),
      );
      const answers = page.locator("[data-role=agent][data-phase=final]");
      const total = page.locator("[data-testid=conversation-usage]");
      // Nothing used yet: no total, no usage button.
      expect(await total.count()).toBe(0);
      expect(await page.locator("[data-testid=usage-button]").count()).toBe(0);

      await sendChat(page, `First question ${marker(key)}`);
      await answers.first().waitFor({ timeout: 30_000 });
      await waitTurnEnded(page, id);
      expect(await modelRequests(live.llm.url, key)).toHaveLength(1); // one model call: the turn is that call's usage
      // Folded away by default: no figures until Details or the usage button is opened.
      await page.locator("[data-testid=usage-button]").waitFor({ timeout: 10_000 });
      expect(await page.locator("[data-testid=token-meter], [data-testid=conversation-usage]").count()).toBe(0);
      await showMeters(page);
      await expect.poll(() => text(page, "[data-testid=token-meter]"), { timeout: 10_000 }).toEqual([TURNS[0]?.meter]);
      await expect.poll(() => text(page, "[data-testid=conversation-usage]")).toEqual([FIRST_TOTAL]);

      await sendChat(page, `Second question ${marker(key)}`);
      await answers.nth(1).waitFor({ timeout: 30_000 });
      await waitTurnEnded(page, id);
      expect(await modelRequests(live.llm.url, key)).toHaveLength(2);
      // The total follows the new answer without a reload.
      await showMeters(page);
      await expect.poll(() => text(page, "[data-testid=conversation-usage]"), { timeout: 10_000 }).toEqual([TOTAL]);
      const meters = TURNS.map((t) => t.meter);
      expect(await text(page, "[data-testid=token-meter]")).toEqual(meters);
      // Each meter sits under its own answer.
      for (const [index, turn] of TURNS.entries()) {
        const answer = answers.nth(index);
        expect(await answer.textContent()).toContain(turn.answer);
        expect((await answer.locator("[data-testid=token-meter]").textContent())?.replace(/\s+/g, " ").trim()).toBe(
          turn.meter,
        );
      }
      // The terse figures are explained to whoever hovers or listens.
      const label = await page.locator("[data-testid=token-meter]").first().getAttribute("aria-label");
      expect(label).toContain("1,200 input tokens");
      expect(label).toContain("1,000 were served from the provider's prompt cache");
      expect(label).toContain("768 output tokens");
      expect(label).toContain("≈ $0.0094");
      expect(await page.locator("[data-testid=conversation-usage]").getAttribute("title")).toContain("conversation");
      expect(await horizontalOverflow(page)).toEqual([]);

      // The usage is persisted on the answers: a reload shows the same meters and total.
      await page.reload();
      await page.locator("[data-testid=message-details-toggle]").nth(1).waitFor({ timeout: 15_000 });
      await page.locator("[data-testid=usage-button]").waitFor({ timeout: 15_000 });
      await showMeters(page);
      await expect.poll(() => text(page, "[data-testid=token-meter]"), { timeout: 15_000 }).toEqual(meters);
      await expect.poll(() => text(page, "[data-testid=conversation-usage]")).toEqual([TOTAL]);

      if (viewport.name === "phone") {
        expect(await horizontalOverflow(page)).toEqual([]);
        await page.setViewportSize({ width: 360, height: 740 });
        await expect.poll(() => horizontalOverflow(page)).toEqual([]);
      } else {
        expect(await horizontalOverflow(page)).toEqual([]);
      }
    });
  });
}
