// Issue 26: the client's bundle, chunk by chunk. Builds the client (bench/client-size.ts) and reports the
// initial JS against the 90 KB goal and what each lazy chunk costs the first time it is needed: the
// Markdown lexer (with marked-footnote), code highlighting, maths (KaTeX's JS, CSS and fonts) and the
// pages. `node bench/bundle-size.ts` writes the section into bench/README.md between its markers;
// `npm run bench` does the same.
import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { gzipSync } from "node:zlib";
import { build } from "esbuild";
import { type ClientSize, INITIAL_JS_BUDGET_BYTES, LAZY_CHUNKS, measureClient } from "./client-size.ts";

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

/** marked-footnote alone, minified and gzipped: its share of the lexer chunk. */
async function footnoteGzip(): Promise<number> {
  const out = await build({
    entryPoints: ["node_modules/marked-footnote/dist/index.js"],
    bundle: true,
    minify: true,
    format: "esm",
    write: false,
    logLevel: "error",
  });
  return gzipSync(out.outputFiles[0]?.contents ?? new Uint8Array(), { level: 9 }).length;
}

export async function bundleRows(size: ClientSize = measureClient()): Promise<string[]> {
  const { initialJs, css, chunks } = size;
  const label = new Map<string, string>(LAZY_CHUNKS);
  const rows = chunks.map((c) => {
    const fonts = c.fonts
      ? `; fonts ${c.fonts.files} files ${kb(c.fonts.raw)} on disk, the ${c.fonts.woff2Files} woff2 a browser may fetch ${kb(c.fonts.woff2Raw)} (only the faces a formula uses)`
      : "";
    return `| ${label.get(c.name)} (\`${c.name}-*\`) | ${kb(c.jsGzip)} | ${c.cssGzip ? kb(c.cssGzip) : "–"} | ${kb(c.jsGzip + c.cssGzip)}${fonts} |`;
  });
  return [
    `Initial JS (what \`index.html\` loads before the app runs): **${kb(initialJs.gzip)} gzip** (${initialJs.files.length} file, raw ${kb(initialJs.raw)}; goal < ${kb(INITIAL_JS_BUDGET_BYTES)}); its CSS ${kb(css.gzip)} gzip.`,
    "",
    "| lazy chunk | JS gzip | CSS gzip | total, and notes |",
    "| --- | --- | --- | --- |",
    ...rows,
    "",
    `marked-footnote's share of the lexer chunk: ${kb(await footnoteGzip())} gzip (minified alone).`,
  ];
}

const MARKERS = /<!-- bundle:begin -->[\s\S]*<!-- bundle:end -->/;

/** Writes the rows into bench/README.md's "Client bundle (issue 26)" section. */
export function writeBundleSection(rows: string[], stamp: string): void {
  const readme = readFileSync("bench/README.md", "utf8");
  writeFileSync(
    "bench/README.md",
    readme.replace(MARKERS, `<!-- bundle:begin -->\n${stamp}\n\n${rows.join("\n")}\n<!-- bundle:end -->`),
  );
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const rows = await bundleRows();
  const stamp = `Run on ${new Date().toISOString().slice(0, 10)}, gzip -9 of a fresh \`vite build\`.`;
  console.log(`${stamp}\n${rows.join("\n")}`);
  writeBundleSection(rows, stamp);
  // Aligned as biome wants it (npm run bench formats the whole file at its end).
  spawnSync("npx", ["biome", "format", "--write", "bench/README.md"], { stdio: "inherit" });
}
