// Issue 26, themes, export and the installable app, on a desktop and on a phone (layout.test.ts holds 360 px):
//   - the page is light under a light system preference and dark under a dark one, and the Settings
//     switch (System / Light / Dark) overrides the system and survives a reload;
//   - the conversation's "⋯" menu (a menu button: Esc closes it and gives the focus back) exports the
//     conversation as Markdown holding each message's text and as JSON that parses back to every message
//     the messages API has, a System item included;
//   - the manifest is served as a manifest with the fields an install needs, the service worker
//     registers, and offline after one visit a reload shows the app's own "You're offline" state.
import type { Page } from "playwright-core";
import { expect, it } from "vitest";
import {
  apiFromPage,
  asNewUser,
  DESKTOP_AND_PHONE,
  newConversationInBrowser,
  sendChat,
  useSharedApp,
  viewportOptions,
  waitTurnEnded,
} from "./harness.ts";

const live = useSharedApp();

/** Relative luminance (WCAG) of a computed `rgb(r, g, b)` colour. */
function luminance(rgb: string): number {
  const [r = 0, g = 0, b = 0] = (rgb.match(/[\d.]+/g) ?? []).map(Number);
  const linear = (v: number) => {
    const c = v / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b);
}

/** The text colour of what `selector` names (the first match), and the background it is painted on. */
const colours = (page: Page, selector: string) =>
  page
    .locator(selector)
    .first()
    .evaluate((el) => {
      let painted: Element | null = el;
      while (painted && /^rgba\(.*, 0\)$|^transparent$/.test(getComputedStyle(painted).backgroundColor))
        painted = painted.parentElement;
      return {
        background: painted ? getComputedStyle(painted).backgroundColor : "rgb(255, 255, 255)",
        text: getComputedStyle(el).color,
      };
    });

/** Whether the page reads light (a light background with dark text) or dark (the opposite). */
async function scheme(page: Page, selector = "body"): Promise<"light" | "dark" | string> {
  const { background, text } = await colours(page, selector);
  const [bg, fg] = [luminance(background), luminance(text)];
  if (bg > 0.7 && fg < 0.1) return "light";
  if (bg < 0.05 && fg > 0.6) return "dark";
  return `neither: ${background} behind ${text} on ${selector}`;
}

async function themeFollowsSystemAndSwitch(page: Page): Promise<void> {
  expect(await page.evaluate(() => document.querySelector('meta[name="color-scheme"]')?.getAttribute("content"))).toBe(
    "light dark",
  );
  expect(await scheme(page)).toBe("light"); // the context prefers light
  await page.emulateMedia({ colorScheme: "dark" });
  expect(await scheme(page)).toBe("dark");

  // Settings: Light overrides the dark system, and stays after a reload.
  await page.goto("/settings/appearance");
  const light = page.locator("[data-testid=theme-light]");
  await light.waitFor({ timeout: 15_000 });
  expect(await page.locator("[data-testid=theme-system]").isChecked()).toBe(true);
  await light.check();
  expect(await scheme(page)).toBe("light");
  await page.reload();
  await light.waitFor({ timeout: 15_000 });
  expect(await light.isChecked()).toBe(true);
  expect(await scheme(page)).toBe("light");

  // Dark overrides a light system, also after a reload; System follows the system again.
  await page.emulateMedia({ colorScheme: "light" });
  await page.locator("[data-testid=theme-dark]").check();
  expect(await scheme(page)).toBe("dark");
  await page.reload();
  await light.waitFor({ timeout: 15_000 });
  expect(await page.locator("[data-testid=theme-dark]").isChecked()).toBe(true);
  expect(await scheme(page)).toBe("dark");
  await page.locator("[data-testid=theme-system]").check();
  expect(await scheme(page)).toBe("light");
}

