// Builds the Preact client into client/dist, which wrangler serves as static assets with SPA fallback.
// In `vite dev` the API and its WebSockets are proxied to a local `wrangler dev` on port 8787.
import { createHash } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import preact from "@preact/preset-vite";
import { defineConfig, type Plugin, parseAst } from "vite";
import { recordBuildInputs } from "../scripts/client-build-inputs.ts";

const root = fileURLToPath(new URL(".", import.meta.url));
/** The app's version (package.json), which Settings → Help shows. */
const version: string = JSON.parse(readFileSync(path.join(root, "../package.json"), "utf8")).version;

/**
 * Names the service worker's cache after the build: dist/sw.js gets a version made from dist/index.html
 * (which names every hashed asset), so each deploy that changes the app installs a new worker and drops
 * the old shell (client/public/sw.js).
 */
function serviceWorkerVersion(): Plugin {
  let dist = path.join(root, "dist");
  return {
    name: "oracle-sw-version",
    apply: "build",
    // The bundle-size bench builds into a directory of its own (--outDir).
    configResolved(config) {
      dist = path.resolve(config.root, config.build.outDir);
    },
    closeBundle() {
      const version = createHash("sha256")
        .update(readFileSync(path.join(dist, "index.html")))
        .digest("hex")
        .slice(0, 12);
      const file = path.join(dist, "sw.js");
      const source = readFileSync(file, "utf8");
      const versioned = source.replace(/const BUILD_VERSION = "[^"]*";/, `const BUILD_VERSION = "${version}";`);
      if (versioned === source) throw new Error("client/public/sw.js has no BUILD_VERSION line to version");
      writeFileSync(file, versioned);
    },
  };
}

/**
 * Marks each top-level schema of the contract (`const X = z.object(…)`, `= BaseSchema.extend(…)`) as
 * pure, so a schema the client never uses is left out of its bundle: a call is otherwise kept in case it
 * has an effect, and every schema of protocol/ shipped in the initial JS. The whole initializer is
 * wrapped, `/* @__PURE__ *\/ (() => INIT)()`: marking only its outer call left the calls in its
 * arguments (`z.string().min(1)`) behind, about 1.4 KB of the first download. Not Rolldown's
 * manualPureFunctions: it matches a name anywhere, and minified libraries call functions named `z`.
 */
export function pureSchemas(): Plugin {
  const contract = `${path.resolve(root, "../protocol")}${path.sep}`;
  const schemaStart = /^(?:z|[A-Z][\w$]*Schema)\s*\./;
  type Node = { type: string; start: number; end: number; declaration?: Node | null; declarations?: Declarator[] };
  type Declarator = { init?: { start: number; end: number } | null };
  return {
    name: "oracle-pure-schemas",
    apply: "build",
    transform(code, id) {
      if (!id.startsWith(contract) || !id.endsWith(".ts")) return null;
      const body = (parseAst(code, { lang: "ts" }) as unknown as { body: Node[] }).body;
      const inits = body
        .map((node) => (node.type === "ExportNamedDeclaration" ? node.declaration : node))
        .filter((node): node is Node => node?.type === "VariableDeclaration")
        .flatMap((node) => node.declarations ?? [])
        .flatMap((d) => (d.init && schemaStart.test(code.slice(d.init.start, d.init.end)) ? [d.init] : []));
      let out = code;
      for (const { start, end } of inits.reverse())
        out = `${out.slice(0, start)}/* @__PURE__ */ (() => ${out.slice(start, end)})()${out.slice(end)}`;
      return { code: out, map: null };
    },
  };
}

export default defineConfig({
  root,
  // recordBuildInputs: what the build read, so `npm start` rebuilds only when it changed.
  plugins: [preact(), pureSchemas(), serviceWorkerVersion(), recordBuildInputs()],
  define: { __APP_VERSION__: JSON.stringify(version) },
  build: {
    outDir: "dist",
    emptyOutDir: true,
    // Fonts stay files, never data: URLs (the CSP's font-src is 'self'): KaTeX's smallest font is under
    // Vite's 4 KB inlining limit. The maths and highlight chunks (client/src/components/markdown/lazy.ts)
    // are split by their dynamic imports; their CSS loads with them.
    assetsInlineLimit: (file) => (/\.(woff2?|ttf|otf)$/.test(file) ? false : undefined),
  },
  server: {
    proxy: {
      "/api": { target: "http://127.0.0.1:8787", ws: true },
    },
  },
});
