// Markdown in the chat, as a person sees it: a scripted model answer with bold, lists, a task list, a
// table, a code fence, a quote and links renders as those elements; the code block's Copy button puts
// the code on the clipboard; text streamed with an unclosed fence already shows a code block; a knowledge
// entry's text (a system item) renders as Markdown too; the user's own text stays literal. And the
// XSS payloads a model (or a prompt injection) could write are inert: no script runs, no dialog opens,
// no <img>/<script> element is created, and javascript:/data: links are not links.
import type { Page } from "playwright-core";
import { expect, it } from "vitest";
import { marker, scriptModel } from "../support/fake-openai-client";
import {
  apiFromPage,
  newConversationInBrowser,
  sendChat,
  signUpInBrowser,
  useSharedFakeModelApp,
  waitTurnEnded,
  withPage,
} from "./harness.ts";

const live = useSharedFakeModelApp();

const CODE = 'const greeting = "hi";\nif (1 < 2 && 3 > 2) console.log(greeting);';

const ANSWER = [
  "## Summary",
  "",
  "This is **very important** and _emphasised_, with `inline code`.",
  "",
  "- first item",
  "- second item",
  "",
  "1. step one",
  "2. step two",
  "",
  "- [x] done task",
  "- [ ] open task",
  "",
  "| Name | Value |",
  "|------|------:|",
  "| alpha | 1 |",
  "| <img src=x onerror=\"window.__xss='table'\"> | <b onclick=\"window.__xss='b'\">raw</b> |",
  "",
  "```ts",
  CODE,
  "```",
  "",
  "> a wise quote",
  "",
  "A [safe link](https://example.com/docs) and <https://auto.example/path> and [mail](mailto:someone@example.com).",
  "",
  "Unsafe: [js link](javascript:window.__xss='js') and [data link](data:text/html,<script>alert(1)</script>)",
  "and [vb link](vbscript:msgbox(1)) and [rel link](/api/me) and ![cat picture](https://img.example/cat.png).",
  "",
  "<img src=x onerror=\"window.__xss='img';alert('img')\">",
  "",
  "<script>window.__xss='script';alert('script')</script>",
  "",
  'Inline <svg onload="window.__xss=\'svg\'"></svg> and <iframe src="javascript:alert(1)"></iframe> end.',
].join("\n");

