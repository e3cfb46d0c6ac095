// Issue 26, code, maths and footnotes in answers, on a desktop and a phone (which also checks 360 px): a fenced ```ts block is
// highlighted (highlight.js spans), $…$ and $$…$$ are rendered by KaTeX (no literal "$E = mc^2$" left),
// a footnote reference links to its note in the notes at the end, hostile TeX (\href{javascript:…},
// \htmlClass) stays inert, and all of it works under the app's CSP (KaTeX's fonts and styles included).
// An answer with neither code nor maths (prices in dollars included) loads neither the highlight nor the
// KaTeX chunk: they are fetched only with the first answer that needs them.
import type { Page } from "playwright-core";
import { expect, it } from "vitest";
import { marker, scriptModel } from "../support/fake-openai-client";
import {
  asNewUser,
  DESKTOP_AND_PHONE,
  newConversationInBrowser,
  sendChat,
  useSharedFakeModelApp,
  viewportOptions,
  waitTurnEnded,
} from "./harness.ts";

const live = useSharedFakeModelApp();

const PLAIN = "Just **words** here: it costs $5 and $10, or US$15.\n\n- no code\n- no maths";

const CODE = "interface Point { x: number }\nconst origin: Point = { x: 0 };\nexport function f() { return origin; }";

const RICH = [
  "Einstein wrote $E = mc^2$ in 1905.[^1]",
  "",
  "$$",
  "\\int_0^1 x^2\\,dx = \\frac{1}{3}",
  "$$",
  "",
  "```ts",
  CODE,
  "```",
  "",
  "Hostile: $\\href{javascript:window.__xss='href'}{click}$ and $\\htmlClass{pwned}{y}$ and $\\url{javascript:alert(1)}$.",
  "",
  "[^1]: Annalen der Physik, **18**, 639.",
].join("\n");

/** The lazy chunks' files, as Vite names them (client/src/components/markdown/lazy.ts). */
const CHUNKS = {
  highlight: /\/assets\/highlight-[\w-]+\.js$/,
  katex: /\/assets\/katex-[\w-]+\.js$/,
  katexCss: /\/assets\/katex-[\w-]+\.css$/,
  font: /\/assets\/KaTeX_[\w-]+\.woff2$/,
};

/** Every request the page makes under /assets/, and every CSP violation it reports. */
async function watch(page: Page): Promise<{ assets: string[]; violations: string[] }> {
  const assets: string[] = [];
  const violations: string[] = [];
  page.on("request", (request) => {
    const url = new URL(request.url());
    if (url.pathname.startsWith("/assets/")) assets.push(url.pathname);
  });
  page.on("console", (message) => {
    if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
  });
  await page.exposeFunction("reportViolation", (text: string) => violations.push(text));
  await page.addInitScript(() => {
    document.addEventListener("securitypolicyviolation", (e) => {
      (window as unknown as { reportViolation: (t: string) => void }).reportViolation(
        `${e.violatedDirective} blocked ${e.blockedURI}`,
      );
    });
  });
  return { assets, violations };
}

const loaded = (assets: string[], pattern: RegExp) => assets.filter((a) => pattern.test(a));

