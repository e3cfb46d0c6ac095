// The page reader (outbound/web-page.ts, page-markdown.ts, core/pdf-text.ts) inside workerd, where the
// agent runs it: linkedom, Readability and turndown on the runtime's own fetch, against the pages the
// global setup serves on loopback (test/support/web-fixtures.ts). The node test covers every case; this
// one shows the parts that depend on the runtime: HTML, PDF, charset, gzip decoding, manual redirects.
import { describe, expect, inject, it } from "vitest";
import type { OutboundPolicy } from "../../outbound/policy";
import { readWebPage, type WebPage, WebPageError } from "../../outbound/web-page";

declare module "vitest" {
  interface ProvidedContext {
    webFixturesUrl: string;
  }
}

const base = inject("webFixturesUrl");
const dev: OutboundPolicy = { allowLoopback: true, maxResponseBytes: 4 * 1024 * 1024 };
const read = (path: string, options: Partial<Parameters<typeof readWebPage>[1]> = {}) =>
  readWebPage(`${base}${path}`, { policy: dev, ...options });

async function failure(reading: Promise<WebPage>): Promise<WebPageError> {
  const error = await reading.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(WebPageError);
  return error as WebPageError;
}

describe("readWebPage in workerd", () => {
  it("reads an article as Markdown without the site around it", async () => {
    const page = await read("/article");
    expect(page).toMatchObject({ kind: "html", title: "Rivers rise across the valley after record rain" });
    expect(page.text).toContain("The River Wend rose more than two metres overnight on Tuesday");
    expect(page.text).toMatch(/^## Why the water came so fast$/m);
    expect(page.text).toContain(`[flood advice](${base}/advice/floods)`);
    for (const chrome of ["We use cookies", "Advertisement", "Most read", "© 2025"])
      expect(page.text).not.toContain(chrome);
  });

  it("writes tables and fenced code, after a redirect it follows itself", async () => {
    const page = await read("/moved");
    expect(page).toMatchObject({ url: `${base}/tables`, redirects: 1 });
    expect(page.text).toContain("| Option | Type | Default | Description |\n| --- | --- | --- | --- |");
    expect(page.text).toContain('```ts\nimport { defineConfig } from "widgets";');
  });

  it("reads a PDF by pages, and text in its charset", async () => {
    const pdf = await read("/doc.pdf");
    expect(pdf.kind).toBe("pdf");
    expect(pdf.pages?.[1]).toContain("Costs are expected to fall next year.");
    expect((await read("/latin1.txt")).text).toBe("Café crème brûlée");
  });

  it("refuses a gzip bomb at the cap of decoded bytes", async () => {
    const started = Date.now();
    expect(await failure(read("/bomb", { maxBytes: 1024 * 1024 }))).toMatchObject({
      reason: "too_large",
      message: "the page is larger than 1 MB",
    });
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it("refuses a redirect into a private address, and ends a stalled page at the time limit", async () => {
    expect(await failure(read("/redirect"))).toMatchObject({
      reason: "blocked",
      message: "refused: 10.0.0.5 is a private, link-local or reserved address (a redirect led there)",
    });
    expect(await failure(read("/slow", { timeoutMs: 300 }))).toMatchObject({ reason: "timeout" });
  });
});
