// Issue 43, "Your account is yours", in the browser (Settings → Account → Your data, 1280 px): the
// download shows how many conversations it has written as the zip streams in (the connection slowed
// so it takes a few seconds) and saves the zip; a new account imports that zip and gets the
// conversations, notes and tasks; then a ChatGPT export, whose regenerated answer comes in as a second
// version. What the archive holds message by message is test/workers/account-data.test.ts.
import { readFileSync } from "node:fs";
import path from "node:path";
import { strFromU8, unzipSync } from "fflate";
import type { Page } from "playwright-core";
import { expect, it } from "vitest";
import { ROOT } from "./app.ts";
import { apiFromPage, asNewUser, useSharedApp } from "./harness.ts";

const live = useSharedApp();
const DESKTOP = { viewport: { width: 1280, height: 800 } };

/** Every text the element shows while it is in the page, recorded by the page itself. */
async function recordTexts(page: Page, testid: string): Promise<void> {
  await page.evaluate((id) => {
    const seen: string[] = [];
    (window as unknown as { seen: string[] }).seen = seen;
    new MutationObserver(() => {
      const text = document.querySelector(`[data-testid=${id}]`)?.textContent;
      if (text && seen.at(-1) !== text) seen.push(text);
    }).observe(document.body, { subtree: true, childList: true, characterData: true });
  }, testid);
}

it("downloads everything with its progress, and the zip brings it all back into a new account", async () => {
  let zip: Buffer | undefined;
  await asNewUser(live, "account-export", DESKTOP, async (page) => {
    for (const title of ["Trip to Lisbon", "Reading list", "Garden", "Taxes"])
      expect((await apiFromPage(page, "POST", "/api/conversations", { title })).status).toBe(201);
    await apiFromPage(page, "PUT", "/api/notes/travel/lisbon.md", { content: "Pack light." });
    await apiFromPage(page, "POST", "/api/tasks", { title: "Book the train" });

    await page.goto("/settings/account");
    await page.locator("[data-testid=your-data]").waitFor({ timeout: 15_000 });
    await recordTexts(page, "export-progress");
    // A slow connection, so the zip arrives over a few seconds and its progress can be seen moving.
    const cdp = await page.context().newCDPSession(page);
    await cdp.send("Network.enable");
    await cdp.send("Network.emulateNetworkConditions", {
      offline: false,
      latency: 20,
      downloadThroughput: 2_000,
      uploadThroughput: -1,
    });
    const [download] = await Promise.all([
      page.waitForEvent("download", { timeout: 60_000 }),
      page.locator("[data-testid=export-start]").click(),
    ]);
    await cdp.send("Network.emulateNetworkConditions", {
      offline: false,
      latency: 0,
      downloadThroughput: -1,
      uploadThroughput: -1,
    });
    expect(download.suggestedFilename()).toMatch(/^oracle-export-.+\.zip$/);
    const chunks: Buffer[] = [];
    for await (const chunk of await download.createReadStream()) chunks.push(chunk as Buffer);
    zip = Buffer.concat(chunks);
    await page.locator("[data-testid=export-done]").waitFor();
    expect(await page.locator("[data-testid=export-done]").textContent()).toMatch(
      /^Saved oracle-export-.+\.zip \(\d+ KB\)\.$/,
    );

    // It said how far it had got, the count moving up to the total.
    const seen = await page.evaluate(() => (window as unknown as { seen: string[] }).seen);
    const counts = seen.flatMap((text) => /Exporting… (\d) of 4 conversations/.exec(text)?.[1] ?? []).map(Number);
    expect(counts.length, seen.join(" | ")).toBeGreaterThan(1);
    expect(counts.some((n) => n < 4)).toBe(true);
    expect(counts).toEqual([...counts].sort());
  });

  const files = unzipSync(new Uint8Array(zip ?? []));
  expect(Object.keys(files).filter((name) => /^oracle-export\/conversations\/[^/]+\.json$/.test(name))).toHaveLength(4);
  expect(strFromU8(files["oracle-export/notes/travel/lisbon.md"] ?? new Uint8Array())).toBe("Pack light.");

  await asNewUser(live, "account-import", DESKTOP, async (page) => {
    await page.goto("/settings/account");
    await page
      .locator("[data-testid=import-oracle-file]")
      .setInputFiles({ name: "export.zip", mimeType: "application/zip", buffer: zip ?? Buffer.alloc(0) });
    await page.locator("[data-testid=import-oracle-start]").click();
    const done = page.locator("[data-testid=import-oracle-done]");
    await done.waitFor({ timeout: 30_000 });
    expect(await done.textContent()).toContain("Imported 4 conversations (0 messages), 1 note, 1 task");
    // The sidebar (hidden beside Settings) lists them without a reload.
    for (const title of ["Trip to Lisbon", "Taxes"])
      await page
        .locator("[data-testid=conversation-item]", { hasText: title })
        .first()
        .waitFor({ state: "attached", timeout: 10_000 });
    const note = await apiFromPage<{ content: string }>(page, "GET", "/api/notes/travel/lisbon.md");
    expect(note.body.content).toBe("Pack light.");

    // A ChatGPT export: its regenerated answer is the version shown, the first one a click away.
    const chatgpt = readFileSync(path.join(ROOT, "test/support/chatgpt-conversations.json"));
    await page
      .locator("[data-testid=import-chatgpt-file]")
      .setInputFiles({ name: "conversations.json", mimeType: "application/json", buffer: chatgpt });
    await page.locator("[data-testid=import-chatgpt-start]").click();
    const imported = page.locator("[data-testid=import-chatgpt-done]");
    await imported.waitFor({ timeout: 30_000 });
    expect(await imported.textContent()).toContain("Imported 2 conversations (11 messages) from ChatGPT");
    const list = await apiFromPage<{ id: string; title: string }[]>(page, "GET", "/api/conversations");
    await page.goto(`/c/${list.body.find((c) => c.title === "Packing for Lisbon")?.id}`);
    await page.getByText("Pack layers: T-shirts, a light jacket").waitFor({ timeout: 15_000 });
    expect(await page.locator("[data-testid=version-count]").first().textContent()).toContain("2");
    await page.locator("[data-testid=version-previous]").first().click();
    await page.getByText("Light layers, a rain jacket and comfortable shoes.").waitFor({ timeout: 10_000 });
  });
});
