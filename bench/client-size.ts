// The client's download as a first visit pays for it (issue 13: initial JS under 90 KB gzip): builds
// the client into a temporary directory, then sums what index.html loads before the app can run (its
// module scripts and modulepreloads, plus stylesheets) apart from the chunks loaded later on demand.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { gzipSync } from "node:zlib";

export const INITIAL_JS_BUDGET_BYTES = 90 * 1024;

export interface ClientSize {
  /** Scripts index.html loads or preloads: what the first paint waits for. */
  initialJs: { files: string[]; raw: number; gzip: number };
  css: { raw: number; gzip: number };
  /** Every other .js chunk: pages loaded when first visited. */
  lazyJs: { files: number; gzip: number };
}

const gzipSize = (bytes: Buffer) => gzipSync(bytes, { level: 9 }).length;

/** What index.html references by `src`/`href` under /assets/, in order, without duplicates. */
function referenced(html: string, ext: string): string[] {
  const found = [...html.matchAll(/(?:src|href)="\/?(assets\/[^"]+)"/g)].map((m) => m[1] ?? "");
  return [...new Set(found.filter((f) => f.endsWith(ext)))];
}

export function measureBuilt(dist: string): ClientSize {
  const html = readFileSync(path.join(dist, "index.html"), "utf8");
  const read = (file: string) => readFileSync(path.join(dist, file));
  const sum = (files: string[], size: (b: Buffer) => number) => files.reduce((n, f) => n + size(read(f)), 0);
  const initial = referenced(html, ".js");
  const styles = referenced(html, ".css");
  const lazy = readdirSync(path.join(dist, "assets"))
    .map((f) => `assets/${f}`)
    .filter((f) => f.endsWith(".js") && !initial.includes(f));
  return {
    initialJs: { files: initial, raw: sum(initial, (b) => b.length), gzip: sum(initial, gzipSize) },
    css: { raw: sum(styles, (b) => b.length), gzip: sum(styles, gzipSize) },
    lazyJs: { files: lazy.length, gzip: sum(lazy, gzipSize) },
  };
}

/** Builds the client as `npm run build` does (prompts and subscribers are not part of it) and measures it. */
export function measureClient(root = process.cwd()): ClientSize {
  const out = mkdtempSync(path.join(tmpdir(), "oracle-client-size-"));
  try {
    const vite = path.join(root, "node_modules/vite/bin/vite.js");
    const built = spawnSync(
      process.execPath,
      [vite, "build", "--config", "client/vite.config.ts", "--outDir", out, "--emptyOutDir", "--logLevel", "error"],
      { cwd: root, encoding: "utf8" },
    );
    if (built.status !== 0) throw new Error(`vite build failed: ${built.stderr}`);
    return measureBuilt(out);
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

export function clientSizeRows(size: ClientSize): string[] {
  const { initialJs, css, lazyJs } = size;
  return [
    `| client: initial JS, gzip (${initialJs.files.length} file${initialJs.files.length === 1 ? "" : "s"}; goal < ${kb(INITIAL_JS_BUDGET_BYTES)}) | ${kb(initialJs.gzip)} | raw ${kb(initialJs.raw)}; CSS ${kb(css.gzip)} gzip; ${lazyJs.files} lazy chunks ${kb(lazyJs.gzip)} gzip |`,
  ];
}
