// `node scripts/render-icons.ts`: the app's PNG icons (client/public/icons/), rendered in headless
// Chromium from the same drawing as client/public/favicon.svg. The PNGs are committed; rerun after
// changing the drawing. Writes icon-192.png and icon-512.png (the rounded tile, for "any"),
// maskable-512.png (full bleed, the mark inside the central 80 % safe zone that launchers crop to) and
// apple-touch-icon.png (180 px, full bleed: iOS rounds the corners itself).
import { mkdirSync } from "node:fs";
import path from "node:path";
import { launchBrowser, ROOT } from "../test/e2e/harness.ts";

const OUT = path.join(ROOT, "client/public/icons");

/** favicon.svg's drawing: a dark tile, a ring and a dot. `scale` shrinks the mark inside the tile. */
function drawing({ rounded, scale }: { rounded: boolean; scale: number }): string {
  const r = (n: number) => n * scale;
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32" width="100%" height="100%">
    <rect width="32" height="32" rx="${rounded ? 7 : 0}" fill="#14161b"/>
    <circle cx="16" cy="16" r="${r(10.5)}" fill="none" stroke="#6ea8fe" stroke-width="${r(3)}"/>
    <circle cx="16" cy="16" r="${r(4)}" fill="#6ea8fe"/></svg>`;
}

const ICONS = [
  { file: "icon-192.png", size: 192, rounded: true, scale: 1 },
  { file: "icon-512.png", size: 512, rounded: true, scale: 1 },
  { file: "maskable-512.png", size: 512, rounded: false, scale: 0.7 },
  { file: "apple-touch-icon.png", size: 180, rounded: false, scale: 0.85 },
];

mkdirSync(OUT, { recursive: true });
const browser = await launchBrowser();
try {
  for (const { file, size, rounded, scale } of ICONS) {
    const page = await browser.newPage({ viewport: { width: size, height: size } });
    await page.setContent(
      `<html><body style="margin:0;background:transparent">${drawing({ rounded, scale })}</body></html>`,
    );
    await page.screenshot({ path: path.join(OUT, file), omitBackground: true });
    await page.close();
    console.log(`wrote client/public/icons/${file}`);
  }
} finally {
  await browser.close();
}
