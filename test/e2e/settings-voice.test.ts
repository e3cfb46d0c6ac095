// Issue 41, items 11, 13 and part of 12, on a desktop and a phone. Settings: the theme has a section of
// its own (Appearance), what the agent is told is "Agent notices" (its old address still opens it), an
// Account section shows who is signed in, makes, lists and deletes API tokens (the token shown once,
// and working) and logs out, and Help says what Oracle is, how to start, what it can do and its
// version. Voice: the composer's microphone dictates into the message box (interim words shown, a
// second tap stops, a refused microphone said in words) and an answer is read aloud as plain text
// (with Stop), through a fake SpeechRecognition and a spy on speechSynthesis (headless Chromium has no
// microphone and no voices); where the browser has neither API, neither button shows and the voice
// chunk never loads. And /robots.txt is a robots file, and pages have a meta description.
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { marker, scriptModel } from "../support/fake-openai-client";
import {
  apiFromPage,
  DESKTOP_AND_PHONE,
  newConversationInBrowser,
  signUpInBrowser,
  useSharedFakeModelApp,
  viewportOptions,
  waitTurnEnded,
  withPage,
} from "./harness.ts";

const live = useSharedFakeModelApp();

/** Nothing wider than the window. */
const sideways = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth);

/** A tap target's size in CSS pixels. */
async function size(page: Page, selector: string) {
  const box = await page.locator(selector).boundingBox();
  if (!box) throw new Error(`${selector} is not shown`);
  return box;
}

/**
 * A SpeechRecognition the test drives (window.fakeRecognitions: every one made, with what it was set
 * to) and a speechSynthesis that records what it is asked to say (window.spoken) and stays "speaking"
 * until cancelled (window.cancels counts those).
 */
function fakeSpeech() {
  type Listener = ((event?: unknown) => void) | null;
  class FakeRecognition {
    lang = "";
    continuous = false;
    interimResults = false;
    started = false;
    stopped = false;
    onresult: Listener = null;
    onerror: Listener = null;
    onend: Listener = null;
    constructor() {
      (window as unknown as { fakeRecognitions: FakeRecognition[] }).fakeRecognitions.push(this);
    }
    start() {
      this.started = true;
    }
    stop() {
      this.stopped = true;
      setTimeout(() => this.onend?.(), 0);
    }
    abort() {
      this.stop();
    }
    /** Results as the browser gives them: every result so far, the changed ones from `resultIndex`. */
    hear(resultIndex: number, results: { transcript: string; final: boolean }[]) {
      const list = results.map((r) => Object.assign([{ transcript: r.transcript }], { isFinal: r.final }));
      this.onresult?.({ resultIndex, results: list });
    }
    fail(error: string) {
      this.onerror?.({ error });
      setTimeout(() => this.onend?.(), 0);
    }
  }
  const w = window as unknown as Record<string, unknown>;
  w.fakeRecognitions = [];
  w.webkitSpeechRecognition = FakeRecognition;
  w.SpeechRecognition = FakeRecognition;
  const spoken: string[] = [];
  let queue: SpeechSynthesisUtterance[] = [];
  w.spoken = spoken;
  w.cancels = 0;
  Object.defineProperty(window, "speechSynthesis", {
    configurable: true,
    value: {
      get speaking() {
        return queue.length > 0;
      },
      get pending() {
        return queue.length > 1;
      },
      speak(utterance: SpeechSynthesisUtterance) {
        spoken.push(utterance.text);
        queue.push(utterance);
      },
      cancel() {
        w.cancels = (w.cancels as number) + 1;
        const dropped = queue;
        queue = [];
        for (const utterance of dropped) utterance.onerror?.({ error: "interrupted" } as SpeechSynthesisErrorEvent);
      },
      getVoices: () => [],
    },
  });
}

/** A browser with neither API. */
function noSpeech() {
  const w = window as unknown as Record<string, unknown>;
  for (const name of ["SpeechRecognition", "webkitSpeechRecognition", "speechSynthesis"]) {
    delete w[name];
    delete (Window.prototype as unknown as Record<string, unknown>)[name];
  }
}

