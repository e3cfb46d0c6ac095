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
  },
  server: {
    proxy: {
      "/api": { target: "http://127.0.0.1:8787", ws: true },
    },
  },
});
