/** package.json's version, put in by the build (client/vite.config.ts `define`). */
declare const __APP_VERSION__: string;
