// Issue 46, the chat's side of the web tools, on a desktop and on a phone: the fake model searches the
// web (web_search, through the app's SearXNG: the fake of test/support/fake-search.ts), reads a page
// (web_fetch, test/support/web-fixtures.ts) and answers citing [1] and [2]; then
//  - each citation is a superscript link to its source's page (new tab, no referrer, "title — site"),
//    a number that is no source and a `[1]` in code stay as written;
//  - the answer lists its Sources (number, site, title linking to the page); nothing is fetched from
//    the pages' sites (no favicon);
//  - the tool cards say what was searched and read ("Searched the web for “…”", "Read … · site") and,
//    opened, list the results as links;
//  - all of it is the same after a reload and on the conversation's share page;
//  - Settings → Web: the switches, the server's provider named, and the user's own provider (a key
//    refused without it, saved, shown as saved, forgotten).
// This file keeps an app of its own: the shared apps have no search provider (SEARCH_PROVIDER and
// SEARCH_URL point at this file's fake search server, started before the app).
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { WebSource } from "../../protocol";
import { type FakeOpenAI, startFakeOpenAI } from "../support/fake-openai.ts";
import { marker, scriptModel } from "../support/fake-openai-client.ts";
import { type FakeSearch, startFakeSearch } from "../support/fake-search.ts";
import { startWebFixtures } from "../support/web-fixtures.ts";
import {
  type App,
  type AppAndBrowser,
  apiFromPage,
  asNewUser,
  DESKTOP_AND_PHONE,
  fakeModelEnv,
  newConversationInBrowser,
  sendChat,
  sharedBrowser,
  startApp,
  viewportOptions,
  waitTurnEnded,
  withPage,
} from "./harness.ts";

const live = {} as AppAndBrowser<App> & { llm: { url: string } };
let llm: FakeOpenAI | undefined;
let search: FakeSearch | undefined;
let fixtures: Awaited<ReturnType<typeof startWebFixtures>> | undefined;

beforeAll(async () => {
  const [model, searxng, pages] = await Promise.all([startFakeOpenAI(), startFakeSearch(), startWebFixtures()]);
  [llm, search, fixtures] = [model, searxng, pages];
  live.llm = { url: model.url };
  live.app = await startApp({
    direct: true,
    env: fakeModelEnv(model, { SEARCH_PROVIDER: "searxng", SEARCH_URL: searxng.base("searxng") }),
  });
  live.browser = await sharedBrowser();
});

afterAll(async () => {
  await live.browser?.close();
  await live.app?.stop();
  await Promise.all([llm?.close(), search?.close(), fixtures?.close()]);
});

const QUERY = "river levels";
const ANSWER = "The guide covers it [1]. Beginners start here [2]. Step [9] is no source, and `a[1]` is code.";

type Row = Record<string, unknown> & { role: string; tool?: string; result?: unknown; sources?: WebSource[] };

async function pathMessages(page: Page, id: string): Promise<Row[]> {
  const res = await apiFromPage<{ messages: Row[] }>(page, "GET", `/api/conversations/${id}/messages`);
  expect(res.status).toBe(200);
  return res.body.messages;
}

const finals = (page: Page) => page.locator("[data-role=agent][data-phase=final]");

/** What the page shows of an answer's citations and Sources. */
async function citationsAndSources(page: Page) {
  const answer = finals(page).last();
  await answer.locator("[data-testid=citation]").first().waitFor({ timeout: 15_000 });
  await answer.locator("[data-testid=sources] [data-testid=source]").first().waitFor({ timeout: 15_000 });
  const citations = await answer.locator("[data-testid=citation]").evaluateAll((links) =>
    links.map((a) => ({
      n: a.textContent,
      href: a.getAttribute("href"),
      target: a.getAttribute("target"),
      rel: a.getAttribute("rel"),
      title: a.getAttribute("title"),
      sup: a.parentElement?.tagName,
    })),
  );
  const sources = await answer.locator("[data-testid=source]").evaluateAll((items) =>
    items.map((li) => {
      const link = li.querySelector("a");
      return {
        n: li.getAttribute("data-n"),
        site: li.querySelector("[data-testid=source-site]")?.textContent,
        title: li.querySelector("[data-testid=source-title]")?.textContent,
        href: link?.getAttribute("href"),
        target: link?.getAttribute("target"),
        rel: link?.getAttribute("rel"),
      };
    }),
  );
  const text = (await answer.locator("[data-testid=markdown]").textContent()) ?? "";
  const code = await answer.locator("[data-testid=markdown] code").allTextContents();
  return { citations, sources, text, code };
}

