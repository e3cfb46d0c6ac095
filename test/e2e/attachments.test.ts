// Issue 45, the client side of files in the conversation, on a desktop and on a phone, with the fake
// model (the shared app runs with OPENAI_IMAGE_INPUT=true, test/e2e/app.ts):
//  - attach by the paperclip's picker, by a drop on the conversation (its overlay), by a paste of an
//    image; each file a chip with its name, size and upload progress; a type or a size that is not
//    accepted, and an 11th file, refused in words before anything is uploaded; a chip removed while it
//    uploads stops its upload, one removed after is deleted;
//  - sent, the model's request carries the image as an image part and the PDF's text; the message shows
//    thumbnails (the full-size view opens, Esc closes it) and a PDF chip; the document's System message
//    is one line;
//  - Edit keeps the message's files as chips, and one removed there is left out of the new version;
//  - a model that cannot see images is named under the composer before sending, until Settings →
//    Models says it reads images;
//  - a share link shows the files through its own address only when its owner included them;
//  - nothing a file holds runs: an SVG and an HTML page with scripts, and an HTML page named photo.png,
//    opened by their addresses, run nothing (a marker server of the test's own is never called) and
//    are served as the contract says.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Page, WebSocketRoute } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fileSizeWords } from "../../protocol";
import { marker, modelRequests, scriptModel } from "../support/fake-openai-client";
import { makePdf } from "../support/pdf-fixture";
import { makePng } from "../support/png-fixture";
import {
  apiFromPage,
  asNewUser,
  DESKTOP_AND_PHONE,
  newConversationInBrowser,
  useSharedFakeModelApp,
  viewportOptions,
  waitTurnEnded,
  withPage,
} from "./harness.ts";

const live = useSharedFakeModelApp();

/** A loopback server that counts every request: a script that ran would call it. */
let markerServer: Server;
let markerUrl = "";
const markerHits: string[] = [];