/** A new user on a page of their own (1200×900, with the clipboard) whose dialogs are dismissed and recorded. */
const asNewUserRecordingDialogs = (name: string, run: (page: Page, dialogs: string[]) => Promise<void>) =>
  withPage(live, name, { viewport: { width: 1200, height: 900 }, clipboard: true }, async (page) => {
    const dialogs: string[] = [];
    page.on("dialog", (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
    await signUpInBrowser(page);
    await run(page, dialogs);
  });

it("renders a model answer's Markdown as elements, with every XSS payload inert", async () => {
  await asNewUserRecordingDialogs("markdown-answer", async (page, dialogs) => {
    const id = await newConversationInBrowser(page);
    const key = `md-${Date.now().toString(36)}`;
    await scriptModel(live.llm.url, key, [{ text: ANSWER }]);
    await sendChat(page, `Show me **literal** markdown ${marker(key)}`);
    const answer = page.locator("[data-role=agent][data-phase=final]").first();
    await answer.waitFor({ timeout: 30_000 });
    await waitTurnEnded(page, id);
    const md = answer.locator("[data-testid=markdown]");

    // The elements.
    expect(await md.locator("h2").textContent()).toBe("Summary");
    expect(await md.locator("strong").first().textContent()).toBe("very important");
    expect(await md.locator("em").first().textContent()).toBe("emphasised");
    expect(await md.locator("p code").first().textContent()).toBe("inline code");
    expect(await md.locator("ul > li").allTextContents()).toEqual(
      expect.arrayContaining(["first item", "second item"]),
    );
    expect(await md.locator("ol > li").allTextContents()).toEqual(["step one", "step two"]);
    const boxes = md.locator("li input[type=checkbox]");
    expect(await boxes.count()).toBe(2);
    expect(await boxes.evaluateAll((els) => els.map((e) => (e as HTMLInputElement).checked))).toEqual([true, false]);
    expect(await md.locator("table th").allTextContents()).toEqual(["Name", "Value"]);
    expect(await md.locator("table tbody tr").count()).toBe(2);
    expect(await md.locator("table tbody tr").first().locator("td").allTextContents()).toEqual(["alpha", "1"]);
    expect(await md.locator("blockquote").textContent()).toContain("a wise quote");
    const block = md.locator("[data-testid=code-block]");
    expect(await block.count()).toBe(1);
    expect(await block.locator("[data-testid=code-lang]").textContent()).toBe("ts");
    expect(await block.locator("pre code").textContent()).toBe(CODE);

    // Safe links: real anchors that open in a new tab without handing over the opener or referrer.
    const anchors = await md.locator("a").evaluateAll((els) =>
      els.map((a) => ({
        href: a.getAttribute("href"),
        text: a.textContent,
        target: a.getAttribute("target"),
        rel: a.getAttribute("rel"),
      })),
    );
    expect(anchors.map((a) => a.href)).toEqual([
      "https://example.com/docs",
      "https://auto.example/path",
      "mailto:someone@example.com",
      "https://img.example/cat.png",
    ]);
    for (const a of anchors) {
      expect(a.target).toBe("_blank");
      expect(a.rel).toBe("noopener noreferrer");
    }
    // The image is a link labelled with its alt text, never loaded.
    expect(anchors[3]?.text).toContain("cat picture");

    // Unsafe links are their text, not anchors.
    const text = (await md.textContent()) ?? "";
    for (const label of ["js link", "data link", "vb link", "rel link"]) {
      expect(text).toContain(label);
      expect(await md.locator("a", { hasText: label }).count()).toBe(0);
    }
    // Raw HTML is shown as text: no element of it exists, nothing ran.
    expect(text).toContain("<script>");
    expect(text).toContain("<img src=x");
    expect(await answer.locator("img, script, svg, iframe, b[onclick], [onerror], [onload]").count()).toBe(0);
    expect(await page.locator("[data-testid=message-list] img, [data-testid=message-list] script").count()).toBe(0);
    const hrefs = await page
      .locator("[data-testid=message-list] a")
      .evaluateAll((els) => els.map((a) => a.getAttribute("href") ?? ""));
    for (const href of hrefs) expect(href).toMatch(/^(https?:|mailto:)/);
    await page.waitForTimeout(500); // an onerror would have fired by now
    expect(await page.evaluate(() => (window as unknown as { __xss?: string }).__xss)).toBeUndefined();
    expect(dialogs).toEqual([]);

    // The user's own text stays literal.
    const user = page.locator("[data-role=user]").first();
    expect(await user.textContent()).toContain("Show me **literal** markdown");
    expect(await user.locator("strong").count()).toBe(0);

    // Copy puts the code on the clipboard and says so.
    const copy = block.locator("[data-testid=code-copy]");
    expect(await copy.textContent()).toBe("Copy");
    await copy.click();
    await expect.poll(() => copy.textContent()).toBe("Copied");
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(CODE);
    await expect.poll(() => copy.textContent(), { timeout: 5000 }).toBe("Copy");

    // The same after a reload (the persisted message renders the same way).
    await page.reload();
    const again = page.locator("[data-role=agent][data-phase=final] [data-testid=markdown]").first();
    await again.locator("table").waitFor({ timeout: 15_000 });
    expect(await again.locator("img, script, svg, iframe").count()).toBe(0);
    expect(await page.evaluate(() => (window as unknown as { __xss?: string }).__xss)).toBeUndefined();
    expect(dialogs).toEqual([]);
  });
});

it("renders streamed text as Markdown while it streams: an unclosed fence is already a code block", async () => {
  await asNewUserRecordingDialogs("markdown-stream", async (page) => {
    const id = await newConversationInBrowser(page);
    const key = `md-stream-${Date.now().toString(36)}`;
    await scriptModel(live.llm.url, key, [
      {
        text: ["Here is **the code**:\n\n", "```py\n", "print('one')\n", "print('two')\n", "```\n\nDone."],
        chunk_delay_ms: 700,
      },
    ]);
    await sendChat(page, `Stream some code ${marker(key)}`);
    const streaming = page.locator("[data-testid=streaming]");
    // Before the fence is closed, the streamed text already shows bold text and a code block.
    await streaming.locator("[data-testid=code-block] pre").waitFor({ timeout: 30_000 });
    expect(await streaming.locator("strong").textContent()).toBe("the code");
    expect(await streaming.locator("[data-testid=code-lang]").textContent()).toBe("py");
    expect(await streaming.textContent()).not.toContain("```");
    await waitTurnEnded(page, id);
    const answer = page.locator("[data-role=agent][data-phase=final] [data-testid=markdown]").first();
    await answer.waitFor({ timeout: 15_000 });
    expect(await answer.locator("pre code").textContent()).toBe("print('one')\nprint('two')");
    // Issue 26: the finished block is highlighted (Python is one of the highlighted languages).
    await answer.locator("pre code .hljs-built_in").first().waitFor({ timeout: 15_000 });
    expect(await answer.locator("p").last().textContent()).toBe("Done.");
  });
});

it("renders a system item's text (a knowledge entry) as Markdown, its HTML as text", async () => {
  await asNewUserRecordingDialogs("markdown-chip", async (page, dialogs) => {
    const saved = await apiFromPage(page, "PUT", "/api/knowledge/md-style", {
      title: "Markdown style",
      body: "Use **bold** for key terms.\n\n- one\n- two\n\n<img src=x onerror=\"window.__xss='chip'\">",
    });
    expect(saved.status).toBeLessThan(300);
    const id = await newConversationInBrowser(page);
    const key = `md-chip-${Date.now().toString(36)}`;
    await scriptModel(live.llm.url, key, [{ text: "Noted." }]);
    await sendChat(page, `Follow #md-style please ${marker(key)}`);
    await waitTurnEnded(page, id);
    const chip = page.locator("[data-role=system][data-kind=knowledge] [data-testid=knowledge-chip]");
    await chip.waitFor({ timeout: 15_000 });
    await chip.locator("summary").click();
    const body = chip.locator("[data-testid=chip-body]");
    await body.waitFor({ state: "visible" });
    expect(await body.locator("strong").textContent()).toBe("bold");
    expect(await body.locator("li").allTextContents()).toEqual(["one", "two"]);
    expect(await body.textContent()).toContain("<img src=x");
    expect(await body.locator("img").count()).toBe(0);
    expect(await page.evaluate(() => (window as unknown as { __xss?: string }).__xss)).toBeUndefined();
    expect(dialogs).toEqual([]);
  });
});
