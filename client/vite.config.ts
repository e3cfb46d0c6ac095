// Builds the Preact client into client/dist, which wrangler serves as static assets with SPA fallback.
// In `vite dev` the API and its WebSockets are proxied to a local `wrangler dev` on port 8787.
import { createHash } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import preact from "@preact/preset-vite";
import { defineConfig, type Plugin } from "vite";
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
 * has an effect, and every schema of protocol/ shipped in the initial JS. Not Rolldown's
 * manualPureFunctions: it matches a name anywhere, and minified libraries call functions named `z`.
 */
export function pureSchemas(): Plugin {
  const contract = `${path.resolve(root, "../protocol")}${path.sep}`;
  const declaration = /^((?:export )?const [\w$]+(?:: [^=\n]+)? =\s*)(?=(?:z|[A-Z][\w$]*Schema)\s*\.)/gm;
  return {
    name: "oracle-pure-schemas",
    apply: "build",
    transform(code, id) {
      if (!id.startsWith(contract) || !id.endsWith(".ts")) return null;
      return { code: code.replace(declaration, "$1/* @__PURE__ */ "), map: null };
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