/** The menu button pattern: it says it opens a menu, the menu takes the focus, Esc closes it and gives the focus back. */
async function menuButtonBehaves(page: Page): Promise<void> {
  const button = page.locator("[data-testid=conversation-menu-button]");
  expect(await button.getAttribute("aria-haspopup")).toBe("menu");
  expect(await button.getAttribute("aria-expanded")).toBe("false");
  await button.click();
  expect(await button.getAttribute("aria-expanded")).toBe("true");
  const menu = page.locator("[data-testid=conversation-menu][role=menu]");
  expect(await menu.locator("[role=menuitem]").allTextContents()).toEqual([
    "Share…",
    "Move to project…",
    "Export as Markdown",
    "Export as JSON",
  ]);
  await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute("role"))).toBe("menuitem");
  await page.keyboard.press("Escape");
  await menu.waitFor({ state: "detached" });
  expect(await button.getAttribute("aria-expanded")).toBe("false");
  expect(await page.evaluate(() => document.activeElement?.getAttribute("data-testid"))).toBe(
    "conversation-menu-button",
  );
}

/** Exports through the menu; answers the downloaded file's name and text. */
async function exportAs(page: Page, format: "md" | "json"): Promise<{ name: string; text: string }> {
  await page.locator("[data-testid=conversation-menu-button]").click();
  const [download] = await Promise.all([
    page.waitForEvent("download", { timeout: 15_000 }),
    page.locator(`[data-testid=export-${format}]`).click(),
  ]);
  // A stream, not path(): the browser is the shared one, over a connection.
  const chunks: Buffer[] = [];
  for await (const chunk of await download.createReadStream()) chunks.push(chunk as Buffer);
  return { name: download.suggestedFilename(), text: Buffer.concat(chunks).toString("utf8") };
}

type ApiMessage = { seq: number; role: string; content?: string };