for (const viewport of DESKTOP_AND_PHONE) {
  it(`renders code, maths and footnotes at ${viewport.width}×${viewport.height} (${viewport.name}), loading their chunks only when needed`, async () => {
    const options = viewportOptions(viewport);
    await asNewUser(live, `rich-markdown-${viewport.width}`, options, async (page) => {
      const { assets, violations } = await watch(page);
      const dialogs: string[] = [];
      page.on("dialog", (d) => {
        dialogs.push(d.message());
        void d.dismiss();
      });
      const id = await newConversationInBrowser(page);
      const answers = page.locator("[data-role=agent][data-phase=final] [data-testid=markdown]");

      // An answer without code or maths: prices stay text, and neither chunk is fetched.
      // One script, one step per turn: the fake model answers by the first marker in the conversation.
      const key = `rich-${viewport.width}-${Date.now().toString(36)}`;
      await scriptModel(live.llm.url, key, [{ text: PLAIN }, { text: RICH }]);
      await sendChat(page, `Something plain ${marker(key)}`);
      await answers.first().locator("ul").waitFor({ timeout: 30_000 });
      await waitTurnEnded(page, id);
      await page.waitForLoadState("networkidle");
      expect(await answers.first().textContent()).toContain("it costs $5 and $10, or US$15.");
      expect(await answers.first().locator(".katex, [data-testid=math]").count()).toBe(0);
      for (const pattern of Object.values(CHUNKS)) expect(loaded(assets, pattern), String(pattern)).toEqual([]);

      // An answer with code, maths and a footnote.
      await sendChat(page, "Something rich");
      const answer = answers.nth(1);
      await answer.waitFor({ timeout: 30_000 });
      await waitTurnEnded(page, id);

      // Code: highlight.js spans around the exact text.
      const code = answer.locator("[data-testid=code-block] pre code");
      await code.locator(".hljs-keyword").first().waitFor({ timeout: 15_000 });
      expect(await code.locator(".hljs-keyword").allTextContents()).toEqual(
        expect.arrayContaining(["interface", "const", "export", "function", "return"]),
      );
      expect(await code.textContent()).toBe(CODE);
      const keywordColour = await code
        .locator(".hljs-keyword")
        .first()
        .evaluate((el) => getComputedStyle(el).color);
      const plainColour = await code.evaluate((el) => getComputedStyle(el).color);
      expect(keywordColour).not.toBe(plainColour);

      // Maths: KaTeX, inline and display; the TeX delimiters are gone from what is shown.
      await answer.locator(".katex-display").first().waitFor({ timeout: 15_000 });
      expect(await answer.locator(".katex").count()).toBeGreaterThanOrEqual(2);
      const shown = (await answer.textContent()) ?? "";
      expect(shown).not.toContain("$E = mc^2$");
      expect(shown).not.toContain("$$");
      expect(await answer.locator("math annotation").first().textContent()).toBe("E = mc^2");
      // KaTeX's fonts and stylesheet loaded (not blocked): a formula's glyphs use KaTeX_Main/Math.
      const fontFamily = await answer
        .locator(".katex .mord.mathnormal")
        .first()
        .evaluate((el) => getComputedStyle(el).fontFamily);
      expect(fontFamily).toContain("KaTeX_Math");
      await expect.poll(() => page.evaluate(() => document.fonts.check("1em KaTeX_Math"))).toBe(true);

      // Hostile TeX: shown as KaTeX's error text, no link, no class of its choosing, nothing ran.
      expect(await answer.locator("a[href^='javascript:'], .pwned, [onclick]").count()).toBe(0);
      expect(shown).toContain("\\href");

      // The footnote: a numbered reference linking to its note in the notes at the end.
      const ref = answer.locator("[data-testid=footnote-ref]");
      expect(await ref.textContent()).toBe("1");
      const href = (await ref.getAttribute("href")) ?? "";
      expect(href).toMatch(/^#.+/);
      const note = answer.locator(`[data-testid=footnotes] li[id="${href.slice(1)}"]`);
      expect(await note.textContent()).toContain("Annalen der Physik, 18, 639.");
      expect(await note.locator("strong").textContent()).toBe("18");
      const urlBefore = page.url();
      await ref.click();
      await expect.poll(() => page.evaluate(() => document.activeElement?.id ?? "")).toBe(href.slice(1));
      expect(page.url()).toBe(urlBefore);
      const box = await note.boundingBox();
      expect((box?.y ?? -1) >= 0 && (box?.y ?? 1e9) < viewport.height).toBe(true);
      // And back.
      await note.locator("[data-testid=footnote-back]").click();
      await expect
        .poll(() => page.evaluate(() => document.activeElement?.getAttribute("data-testid")))
        .toBe("footnote-ref");

      // The chunks came with this answer, each once; nothing was blocked, nothing ran, nothing overflows.
      expect(loaded(assets, CHUNKS.highlight)).toHaveLength(1);
      expect(loaded(assets, CHUNKS.katex)).toHaveLength(1);
      expect(loaded(assets, CHUNKS.katexCss)).toHaveLength(1);
      expect(loaded(assets, CHUNKS.font).length).toBeGreaterThan(0);
      expect(violations).toEqual([]);
      expect(dialogs).toEqual([]);
      expect(await page.evaluate(() => (window as unknown as { __xss?: string }).__xss)).toBeUndefined();
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
      if (viewport.phone) {
        // Nor on the narrowest phone (the same page narrowed to 360 px: a context of its own cost a whole run).
        await page.setViewportSize({ width: 360, height: 740 });
        await expect.poll(() => page.evaluate(() => window.innerWidth)).toBe(360);
        expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
      }
    });
  });
}
