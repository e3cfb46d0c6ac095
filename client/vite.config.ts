// Builds the Preact client into client/dist, which wrangler serves as static assets with SPA fallback.
// In `vite dev` the API and its WebSockets are proxied to a local `wrangler dev` on port 8787.
import { fileURLToPath } from "node:url";
import preact from "@preact/preset-vite";
import { defineConfig } from "vite";

const root = fileURLToPath(new URL(".", import.meta.url));

export default defineConfig({
  root,
  plugins: [preact()],
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