/** What the page must show for `sources` (the answer's, as the API gives them). */
function expected(sources: WebSource[]) {
  const rel = "noopener noreferrer";
  return {
    citations: sources.map((s) => ({
      n: String(s.n),
      href: s.url,
      target: "_blank",
      rel,
      title: `${s.title} — ${s.site}`,
      sup: "SUP",
    })),
    sources: sources.map((s) => ({
      n: String(s.n),
      site: s.site,
      title: s.title,
      href: s.url,
      target: "_blank",
      rel,
    })),
  };
}

async function expectCited(page: Page, sources: WebSource[]) {
  const shown = await citationsAndSources(page);
  expect({ citations: shown.citations, sources: shown.sources }).toEqual(expected(sources));
  // A number that names no source, and a bracket in code, stay as they were written.
  expect(shown.text).toContain("Step [9] is no source");
  expect(shown.code).toEqual(["a[1]"]);
}

/** Nothing sideways: the page is no wider than the window. */
const overflows = (page: Page) =>
  page.evaluate(
    () => document.documentElement.scrollWidth > window.innerWidth || document.body.scrollWidth > window.innerWidth,
  );

/** Share… from the conversation's menu, Create link: the new link's address. */
async function createLink(page: Page): Promise<string> {
  await page.locator("[data-testid=conversation-menu-button]").click();
  await page.locator("[data-testid=share-conversation]").click();
  const dialog = page.locator("[data-testid=share-dialog]");
  await dialog.waitFor({ timeout: 5_000 });
  await page.locator("[data-testid=share-create]").click();
  await dialog.locator("[data-testid=share-row]").first().waitFor({ timeout: 10_000 });
  const link = await page.locator("[data-testid=share-link]").inputValue();
  await page.keyboard.press("Escape");
  return link;
}