beforeAll(async () => {
  markerServer = createServer((req, res) => {
    markerHits.push(req.url ?? "");
    res.writeHead(204, { "access-control-allow-origin": "*" }).end();
  });
  await new Promise<void>((resolve) => markerServer.listen(0, "127.0.0.1", resolve));
  markerUrl = `http://127.0.0.1:${(markerServer.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => markerServer?.close(resolve));
});

const input = (page: Page) => page.locator("[data-testid=attach-input]");
const chips = (page: Page) => page.locator("[data-testid=attachment-chip]");
const chip = (page: Page, name: string) =>
  page.locator(`[data-testid=attachment-chip][data-name=${JSON.stringify(name)}]`);
const refusals = (page: Page) => page.locator("[data-testid=attach-refusal]");
const finals = (page: Page) => page.locator("[data-role=agent][data-phase=final]");

/** The names of the files the page asked to upload (`POST /api/files?name=…`), and the ids it deleted. */
function watchFileRequests(page: Page) {
  const posted: string[] = [];
  const deleted: string[] = [];
  const aborted: string[] = [];
  page.on("request", (request) => {
    const url = new URL(request.url());
    if (request.method() === "POST" && url.pathname === "/api/files") posted.push(url.searchParams.get("name") ?? "");
    if (request.method() === "DELETE" && url.pathname.startsWith("/api/files/")) deleted.push(url.pathname.slice(11));
  });
  page.on("requestfailed", (request) => {
    const url = new URL(request.url());
    if (url.pathname === "/api/files") aborted.push(url.searchParams.get("name") ?? "");
  });
  return { posted, deleted, aborted };
}

/** Files given to the page's drop target in a drop event built in the page (`files`: name, type, text or size in bytes). */
async function dropFiles(page: Page, files: { name: string; type: string; text?: string; bytes?: number }[]) {
  await page.evaluate((given) => {
    const transfer = new DataTransfer();
    for (const f of given)
      transfer.items.add(new File([f.text ?? new Uint8Array(f.bytes ?? 0)], f.name, { type: f.type }));
    Object.assign(window, { testDrop: transfer });
    const target = document.querySelector("[data-testid=message-list]");
    target?.dispatchEvent(new DragEvent("dragenter", { bubbles: true, cancelable: true, dataTransfer: transfer }));
    target?.dispatchEvent(new DragEvent("dragover", { bubbles: true, cancelable: true, dataTransfer: transfer }));
  }, files);
  const overlay = page.locator("[data-testid=drop-overlay]");
  await overlay.waitFor({ timeout: 5_000 });
  expect(await overlay.textContent()).toContain("Drop files to attach");
  await page.evaluate(() => {
    const transfer = (window as unknown as { testDrop: DataTransfer }).testDrop;
    const target = document.querySelector("[data-testid=message-list]");
    target?.dispatchEvent(new DragEvent("drop", { bubbles: true, cancelable: true, dataTransfer: transfer }));
  });
  await overlay.waitFor({ state: "detached", timeout: 5_000 });
}

/** A paste of an image from the clipboard into the composer, as a screenshot tool leaves it ("image.png"). */
async function pasteImage(page: Page, png: Buffer) {
  await page.locator("[data-testid=composer-input]").focus();
  await page.evaluate((base64) => {
    const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
    const transfer = new DataTransfer();
    transfer.items.add(new File([bytes], "image.png", { type: "image/png" }));
    document
      .querySelector("[data-testid=composer-input]")
      ?.dispatchEvent(new ClipboardEvent("paste", { bubbles: true, cancelable: true, clipboardData: transfer }));
  }, png.toString("base64"));
}

/** Slows the page's uploads (Chromium's own throttling), so an upload's progress can be seen; 0 lifts it. */
async function throttleUploads(page: Page, bytesPerSecond: number) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Network.enable");
  await cdp.send("Network.emulateNetworkConditions", {
    offline: false,
    latency: 0,
    downloadThroughput: -1,
    uploadThroughput: bytesPerSecond || -1,
  });
}

/** Every message of the conversation's current path, as the API gives it. */
async function pathMessages(page: Page, id: string) {
  const res = await apiFromPage<{ messages: Record<string, unknown>[] }>(
    page,
    "GET",
    `/api/conversations/${id}/messages`,
  );
  expect(res.status).toBe(200);
  return res.body.messages;
}

/** What is wider than the window (nothing may scroll sideways). */
const overflow = (page: Page) =>
  page.evaluate(
    () => document.documentElement.scrollWidth > window.innerWidth || document.body.scrollWidth > window.innerWidth,
  );

/** Visible controls inside `scope` smaller than 44 × 44 px (a touch screen's targets). */
const smallTargets = (page: Page, scope: string) =>
  page.evaluate(
    (scope) =>
      [...document.querySelectorAll<HTMLElement>(`${scope} :is(button, a[href], summary, input, select, textarea)`)]
        .filter((el) => el.getClientRects().length > 0 && !el.closest("[data-testid=markdown]"))
        .map((el) => ({ el, box: el.getBoundingClientRect() }))
        .filter(({ box }) => box.width < 43.5 || box.height < 43.5)
        .map(
          ({ el, box }) =>
            `${el.dataset.testid ?? el.textContent?.trim()} ${Math.round(box.width)}×${Math.round(box.height)}`,
        ),
    scope,
  );

describe.each(DESKTOP_AND_PHONE)("on a $name", (viewport) => {
  const options = viewportOptions(viewport);

  it("attaches by picker, drop and paste, refuses before uploading, sends files the model reads, shows them", async () => {
    await asNewUser(live, `attachments-${viewport.name}`, options, async (page) => {
      const requests = watchFileRequests(page);
      const id = await newConversationInBrowser(page);
      const key = `attach-${viewport.name}-${Date.now().toString(36)}`;
      await scriptModel(live.llm.url, key, [{ text: "Revenue grew, and the chart is red." }]);
      const pdf = Buffer.from(await makePdf([["Quarterly revenue grew 12%"]]));
      const red = makePng(8, 8, [220, 30, 30]);

      // The paperclip is a named button, reached by Tab; its picker takes several files, camera included.
      const button = page.getByRole("button", { name: "Attach files" });
      await button.waitFor();
      expect(await input(page).getAttribute("multiple")).not.toBeNull();
      const accept = (await input(page).getAttribute("accept")) ?? "";
      expect(accept.split(",")).toEqual(expect.arrayContaining([".png", ".pdf", ".md", "image/*"]));

      // Picked: an image and a PDF, each a chip with its name and size, ready once uploaded.
      await input(page).setInputFiles([
        { name: "chart.png", mimeType: "image/png", buffer: red },
        { name: "report.pdf", mimeType: "application/pdf", buffer: pdf },
      ]);
      await chip(page, "chart.png").and(page.locator("[data-status=ready]")).waitFor({ timeout: 15_000 });
      await chip(page, "report.pdf").and(page.locator("[data-status=ready]")).waitFor({ timeout: 15_000 });
      expect(await chip(page, "report.pdf").textContent()).toBe(`report.pdf${fileSizeWords(pdf.length)}`);
      expect(await chip(page, "chart.png").locator("img").count()).toBe(1);
      expect(await page.getByRole("button", { name: "Remove report.pdf" }).count()).toBe(1);

      // Refused before anything is sent: a type the server does not take, a file over the limit.
      await input(page).setInputFiles([
        { name: "notes.docx", mimeType: "application/msword", buffer: Buffer.from("PK") },
      ]);
      await expect
        .poll(() => refusals(page).allTextContents())
        .toEqual(["notes.docx: this type of file can't be attached. Images, PDFs and text files can."]);
      await dropFiles(page, [{ name: "video.png", type: "image/png", bytes: 31 * 1024 * 1024 }]);
      await expect
        .poll(() => refusals(page).allTextContents())
        .toEqual(["video.png is 31 MB; files can be at most 20 MB."]);
      expect(requests.posted).toEqual(["chart.png", "report.pdf"]);

      // Dropped on the conversation: a Markdown file; removed once uploaded, it is deleted.
      await dropFiles(page, [{ name: "notes.md", type: "text/markdown", text: "# Notes\nSecond line\n" }]);
      await chip(page, "notes.md").and(page.locator("[data-status=ready]")).waitFor({ timeout: 15_000 });
      expect(await refusals(page).count()).toBe(0);
      await page.getByRole("button", { name: "Remove notes.md" }).click();
      await chip(page, "notes.md").waitFor({ state: "detached" });
      await expect.poll(() => requests.deleted.length).toBe(1);

      // Pasted: a screenshot without a name of its own.
      await pasteImage(page, makePng(4, 4, [30, 30, 220]));
      const pasted = chips(page).filter({ hasText: /pasted-image-.*\.png/ });
      await pasted.and(page.locator("[data-status=ready]")).waitFor({ timeout: 15_000 });

      // Uploading slowly: the chip shows its progress; removed meanwhile, the upload stops.
      await throttleUploads(page, 64 * 1024);
      await input(page).setInputFiles([{ name: "big.png", mimeType: "image/png", buffer: makePng(300, 300) }]);
      const progress = chip(page, "big.png").locator("[role=progressbar]");
      await progress.waitFor({ timeout: 10_000 });
      expect(await progress.getAttribute("aria-label")).toBe("Uploading big.png");
      await expect
        .poll(async () => Number(await progress.getAttribute("aria-valuenow")), { timeout: 10_000 })
        .toBeGreaterThan(0);
      // Send waits while a file uploads.
      expect(await page.locator("[data-testid=send]").isDisabled()).toBe(true);
      await page.getByRole("button", { name: "Remove big.png" }).click();
      await chip(page, "big.png").waitFor({ state: "detached" });
      await expect.poll(() => requests.aborted).toContain("big.png");
      await throttleUploads(page, 0);

      // At most 10 files in one message: the 11th is refused, and nothing is sent for it.
      if (!viewport.phone) {
        const texts = Array.from({ length: 8 }, (_, i) => ({
          name: `part-${i + 1}.txt`,
          mimeType: "text/plain",
          buffer: Buffer.from(`Part ${i + 1}\n`),
        }));
        await input(page).setInputFiles(texts);
        await expect.poll(() => refusals(page).allTextContents()).toEqual(["At most 10 files in one message."]);
        await expect.poll(() => chips(page).count()).toBe(10);
        expect(requests.posted).not.toContain("part-8.txt");
        // Taken off again, each is deleted.
        for (let i = 1; i <= 7; i++) {
          await chip(page, `part-${i}.txt`).and(page.locator("[data-status=ready]")).waitFor({ timeout: 15_000 });
          await page.getByRole("button", { name: `Remove part-${i}.txt` }).click();
        }
        await expect.poll(() => requests.deleted.length).toBe(8);
      }
      await expect.poll(() => chips(page).count()).toBe(3);
      expect(await overflow(page)).toBe(false);

      // Sent: the model reads the images as image parts and the PDF's text.
      await page.locator("[data-testid=composer-input]").fill(`What do these say? ${marker(key)}`);
      await page.locator("[data-testid=send]").click();
      await finals(page).first().waitFor({ timeout: 30_000 });
      await waitTurnEnded(page, id);
      expect(await chips(page).count()).toBe(0);
      const [request] = await modelRequests(live.llm.url, key);
      const sent = JSON.stringify(request?.body.messages);
      const images = sent.match(/data:image\/png;base64,/g) ?? [];
      expect(images.length).toBe(2);
      expect(sent).toContain('"type":"image_url"');
      expect(sent).toContain("Quarterly revenue grew 12%");
      expect(sent).not.toContain("Second line"); // the removed file never reached the model

      // The message: two thumbnails and the PDF's chip; the document's System message in one line.
      const user = page.locator("[data-role=user]").last();
      const thumbnails = user.locator("[data-testid=attachment-thumbnail] img");
      await expect.poll(() => thumbnails.count()).toBe(2);
      expect(await thumbnails.first().getAttribute("alt")).toBe("chart.png");
      expect(await thumbnails.first().getAttribute("loading")).toBe("lazy");
      expect(await thumbnails.first().getAttribute("src")).toMatch(/^\/api\/files\/[^/]+\/content$/);
      await expect.poll(() => thumbnails.first().evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(8);
      const pdfChip = user.locator("[data-testid=attachment-file][data-kind=pdf]");
      expect(await pdfChip.locator("[data-testid=attachment-file-name]").textContent()).toBe("report.pdf");
      expect(await pdfChip.locator("[data-testid=attachment-file-meta]").textContent()).toMatch(/^PDF · 1 page · /);
      const download = pdfChip.locator("[data-testid=attachment-download]");
      expect(await download.getAttribute("href")).toMatch(/^\/api\/files\/[^/]+\/content\?download=1$/);
      const open = pdfChip.locator("[data-testid=attachment-open]");
      expect(await open.getAttribute("target")).toBe("_blank");
      expect(await open.getAttribute("rel")).toContain("noopener");
      await page.locator("[data-testid=attached-file]").waitFor();
      expect(await page.locator("[data-testid=attached-file]").textContent()).toContain("Read report.pdf · 1 page");

      // The full-size view: opened from the thumbnail, Esc closes it and the thumbnail has the focus again.
      await user.locator("[data-testid=attachment-thumbnail]").first().click();
      const viewer = page.locator("[data-testid=image-viewer]");
      await viewer.waitFor();
      expect(await viewer.locator("[data-testid=image-viewer-image]").getAttribute("alt")).toBe("chart.png");
      await expect
        .poll(() => page.evaluate(() => document.activeElement?.getAttribute("data-testid")))
        .toBe("image-viewer-close");
      // Tab stays inside it.
      for (let i = 0; i < 3; i++) await page.keyboard.press("Tab");
      expect(await page.evaluate(() => !!document.activeElement?.closest("[data-testid=image-viewer]"))).toBe(true);
      await page.keyboard.press("Escape");
      await viewer.waitFor({ state: "detached" });
      expect(await page.evaluate(() => document.activeElement?.getAttribute("data-testid"))).toBe(
        "attachment-thumbnail",
      );

      expect(await overflow(page)).toBe(false);
      if (viewport.phone) expect(await smallTargets(page, "[data-testid=message-list]")).toEqual([]);
    });
  });
});

it("keeps a message's files when it is edited, leaving out one removed there", async () => {
  await asNewUser(live, "attachments-edit", viewportOptions(DESKTOP_AND_PHONE[0]), async (page) => {
    const id = await newConversationInBrowser(page);
    const key = `attach-edit-${Date.now().toString(36)}`;
    await scriptModel(live.llm.url, key, [{ text: "First." }, { text: "Second." }]);
    await input(page).setInputFiles([
      { name: "chart.png", mimeType: "image/png", buffer: makePng(4, 4, [0, 200, 0]) },
      { name: "data.csv", mimeType: "text/csv", buffer: Buffer.from("city,count\nOslo,3\nLima,5\n") },
    ]);
    await expect
      .poll(() => page.locator("[data-testid=attachment-chip][data-status=ready]").count(), { timeout: 15_000 })
      .toBe(2);
    await page.locator("[data-testid=composer-input]").fill(`Look ${marker(key)}`);
    await page.locator("[data-testid=send]").click();
    await finals(page).first().waitFor({ timeout: 30_000 });
    await waitTurnEnded(page, id);

    // Edit: the files are there as chips; the CSV is taken off, the text changed.
    await page.locator("[data-testid=edit-message]").click();
    const form = page.locator("[data-testid=edit-form]");
    await form.locator("[data-testid=attachment-chip]").nth(1).waitFor();
    expect(await form.locator("[data-testid=attachment-chip-name]").allTextContents()).toEqual([
      "chart.png",
      "data.csv",
    ]);
    await form.getByRole("button", { name: "Remove data.csv" }).click();
    await page.locator("[data-testid=edit-input]").fill(`Look again ${marker(key)}`);
    await page.locator("[data-testid=edit-save]").click();
    await expect
      .poll(() => finals(page).allTextContents(), { timeout: 30_000 })
      .toContainEqual(expect.stringContaining("Second."));
    await waitTurnEnded(page, id);

    const messages = await pathMessages(page, id);
    const users = messages.filter((m) => m.role === "user") as { content: string; attachments?: { name: string }[] }[];
    expect(users.at(-1)?.content).toContain("Look again");
    expect(users.at(-1)?.attachments?.map((a) => a.name)).toEqual(["chart.png"]);
    const requests = await modelRequests(live.llm.url, key);
    const second = JSON.stringify(requests.at(-1)?.body.messages);
    expect(second).toContain("data:image/png;base64,");
    expect(second).not.toContain("Oslo");
    // The new version shows its one file.
    const user = page.locator("[data-role=user]").last();
    await expect.poll(() => user.locator("[data-testid=attachment-thumbnail]").count()).toBe(1);
    expect(await user.locator("[data-testid=attachment-file]").count()).toBe(0);
  });
});

it("says before sending that a model cannot see images, until Settings → Models says it reads them", async () => {
  await asNewUser(live, "attachments-blind", viewportOptions(DESKTOP_AND_PHONE[0]), async (page) => {
    const provider = await apiFromPage<{ id: string }>(page, "POST", "/api/providers", {
      name: "Text only",
      base_url: `${live.llm.url}/v1`,
      style: "chat",
      models: [{ id: "text-model", context_window: 8192 }],
    });
    expect(provider.status).toBe(201);
    const id = await newConversationInBrowser(page);
    const set = await apiFromPage(page, "PATCH", `/api/conversations/${id}`, {
      model: { provider_id: provider.body.id, model: "text-model" },
    });
    expect(set.status).toBe(200);
    await page.reload();
    await page.locator("[data-testid=model-picker][data-model=text-model]").waitFor({ timeout: 15_000 });

    const warning = page.locator("[data-testid=image-model-warning]");
    await input(page).setInputFiles([{ name: "notes.txt", mimeType: "text/plain", buffer: Buffer.from("hello\n") }]);
    await chip(page, "notes.txt").and(page.locator("[data-status=ready]")).waitFor({ timeout: 15_000 });
    expect(await warning.count()).toBe(0); // a text file is read by every model
    await input(page).setInputFiles([{ name: "photo.png", mimeType: "image/png", buffer: makePng(4, 4, [9, 9, 9]) }]);
    await warning.waitFor();
    expect(await warning.textContent()).toBe("text-model can't see images: it will get only the file's name.");

    // Settings → Models: "Reads images" for the model, saved.
    await page.goto("/settings/models");
    const row = page.locator("[data-testid=provider-model][data-model=text-model]");
    await row.waitFor({ timeout: 15_000 });
    await row.getByLabel("Reads images").check();
    await page.locator("[data-testid=provider-models-save]").click();
    await page.locator("[data-testid=provider-models-status]", { hasText: "Saved." }).waitFor({ timeout: 10_000 });
    const saved = await apiFromPage<{ models: { id: string; image_input?: boolean }[] }>(
      page,
      "GET",
      `/api/providers/${provider.body.id}`,
    );
    expect(saved.body.models[0]?.image_input).toBe(true);

    // Back in the chat, an image raises no warning.
    await page.goto(`/c/${id}`);
    await input(page).setInputFiles([{ name: "photo.png", mimeType: "image/png", buffer: makePng(4, 4, [9, 9, 9]) }]);
    await chip(page, "photo.png").and(page.locator("[data-status=ready]")).waitFor({ timeout: 15_000 });
    expect(await warning.count()).toBe(0);
  });
});

it("shows a share link's files through the link's own address, and only their names without include_files", async () => {
  await asNewUser(live, "attachments-share", viewportOptions(DESKTOP_AND_PHONE[0]), async (page) => {
    const id = await newConversationInBrowser(page);
    const key = `attach-share-${Date.now().toString(36)}`;
    await scriptModel(live.llm.url, key, [{ text: "Seen." }]);
    await input(page).setInputFiles([
      { name: "chart.png", mimeType: "image/png", buffer: makePng(6, 6, [200, 200, 0]) },
      { name: "report.pdf", mimeType: "application/pdf", buffer: Buffer.from(await makePdf([["Shared text"]])) },
    ]);
    await expect
      .poll(() => page.locator("[data-testid=attachment-chip][data-status=ready]").count(), { timeout: 15_000 })
      .toBe(2);
    await page.locator("[data-testid=composer-input]").fill(`Share these ${marker(key)}`);
    await page.locator("[data-testid=send]").click();
    await finals(page).first().waitFor({ timeout: 30_000 });
    await waitTurnEnded(page, id);

    // Two links from the share dialog: one with the files, one without.
    const links: Record<string, string> = {};
    for (const withFiles of [true, false]) {
      await page.locator("[data-testid=conversation-menu-button]").click();
      await page.locator("[data-testid=share-conversation]").click();
      const dialog = page.locator("[data-testid=share-dialog]");
      await dialog.waitFor();
      await dialog.locator("[data-testid=share-include-files]").setChecked(withFiles);
      await dialog.locator("[data-testid=share-create]").click();
      const created = dialog.locator("[data-testid=share-created]");
      await created.waitFor();
      links[String(withFiles)] = (await created.getAttribute("data-share-id")) ?? "";
      await dialog.locator("[data-testid=share-close]").click();
      await dialog.waitFor({ state: "detached" });
    }
    const shares = await apiFromPage<{ shares: { id: string; include_files?: boolean }[] }>(page, "GET", "/api/shares");
    expect(shares.body.shares.find((s) => s.id === links.true)?.include_files).toBe(true);
    expect(shares.body.shares.find((s) => s.id === links.false)?.include_files).toBe(false);

    // Read by someone without an account.
    await withPage(live, "attachments-share-reader", viewportOptions(DESKTOP_AND_PHONE[1]), async (reader) => {
      const asked: string[] = [];
      reader.on("request", (r) => asked.push(new URL(r.url()).pathname));
      await reader.goto(`/s/${links.true}`);
      await reader.locator("[data-testid=shared-page][data-status=ready]").waitFor({ timeout: 15_000 });
      const thumbnail = reader.locator("[data-testid=attachment-thumbnail] img");
      await thumbnail.waitFor();
      expect(await thumbnail.getAttribute("src")).toMatch(new RegExp(`^/api/shared/${links.true}/files/[^/]+$`));
      await expect.poll(() => thumbnail.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(6);
      const pdfLink = reader.locator("[data-testid=attachment-file][data-kind=pdf] [data-testid=attachment-download]");
      expect(await pdfLink.getAttribute("href")).toMatch(
        new RegExp(`^/api/shared/${links.true}/files/[^/]+\\?download=1$`),
      );

      await reader.goto(`/s/${links.false}`);
      await reader.locator("[data-testid=shared-page][data-status=ready]").waitFor({ timeout: 15_000 });
      const names = reader.locator("[data-testid=attachment-file]");
      await expect.poll(() => names.count()).toBe(2);
      expect(await reader.locator("[data-testid=attachment-file-name]").allTextContents()).toEqual([
        "chart.png",
        "report.pdf",
      ]);
      expect(await reader.locator("[data-testid=message-files] img").count()).toBe(0);
      expect(await reader.locator("[data-testid=message-files] a").count()).toBe(0);
      expect(asked.filter((p) => p.startsWith("/api/files"))).toEqual([]);
      expect(asked.filter((p) => p.startsWith(`/api/shared/${links.false}/files`))).toEqual([]);
    });
  });
});

it("runs nothing a file holds: a scripted SVG, an HTML page and an HTML page named photo.png", async () => {
  await asNewUser(live, "attachments-safety", viewportOptions(DESKTOP_AND_PHONE[0]), async (page) => {
    const id = await newConversationInBrowser(page);
    const hit = (what: string) => `fetch('${markerUrl}/${what}');document.title='pwned'`;
    const files = [
      {
        name: "drawing.svg",
        mimeType: "image/svg+xml",
        text: `<svg xmlns="http://www.w3.org/2000/svg" onload="${hit("svg-onload")}"><script>${hit("svg")}</script><rect width="9" height="9"/></svg>`,
      },
      {
        name: "page.html",
        mimeType: "text/html",
        text: `<!doctype html><title>page</title><script>${hit("html")}</script><img src=x onerror="${hit("html-img")}">`,
      },
      {
        name: "photo.png",
        mimeType: "image/png",
        text: `<!doctype html><script>${hit("photo")}</script><p>not a photo</p>`,
      },
    ];
    await input(page).setInputFiles(
      files.map((f) => ({ name: f.name, mimeType: f.mimeType, buffer: Buffer.from(f.text) })),
    );
    await expect
      .poll(() => page.locator("[data-testid=attachment-chip][data-status=ready]").count(), { timeout: 15_000 })
      .toBe(3);
    // photo.png is text to the server: its chip drops the thumbnail it showed while uploading.
    expect(await chip(page, "photo.png").locator("img").count()).toBe(0);
    await page.locator("[data-testid=send]").click();
    const user = page.locator("[data-role=user]").last();
    await expect.poll(() => user.locator("[data-testid=attachment-file]").count(), { timeout: 30_000 }).toBe(3);
    expect(await user.locator("img").count()).toBe(0); // none of them is an image, photo.png included
    await waitTurnEnded(page, id);

    const listed = await apiFromPage<{ files: { id: string; name: string; kind: string }[] }>(
      page,
      "GET",
      "/api/files",
    );
    const byName = new Map(listed.body.files.map((f) => [f.name, f]));
    for (const file of files) {
      const row = byName.get(file.name);
      expect(row?.kind).toBe("text");
      const url = `/api/files/${row?.id}/content`;
      // As the contract serves it: plain text, to download, sandboxed, never sniffed.
      const res = await page.request.get(url);
      expect(res.status()).toBe(200);
      expect(res.headers()["content-type"]).toBe("text/plain; charset=utf-8");
      expect(res.headers()["content-disposition"]).toMatch(/^attachment; filename="/);
      expect(res.headers()["x-content-type-options"]).toBe("nosniff");
      expect(res.headers()["content-security-policy"]).toMatch(/^sandbox/);
      // Opened by its address (as the chip's Open does): a download, nothing rendered.
      const opened = await page.context().newPage();
      const downloaded = opened.waitForEvent("download", { timeout: 10_000 });
      await opened.goto(url).catch(() => {}); // "Download is starting"
      expect((await downloaded).suggestedFilename()).toBe(file.name);
      await opened.close();
      // In a frame of the app's page, and as an image: nothing runs either.
      await page.evaluate(
        ({ url }) =>
          new Promise<void>((resolve) => {
            const frame = document.createElement("iframe");
            frame.src = url;
            const img = document.createElement("img");
            img.src = url;
            document.body.append(frame, img);
            setTimeout(resolve, 1000);
          }),
        { url },
      );
    }
    await new Promise((r) => setTimeout(r, 500));
    expect(markerHits).toEqual([]);
    // (The title itself may change meanwhile: the model's title for the conversation comes after the turn.)
    expect(await page.title()).not.toContain("pwned");
  });
});

it("keeps a message's files with it while it waits to be sent, across a reload, and Edit takes them back", async () => {
  await asNewUser(live, "attachments-outbox", viewportOptions(DESKTOP_AND_PHONE[1]), async (page) => {
    // The conversation's socket, which the test cuts (refused) and lets back.
    let down = false;
    const sockets: WebSocketRoute[] = [];
    await page.routeWebSocket(/\/ws$/, (ws) => {
      if (down) return void ws.close({ code: 1012, reason: "network cut" });
      const server = ws.connectToServer();
      sockets.push(ws);
      ws.onMessage((message) => server.send(message));
      server.onMessage((message) => ws.send(message));
    });
    const id = await newConversationInBrowser(page);
    const key = `attach-outbox-${Date.now().toString(36)}`;
    await scriptModel(live.llm.url, key, [{ text: "Got them." }]);
    await input(page).setInputFiles([
      { name: "chart.png", mimeType: "image/png", buffer: makePng(4, 4, [1, 2, 3]) },
      { name: "notes.txt", mimeType: "text/plain", buffer: Buffer.from("first line\n") },
    ]);
    await expect
      .poll(() => page.locator("[data-testid=attachment-chip][data-status=ready]").count(), { timeout: 15_000 })
      .toBe(2);

    // The socket goes; the message waits, its files named in its bubble.
    down = true;
    for (const ws of sockets.splice(0)) await ws.close({ code: 1012, reason: "network cut" });
    await page.locator("[data-testid=reconnect-banner]").waitFor({ timeout: 10_000 });
    await page.locator("[data-testid=composer-input]").fill(`Here ${marker(key)}`);
    await page.locator("[data-testid=send]").click();
    const pending = page.locator("[data-testid=pending-message]");
    await pending.waitFor();
    expect(await pending.locator("[data-testid=pending-files]").textContent()).toBe("chart.png, notes.txt");
    expect(await chips(page).count()).toBe(0);
    await page.reload();
    await pending.waitFor({ timeout: 15_000 });
    expect(await pending.locator("[data-testid=pending-files]").textContent()).toBe("chart.png, notes.txt");

    // Edit: the text and the files back in the composer, ready to send.
    await pending.locator("[data-testid=pending-edit]").click();
    await pending.waitFor({ state: "detached" });
    await expect
      .poll(() => page.locator("[data-testid=attachment-chip-name]").allTextContents())
      .toEqual(["chart.png", "notes.txt"]);
    expect(await page.locator("[data-testid=attachment-chip][data-status=ready]").count()).toBe(2);

    // The socket is back: sent, with its files.
    down = false;
    await page.locator("[data-testid=back-online]").waitFor({ timeout: 15_000 });
    await page.locator("[data-testid=send]").click();
    await finals(page).first().waitFor({ timeout: 30_000 });
    await waitTurnEnded(page, id);
    const users = (await pathMessages(page, id)).filter((m) => m.role === "user") as {
      attachments?: { name: string }[];
    }[];
    expect(users.map((u) => u.attachments?.map((a) => a.name))).toEqual([["chart.png", "notes.txt"]]);
  });
});

it("starts a conversation from home with files only, and shows a file the server refuses in its words", async () => {
  await asNewUser(live, "attachments-home", viewportOptions(DESKTOP_AND_PHONE[0]), async (page) => {
    await page.goto("/");
    await page.locator("[data-testid=home]").waitFor({ timeout: 15_000 });
    // Not what its name says: the server refuses it, the chip says why, and Send waits until it is removed.
    await input(page).setInputFiles([
      { name: "photo.png", mimeType: "image/png", buffer: Buffer.from([0, 159, 146, 150, 0, 1, 2, 3]) },
    ]);
    const failed = chip(page, "photo.png").and(page.locator("[data-status=failed]"));
    await failed.waitFor({ timeout: 15_000 });
    expect(await failed.locator("[data-testid=attachment-chip-error]").textContent()).toMatch(/photo\.png/);
    expect(await page.locator("[data-testid=send]").isDisabled()).toBe(true);
    await page.getByRole("button", { name: "Remove photo.png" }).click();

    // Dropped on home: a text file; sent with no words, it starts the conversation.
    await page.evaluate(() => {
      const transfer = new DataTransfer();
      transfer.items.add(new File(["Remember the milk\n"], "todo.txt", { type: "text/plain" }));
      const home = document.querySelector("[data-testid=home]");
      home?.dispatchEvent(new DragEvent("dragenter", { bubbles: true, cancelable: true, dataTransfer: transfer }));
      home?.dispatchEvent(new DragEvent("drop", { bubbles: true, cancelable: true, dataTransfer: transfer }));
    });
    await chip(page, "todo.txt").and(page.locator("[data-status=ready]")).waitFor({ timeout: 15_000 });
    expect(await page.locator("[data-testid=composer-input]").inputValue()).toBe("");
    await page.locator("[data-testid=send]").click();
    const chat = page.locator("[data-testid=chat]");
    await chat.waitFor({ timeout: 15_000 });
    const id = (await chat.getAttribute("data-conversation-id")) ?? "";
    const user = page.locator("[data-role=user]");
    await user.locator("[data-testid=attachment-file]").waitFor({ timeout: 15_000 });
    expect(await user.locator("[data-testid=attachment-file-name]").textContent()).toBe("todo.txt");
    await waitTurnEnded(page, id);
    const users = (await pathMessages(page, id)).filter((m) => m.role === "user") as {
      content: string;
      attachments?: { name: string }[];
    }[];
    expect(users).toMatchObject([{ content: "", attachments: [{ name: "todo.txt" }] }]);
  });
});

it("shows a file tool's arguments in words and the file note_to_file made; deletes a file left unsent", async () => {
  await asNewUser(live, "attachments-tools", viewportOptions(DESKTOP_AND_PHONE[0]), async (page) => {
    const id = await newConversationInBrowser(page);
    const note = await apiFromPage(page, "PUT", "/api/notes/ideas.md", { content: "# Ideas\nTry the phone" });
    expect(note.status).toBeLessThan(300);
    const key = `attach-tools-${Date.now().toString(36)}`;
    await scriptModel(live.llm.url, key, [
      { tool_calls: [{ name: "file_read", arguments: { file: "report.pdf", pages: "1" } }] },
      { tool_calls: [{ name: "note_to_file", arguments: { path: "ideas.md" } }] },
      { text: "Done." },
    ]);
    await input(page).setInputFiles([
      { name: "report.pdf", mimeType: "application/pdf", buffer: Buffer.from(await makePdf([["Page one text"]])) },
    ]);
    await chip(page, "report.pdf").and(page.locator("[data-status=ready]")).waitFor({ timeout: 15_000 });
    await page.locator("[data-testid=composer-input]").fill(`Read it ${marker(key)}`);
    await page.locator("[data-testid=send]").click();
    await finals(page).first().waitFor({ timeout: 30_000 });
    await waitTurnEnded(page, id);

    await page.locator("[data-testid=turn-group-toggle]").click();
    const read = page.locator("[data-role=tool][data-tool=file_read]");
    await read.locator("summary").first().click();
    const rows = read.locator("[data-testid=tool-args]");
    await rows.waitFor();
    expect(await rows.locator("dt").allTextContents()).toEqual(["File", "Pages"]);
    expect(await rows.locator("dd").allTextContents()).toEqual(["report.pdf", "1"]);

    const made = page.locator("[data-role=tool][data-tool=note_to_file]");
    await made.locator("summary").first().click();
    const file = made.locator("[data-testid=attachment-file]");
    await file.waitFor();
    expect(await file.locator("[data-testid=attachment-file-name]").textContent()).toBe("ideas.md");
    expect(await file.locator("[data-testid=attachment-file-meta]").textContent()).toMatch(/^Markdown · 2 lines · /);
    const href = (await file.locator("[data-testid=attachment-download]").getAttribute("href")) ?? "";
    expect(href).toMatch(/^\/api\/files\/[^/]+\/content\?download=1$/);
    const res = await page.request.get(href);
    expect(res.status()).toBe(200);
    expect(await res.text()).toContain("Try the phone");

    // A file attached and left unsent when the user goes elsewhere in the app is deleted.
    const requests = watchFileRequests(page);
    await input(page).setInputFiles([{ name: "draft.txt", mimeType: "text/plain", buffer: Buffer.from("draft") }]);
    await chip(page, "draft.txt").and(page.locator("[data-status=ready]")).waitFor({ timeout: 15_000 });
    await page.locator("[data-testid=new-conversation]").click();
    await page.locator("[data-testid=home]").waitFor();
    await expect.poll(() => requests.deleted.length).toBe(1);
    const names = async () =>
      (await apiFromPage<{ files: { name: string }[] }>(page, "GET", "/api/files")).body.files
        .map((f) => f.name)
        .sort();
    await expect.poll(names).toEqual(["ideas.md", "report.pdf"]);
  });
});
