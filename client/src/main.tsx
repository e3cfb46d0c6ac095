// Entry point: applies the saved theme, mounts the app shell into #app, and registers the service
// worker that lets the app install and open offline (client/public/sw.js).
import { render } from "preact";
import { App } from "./components/app";
import { applyTheme, savedTheme } from "./lib/theme";
import "./global.css";

// Before the first render, so a chosen theme never flashes the system's (the CSP forbids inline scripts).
applyTheme(savedTheme());

const root = document.getElementById("app");
if (root) render(<App />, root);

// Only in a build: under `vite dev` a cached shell would hide the changes being made.
if (import.meta.env.PROD && "serviceWorker" in navigator) {
  addEventListener("load", () => {
    navigator.serviceWorker.register("/sw.js").catch((error: unknown) => {
      console.warn("The service worker could not be registered", error);
    });
  });
}