describe.each(DESKTOP_AND_PHONE)("on a $name", (viewport) => {
  const options = viewportOptions(viewport);

  it("links an answer's citations to its sources, lists them, says what was searched and read; after a reload and on its share page too", async () => {
    await asNewUser(live, `web-sources-${viewport.name}`, options, async (page) => {
      const foreign: string[] = [];
      page.on("request", (request) => {
        if (new URL(request.url()).origin !== new URL(live.app.url).origin) foreign.push(request.url());
      });
      const id = await newConversationInBrowser(page);
      const key = `web-sources-${viewport.name}-${Date.now().toString(36)}`;
      const article = `${fixtures?.url}/article`;
      await scriptModel(live.llm.url, key, [
        { tool_calls: [{ name: "web_search", arguments: { query: QUERY } }] },
        { tool_calls: [{ name: "web_fetch", arguments: { url: article } }] },
        { text: ANSWER },
      ]);
      await sendChat(page, `How are the rivers? ${marker(key)}`);
      await finals(page).first().waitFor({ timeout: 30_000 });
      await waitTurnEnded(page, id);

      // The search went to the app's provider, and the answer cites the first two results it numbered.
      expect(search?.requests.some((r) => r.provider === "searxng" && r.query?.q === QUERY)).toBe(true);
      const messages = await pathMessages(page, id);
      type Result = { n: number; url: string; title: string; site: string };
      const searched = messages.find((m) => m.role === "tool" && m.tool === "web_search");
      const results = (searched?.result as { results?: Result[] } | undefined)?.results ?? [];
      expect(results.length).toBeGreaterThanOrEqual(2);
      const answer = messages.findLast((m) => m.role === "agent");
      const sources = answer?.sources ?? [];
      expect(sources).toEqual(
        [1, 2].map((n) => {
          const r = results.find((result) => result.n === n);
          return { n, url: r?.url, title: r?.title, site: r?.site };
        }),
      );
      expect(sources.map((s) => new URL(s.url).host)).toEqual(["docs.example.org", "blog.example.com"]);

      await expectCited(page, sources);
      expect(await overflows(page)).toBe(false);
      // A citation is a link the keyboard reaches.
      const first = finals(page).last().locator("[data-testid=citation]").first();
      await first.focus();
      expect(await page.evaluate(() => document.activeElement?.getAttribute("data-testid"))).toBe("citation");

      // The tool cards, in the turn's folded steps: what was searched and read, in words.
      await page.locator("[data-testid=turn-group-toggle]").first().click();
      const searchCard = page.locator("[data-role=tool][data-tool=web_search]");
      await searchCard.waitFor({ timeout: 10_000 });
      expect(await searchCard.locator("[data-testid=web-call-title]").textContent()).toBe(
        `Searched the web for “${QUERY}”`,
      );
      expect(await searchCard.locator("[data-testid=web-call-count]").textContent()).toBe(`${results.length} results`);
      await searchCard.locator("summary").first().click();
      const resultLinks = searchCard.locator("[data-testid=web-result] a");
      await resultLinks.first().waitFor();
      expect(await resultLinks.evaluateAll((links) => links.map((a) => a.getAttribute("href")))).toEqual(
        results.map((r) => r.url),
      );
      const readCard = page.locator("[data-role=tool][data-tool=web_fetch]");
      expect(await readCard.getAttribute("data-status")).toBe("success");
      expect(await readCard.locator("[data-testid=web-call-title]").textContent()).toMatch(
        /^Read (.+ · )?127\.0\.0\.1$/,
      );
      expect(await overflows(page)).toBe(false);

      // After a reload, from the server's copy.
      await page.reload();
      await finals(page).first().waitFor({ timeout: 15_000 });
      await expectCited(page, sources);

      // On the share page, to anyone with the link.
      const link = await createLink(page);
      await withPage(live, `web-sources-shared-${viewport.name}`, options, async (visitor) => {
        await visitor.goto(link);
        await visitor.locator("[data-testid=shared-page][data-status=ready]").waitFor({ timeout: 15_000 });
        await expectCited(visitor, sources);
        expect(await overflows(visitor)).toBe(false);
      });

      // No favicon or anything else came from the pages' sites.
      expect(foreign).toEqual([]);
    });
  });

  it("Settings → Web: switches, the server's provider, and the user's own provider and key", async () => {
    await asNewUser(live, `web-settings-${viewport.name}`, options, async (page) => {
      await page.goto("/settings/web");
      const section = page.locator("[data-testid=web-settings]");
      await section.waitFor({ timeout: 15_000 });
      expect(await page.locator("[data-testid=tab-web]").getAttribute("aria-current")).toBe("page");
      const read = page.locator("[data-testid=web-fetch]");
      const find = page.locator("[data-testid=web-search]");
      expect(await read.isChecked()).toBe(true);
      expect(await find.isChecked()).toBe(true);
      expect(await page.locator("#web-search-hint").textContent()).toBe(
        "Searches go through this server's provider, SearXNG.",
      );

      // A switch saves itself.
      await read.setChecked(false);
      await expect
        .poll(async () => (await apiFromPage<{ fetch: boolean }>(page, "GET", "/api/settings/web")).body.fetch)
        .toBe(false);
      await page.reload();
      await section.waitFor();
      expect(await read.isChecked()).toBe(false);

      // The user's own provider: a key is required, shown under its field; saved, it shows as saved.
      await page.locator("[data-testid=web-provider]").selectOption("brave");
      await page.locator("[data-testid=web-provider-save]").click();
      await expect
        .poll(() => page.locator("[data-testid=web-search-key-error]").textContent())
        .toBe("Brave Search needs an API key");
      await page.locator("[data-testid=web-search-key]").fill("brave-key-of-the-test");
      await page.locator("[data-testid=web-provider-save]").click();
      await page.locator("[data-testid=web-provider-saved]").waitFor({ timeout: 10_000 });
      expect(await page.locator("label[for=web-search-key]").textContent()).toBe("API key (saved)");
      expect(await page.locator("[data-testid=web-search-key]").inputValue()).toBe("");
      expect(await page.locator("#web-search-hint").textContent()).toBe(
        "Searches go through your own provider, Brave Search.",
      );
      const saved = (await apiFromPage<Record<string, unknown>>(page, "GET", "/api/settings/web")).body;
      expect(saved).toMatchObject({ search_provider: "brave", search_key_set: true });
      expect(JSON.stringify(saved)).not.toContain("brave-key-of-the-test");
      expect(await overflows(page)).toBe(false);

      // Forgotten: without its key, Brave cannot be used, so searches go back to the server's.
      await page.locator("[data-testid=web-key-forget]").click();
      await expect
        .poll(() => page.locator("[data-testid=web-provider-saved]").textContent())
        .toBe("The key is forgotten.");
      expect(await page.locator("[data-testid=web-provider]").inputValue()).toBe("");
      expect((await apiFromPage(page, "GET", "/api/settings/web")).body).toMatchObject({
        search_provider: null,
        search_key_set: false,
      });
    });
  });
});