async function exportsEveryMessage(page: Page): Promise<void> {
  const id = await newConversationInBrowser(page);
  // A #knowledge reference attaches the entry as a System item; the question makes the demo model call a tool.
  await sendChat(page, "What tasks are open? Use #oracle");
  await waitTurnEnded(page, id);
  await page.locator("[data-role=agent]").first().waitFor({ timeout: 15_000 });
  // A second version of the answer: the JSON keeps both, the Markdown is the one on screen.
  await page.locator("[data-testid=regenerate]").last().click();
  await page.locator("[data-testid=version-switcher]").first().waitFor({ timeout: 15_000 });
  await waitTurnEnded(page, id);
  const read = (view: string) =>
    apiFromPage<{ messages: ApiMessage[]; leaf_seq: number }>(
      page,
      "GET",
      `/api/conversations/${encodeURIComponent(id)}/messages?limit=1000&view=${view}`,
    );
  const [api, tree] = [await read("path"), await read("tree")];
  expect(api.status).toBe(200);
  const messages = api.body.messages;
  expect(messages.map((m) => m.role)).toEqual(expect.arrayContaining(["user", "agent", "system"]));
  const otherVersion = tree.body.messages.filter((m) => !messages.some((shown) => shown.seq === m.seq));
  expect(otherVersion.length).toBeGreaterThan(0);

  await menuButtonBehaves(page);

  const json = await exportAs(page, "json");
  expect(json.name).toMatch(/^[a-z0-9-]+\.json$/);
  const parsed = JSON.parse(json.text) as { conversation: { id: string }; leaf_seq: number; messages: ApiMessage[] };
  expect(parsed.conversation.id).toBe(id);
  expect(parsed.messages).toEqual(tree.body.messages);
  expect(parsed.leaf_seq).toBe(api.body.leaf_seq);

  const markdown = await exportAs(page, "md");
  expect(markdown.name).toMatch(/^[a-z0-9-]+\.md$/);
  expect(markdown.name.replace(/\.md$/, "")).toBe(json.name.replace(/\.json$/, ""));
  for (const message of messages) {
    expect(markdown.text).toContain(`· #${message.seq}\n`);
    if (message.role === "user" || message.role === "agent") expect(markdown.text).toContain(message.content);
  }
  expect(markdown.text).toMatch(/### System · Knowledge/);
  for (const message of otherVersion) expect(markdown.text).not.toContain(`· #${message.seq}\n`);

  // The chat, in light, has no dark islands: the bubbles, the System card and the composer are light too.
  await page.emulateMedia({ colorScheme: "light" });
  for (const selector of ["[data-testid=chat]", "[data-role=system]", "[data-testid=composer-input]"]) {
    expect(await scheme(page, selector)).toBe("light");
  }
}

async function opensOffline(page: Page): Promise<void> {
  // The worker registers, caches the shell and takes control of the page (clients.claim).
  await expect
    .poll(() => page.evaluate(() => navigator.serviceWorker.controller?.scriptURL ?? null), { timeout: 15_000 })
    .toMatch(/\/sw\.js$/);
  const context = page.context();
  await context.setOffline(true);
  try {
    await page.reload();
    const offline = page.locator("[data-testid=offline]");
    await offline.waitFor({ timeout: 15_000 });
    expect(await offline.textContent()).toContain("You're offline");
    expect(await page.locator("[data-testid=auth-form], [role=alert]").count()).toBe(0);
  } finally {
    await context.setOffline(false);
  }
  // Back online, the app carries on by itself.
  await page.locator("[data-testid=shell]").waitFor({ timeout: 15_000 });
}

for (const viewport of DESKTOP_AND_PHONE) {
  it(`themes, export and offline at ${viewport.width}×${viewport.height} (${viewport.name})`, async () => {
    const options = {
      ...viewportOptions(viewport),
      colorScheme: "light" as const,
      serviceWorkers: "allow" as const,
    };
    await asNewUser(live, `theme-export-pwa-${viewport.width}`, options, async (page) => {
      await themeFollowsSystemAndSwitch(page);
      await exportsEveryMessage(page);
      await opensOffline(page);
    });
  });
}

it("serves the web app manifest, its icons and the service worker", async () => {
  const { url } = live.app;
  const html = await (await fetch(`${url}/`)).text();
  expect(html).toContain('<link rel="manifest" href="/manifest.webmanifest"');
  expect(html).toContain('<link rel="apple-touch-icon"');
  expect(html).toMatch(/<meta name="theme-color" media="\(prefers-color-scheme: light\)"/);
  expect(html).toMatch(/<meta name="theme-color" media="\(prefers-color-scheme: dark\)"/);

  const res = await fetch(`${url}/manifest.webmanifest`);
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toContain("application/manifest+json");
  const manifest = (await res.json()) as {
    name: string;
    short_name: string;
    start_url: string;
    display: string;
    theme_color: string;
    background_color: string;
    icons: { src: string; sizes: string; type: string; purpose?: string }[];
  };
  expect(manifest).toMatchObject({ name: "Oracle", short_name: "Oracle", start_url: "/", display: "standalone" });
  expect(manifest.theme_color).toMatch(/^#[0-9a-f]{6}$/i);
  expect(manifest.background_color).toMatch(/^#[0-9a-f]{6}$/i);
  const sizes = manifest.icons.map((icon) => `${icon.sizes} ${icon.purpose ?? "any"}`);
  expect(sizes).toEqual(expect.arrayContaining(["192x192 any", "512x512 any", "512x512 maskable"]));
  for (const icon of manifest.icons) {
    const png = await fetch(new URL(icon.src, url));
    expect(png.headers.get("content-type"), icon.src).toBe("image/png");
    const bytes = new Uint8Array(await png.arrayBuffer());
    // The PNG's own width and height (IHDR) are what the manifest says.
    const view = new DataView(bytes.buffer);
    expect(`${view.getUint32(16)}x${view.getUint32(20)}`, icon.src).toBe(icon.sizes);
  }

  const sw = await fetch(`${url}/sw.js`);
  expect(sw.headers.get("content-type")).toContain("javascript");
  expect(sw.headers.get("cache-control")).toContain("no-cache");
  // Named after the build, so a deploy replaces the cached shell.
  expect(await sw.text()).toMatch(/const BUILD_VERSION = "[0-9a-f]{12}";/);
});