describe.each(DESKTOP_AND_PHONE)("at $width×$height ($name)", (viewport) => {
  const options = viewportOptions(viewport);

  it("sorts Settings into sections a user understands: Appearance, Agent notices, Account, Help", async () => {
    await withPage(live, `settings-sections-${viewport.name}`, options, async (page) => {
      const username = await signUpInBrowser(page);
      const tab = (name: string) => page.locator(`[data-testid=tab-${name}]`);

      // The theme is not an agent setting: Appearance has it, and it applies at once.
      await page.goto("/settings/agent");
      await page.locator("[data-testid=agent-settings]").waitFor({ timeout: 15_000 });
      expect(await page.locator("[data-testid=theme-setting]").count()).toBe(0);
      await tab("appearance").click();
      await page.waitForURL((url) => url.pathname === "/settings/appearance");
      await page.locator("[data-testid=theme-dark]").check();
      expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe("dark");

      // What the agent is told is called so; the old address opens it and shows the new one.
      expect(await tab("agent-notices").textContent()).toBe("Agent notices");
      await tab("agent-notices").click();
      const notices = page.locator("[data-testid=agent-notices]");
      await notices.waitFor({ timeout: 15_000 });
      expect(await notices.locator("h2").textContent()).toBe("Agent notices");
      expect(await notices.textContent()).toContain("What the agent is told while it works");
      await page.goto("/settings/notifications");
      await notices.waitFor({ timeout: 15_000 });
      await page.waitForURL((url) => url.pathname === "/settings/agent-notices");

      // Account: who is signed in, and a token made here works until it is deleted.
      await tab("account").click();
      await page.waitForURL((url) => url.pathname === "/settings/account");
      expect(await page.locator("[data-testid=account-username]").textContent()).toBe(username);
      await page.locator("[data-testid=api-tokens-empty]").waitFor({ timeout: 15_000 });
      await page.locator("[data-testid=api-token-name]").fill("backup script");
      await page.locator("[data-testid=api-token-create]").click();
      const secret = page.locator("[data-testid=api-token-secret]");
      await secret.waitFor({ timeout: 10_000 });
      const token = await secret.inputValue();
      expect(token).toMatch(/^ot_s\d+_[0-9a-f]{64}$/);
      const me = await page.request.get("/api/me", { headers: { authorization: `Bearer ${token}` } });
      expect(((await me.json()) as { user: { username: string } }).user.username).toBe(username);
      const row = page.locator("[data-testid=api-token][data-name='backup script']");
      expect(await row.textContent()).toContain("never used");
      expect(await sideways(page)).toBe(false);
      // Shown once: after Done, and after a reload, the token is nowhere on the page; its row says it was used.
      await page.locator("[data-testid=api-token-done]").click();
      await page.reload();
      await row.waitFor({ timeout: 15_000 });
      expect(await page.evaluate((t) => document.documentElement.outerHTML.includes(t), token)).toBe(false);
      expect(await row.textContent()).toContain("last used");
      await row.locator("[data-testid=api-token-delete]").click();
      await row.locator("[data-testid=api-token-delete-confirm]").click();
      await page.locator("[data-testid=api-tokens-empty]").waitFor({ timeout: 10_000 });
      const after = await page.request.get("/api/me", { headers: { authorization: `Bearer ${token}` } });
      expect(after.status()).toBe(401);
      expect((await apiFromPage<unknown[]>(page, "GET", "/api/tokens")).body).toEqual([]);

      // Help: more than shortcuts.
      await tab("help").click();
      for (const part of ["help-about", "help-start", "help-can", "shortcuts", "help-more"])
        expect(await page.locator(`[data-testid=${part}]`).isVisible(), part).toBe(true);
      expect(await page.locator("[data-testid=help-about]").textContent()).toContain("Oracle is a chat");
      expect(await page.locator("[data-testid=app-version]").textContent()).toMatch(/^Oracle \d+\.\d+\.\d+/);
      expect(await sideways(page)).toBe(false);

      // Log out from Account.
      await tab("account").click();
      await page.locator("[data-testid=account-logout]").click();
      await page.waitForURL((url) => url.pathname === "/login", { timeout: 10_000 });
      expect((await page.request.get("/api/me")).status()).toBe(401);
    });
  });

  it("dictates into the composer and reads an answer aloud; neither shows without the browser's API", async () => {
    await withPage(live, `voice-${viewport.name}`, options, async (page) => {
      await page.addInitScript(fakeSpeech);
      await signUpInBrowser(page);
      const id = await newConversationInBrowser(page);
      // The page may use the microphone (Permissions-Policy), or dictation could never be allowed.
      expect(
        await page.evaluate(() =>
          (document as { featurePolicy?: { allowsFeature(f: string): boolean } }).featurePolicy?.allowsFeature(
            "microphone",
          ),
        ),
      ).toBe(true);

      const input = page.locator("[data-testid=composer-input]");
      const mic = page.locator("[data-testid=dictate]");
      await mic.waitFor({ timeout: 10_000 });
      const micBox = await size(page, "[data-testid=dictate]");
      expect(Math.min(micBox.width, micBox.height)).toBeGreaterThanOrEqual(viewport.phone ? 44 : 30);
      expect(await mic.getAttribute("aria-label")).toBe("Dictate");

      // Typed words stay; what is heard follows them, interim words at once, then the final ones.
      await input.fill("Shopping:");
      await mic.click();
      const recognition = () =>
        page.evaluate(() => {
          const all = (window as unknown as { fakeRecognitions: Record<string, unknown>[] }).fakeRecognitions;
          const last = all.at(-1);
          return { count: all.length, started: last?.started, stopped: last?.stopped, interim: last?.interimResults };
        });
      expect(await recognition()).toMatchObject({ count: 1, started: true, interim: true });
      expect(await mic.getAttribute("data-listening")).toBe("true");
      expect(await mic.getAttribute("aria-label")).toBe("Stop dictation");
      const hear = (resultIndex: number, results: { transcript: string; final: boolean }[]) =>
        page.evaluate(
          ([index, list]) =>
            (window as unknown as { fakeRecognitions: { hear(i: number, r: typeof list): void }[] }).fakeRecognitions
              .at(-1)
              ?.hear(index, list),
          [resultIndex, results] as const,
        );
      await hear(0, [{ transcript: "buy mil", final: false }]);
      await expect.poll(() => input.inputValue()).toBe("Shopping: buy mil");
      await hear(0, [{ transcript: "buy milk", final: true }]);
      await hear(1, [
        { transcript: "buy milk", final: true },
        { transcript: " and eggs", final: true },
      ]);
      await expect.poll(() => input.inputValue()).toBe("Shopping: buy milk and eggs");
      // A second tap stops listening; the words stay.
      await mic.click();
      expect((await recognition()).stopped).toBe(true);
      await expect.poll(() => mic.getAttribute("data-listening")).toBe("false");
      expect(await input.inputValue()).toBe("Shopping: buy milk and eggs");

      // A refused microphone is said in words.
      await mic.click();
      await page.evaluate(() =>
        (window as unknown as { fakeRecognitions: { fail(e: string): void }[] }).fakeRecognitions
          .at(-1)
          ?.fail("not-allowed"),
      );
      const problem = page.locator("[data-testid=composer-error]");
      await problem.waitFor({ timeout: 5_000 });
      expect(await problem.textContent()).toMatch(/microphone.*permission was denied/);
      await expect.poll(() => mic.getAttribute("data-listening")).toBe("false");
      expect(await input.inputValue()).toBe("Shopping: buy milk and eggs");

      // The dictated message is sent as it stands (sending ends a dictation); the answer (Markdown) is
      // read aloud as plain text.
      const key = `voice-${viewport.name}-${Date.now().toString(36)}`;
      await scriptModel(live.llm.url, key, [
        { text: "**Milk** and `eggs` are on the [list](https://example.com/list).\n\n- Buy milk\n- Buy eggs" },
      ]);
      await input.press("End");
      await input.pressSequentially(` ${marker(key)}`);
      // Sending while listening ends the dictation.
      await mic.click();
      expect(await recognition()).toMatchObject({ count: 3, started: true, stopped: false });
      await page.locator("[data-testid=send]").click();
      await expect.poll(async () => (await recognition()).stopped).toBe(true);
      await expect.poll(() => mic.getAttribute("data-listening")).toBe("false");
      const answer = page.locator("[data-role=agent][data-phase=final]");
      await answer.waitFor({ timeout: 30_000 });
      await waitTurnEnded(page, id);
      const sent = await apiFromPage<{ messages: { role: string; content: string }[] }>(
        page,
        "GET",
        `/api/conversations/${id}/messages`,
      );
      expect(sent.body.messages.find((m) => m.role === "user")?.content).toBe(
        `Shopping: buy milk and eggs ${marker(key)}`,
      );
      const read = page.locator("[data-testid=read-aloud]").last();
      await read.waitFor({ timeout: 10_000 });
      const readBox = await size(page, "[data-testid=read-aloud] >> nth=-1");
      if (viewport.phone) expect(Math.min(readBox.width, readBox.height)).toBeGreaterThanOrEqual(44);
      await read.click();
      const spoken = () => page.evaluate(() => (window as unknown as { spoken: string[] }).spoken.join(" "));
      await expect.poll(spoken).toBe("Milk and eggs are on the list. Buy milk. Buy eggs.");
      expect(await read.textContent()).toBe("Stop reading");
      await read.click();
      expect(await page.evaluate(() => (window as unknown as { cancels: number }).cancels)).toBeGreaterThan(0);
      await expect.poll(() => read.textContent()).toBe("Read aloud");

      // A browser with neither API: no microphone, no Read aloud, and the voice chunk is never fetched.
      const plain = await page.context().newPage();
      await plain.addInitScript(noSpeech);
      await plain.goto(`/c/${encodeURIComponent(id)}`);
      await plain.locator("[data-role=agent][data-phase=final]").waitFor({ timeout: 15_000 });
      await plain.locator("[data-testid=copy-message]").last().waitFor();
      expect(await plain.locator("[data-testid=composer-input]").isVisible()).toBe(true);
      expect(await plain.locator("[data-testid=dictate]").count()).toBe(0);
      expect(await plain.locator("[data-testid=read-aloud]").count()).toBe(0);
      const chunks = await plain.evaluate(() => performance.getEntriesByType("resource").map((e) => e.name));
      expect(chunks.filter((name) => /\/assets\/voice-/.test(name))).toEqual([]);
      await plain.close();
    });
  });
});

// The server's answers (the same HTML at any size): once, on a desktop.
it("answers /robots.txt with a robots file, and every page with a description", async () => {
  await withPage(live, "robots", viewportOptions(DESKTOP_AND_PHONE[0]), async (page) => {
    const robots = await page.request.get("/robots.txt");
    expect(robots.status()).toBe(200);
    expect(robots.headers()["content-type"]).toMatch(/^text\/plain/);
    const rules = await robots.text();
    expect(rules).not.toMatch(/<html|<!doctype/i);
    expect(rules).toMatch(/^User-agent: \*$/m);
    for (const path of ["/api/", "/c/", "/settings"]) expect(rules).toContain(`Disallow: ${path}`);
    expect(rules).toMatch(/^Allow: \/login$/m);

    // The same description on every page: the signed-out pages and a deep link, which answer index.html.
    for (const path of ["/login", "/signup", "/settings/help"]) {
      await page.goto(path);
      await page.locator("[data-testid=auth-username]").waitFor({ timeout: 15_000 });
      const description = await page.locator("meta[name=description]").getAttribute("content");
      expect(description, path).toMatch(/^Oracle is .{40,150}$/);
    }
  });
});
