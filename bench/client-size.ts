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
  /** The lazy chunks by name (issue 26): what each costs the first time it is needed. */
  chunks: ChunkSize[];
}

export interface ChunkSize {
  name: string;
  /** The chunk's JS (and the stylesheet loaded with it), gzip. */
  jsGzip: number;
  cssGzip: number;
  /** Fonts its stylesheet references (KaTeX): every format on disk, and the woff2 a browser fetches. */
  fonts?: { files: number; raw: number; woff2Files: number; woff2Raw: number };
}

/** The named lazy chunks: Vite names a dynamic import's chunk (and its CSS) after the module's file. */
export const LAZY_CHUNKS = [
  ["markdown-lexer", "Markdown lexer (marked, marked-footnote, maths delimiters), fetched at start-up"],
  ["highlight", "code highlighting (highlight.js core, 25 languages, colours)"],
  ["katex", "maths (KaTeX, its CSS and fonts)"],
  ["settings", "Settings page"],
  ["library", "Library page"],
  ["notes", "Notes page"],
  ["tasks", "Tasks page"],
  ["page-frame", "page frame of those pages"],
  ["admin", "Admin page (admins only)"],
  ["chart", "usage chart (uPlot, its CSS), loaded with a chart"],
] as const;

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
  const assets = readdirSync(path.join(dist, "assets")).map((f) => `assets/${f}`);
  const named = (name: string, ext: string) =>
    assets.filter((f) => f.endsWith(ext) && new RegExp(`^assets/${name}-[\\w-]{8}\\${ext}$`).test(f));
  const chunks = LAZY_CHUNKS.map(([name]): ChunkSize => {
    const fonts = name === "katex" ? assets.filter((f) => /^assets\/KaTeX_/.test(f)) : [];
    const woff2 = fonts.filter((f) => f.endsWith(".woff2"));
    return {
      name,
      jsGzip: sum(named(name, ".js"), gzipSize),
      cssGzip: sum(named(name, ".css"), gzipSize),
      ...(fonts.length
        ? {
            fonts: {
              files: fonts.length,
              raw: sum(fonts, (b) => b.length),
              woff2Files: woff2.length,
              woff2Raw: sum(woff2, (b) => b.length),
            },
          }
        : {}),
    };
  });
  return {
    initialJs: { files: initial, raw: sum(initial, (b) => b.length), gzip: sum(initial, gzipSize) },
    css: { raw: sum(styles, (b) => b.length), gzip: sum(styles, gzipSize) },
    lazyJs: { files: lazy.length, gzip: sum(lazy, gzipSize) },
    chunks,
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
      // As `npm run build` runs it: under vitest NODE_ENV is "test", which Vite would build with
      // development code (Preact's debug paths) left in, about 9 KB more than users download.
      { cwd: root, encoding: "utf8", env: { ...process.env, NODE_ENV: "production" } },
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
