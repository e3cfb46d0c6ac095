// Oracle's service worker: makes the app installable and lets it open offline. It caches the app
// shell only: index.html, the hashed /assets/*, the icons and the manifest. /api/* is never cached and
// never answered from here (network only), so no conversation, session or settings ever sit in a cache.
//   - a page load (navigation): network first, so a deploy shows at once; offline, the cached shell,
//     whose app then says "You're offline" (client/src/components/app/index.tsx);
//   - /assets/*: cache first (their names change with their content);
//   - the icons and the manifest: network first, the cache when offline.
//   - a web push message (a turn that ended with no tab open on it, docs/protocol.md "Finish
//     notifications"): shown as a notification, whose click focuses or opens its conversation. Its
//     payload is the Worker's own (protocol/push.ts PushMessage), already free of content unless the
//     user chose otherwise for this device.
// The cache is named after the build (the build writes its version over BUILD_VERSION, see
// client/vite.config.ts), so a deploy installs a new worker that drops the old shell.
const BUILD_VERSION = "dev";
const CACHE = `oracle-shell-${BUILD_VERSION}`;
const SHELL = [
  "/",
  "/manifest.webmanifest",
  "/favicon.svg",
  "/favicon.ico",
  "/icons/icon-192.png",
  "/icons/icon-512.png",
  "/icons/maskable-512.png",
  "/icons/apple-touch-icon.png",
];

self.addEventListener("install", (event) => {
  // Where the browser can, /api/* skips this worker altogether (the static routing API).
  if (event.addRoutes) {
    event.addRoutes({ condition: { urlPattern: "/api/*" }, source: "network" }).catch(() => {});
  }
  event.waitUntil(
    (async () => {
      const cache = await caches.open(CACHE);
      await cache.addAll(SHELL);
      // The script and stylesheet index.html names, so the shell opens offline after one visit.
      const html = await (await cache.match("/")).text();
      const assets = [...new Set(html.match(/\/assets\/[^"'\s>]+/g) ?? [])];
      await cache.addAll(assets);
      await self.skipWaiting();
    })(),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    (async () => {
      for (const name of await caches.keys()) {
        if (name.startsWith("oracle-shell-") && name !== CACHE) await caches.delete(name);
      }
      await self.clients.claim();
    })(),
  );
});

self.addEventListener("fetch", (event) => {
  const { request } = event;
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin) return;
  if (url.pathname.startsWith("/api/")) return; // network only, never cached
  if (request.mode === "navigate") event.respondWith(navigation(request));
  else if (url.pathname.startsWith("/assets/")) event.respondWith(cacheFirst(request));
  else if (SHELL.includes(url.pathname)) event.respondWith(networkFirst(request, url.pathname));
});

/** Every page of the app is index.html (SPA fallback): kept under "/", the offline answer for any path. */
async function navigation(request) {
  try {
    const response = await fetch(request);
    if (response.ok && !response.redirected && response.headers.get("content-type")?.includes("text/html")) {
      const cache = await caches.open(CACHE);
      await cache.put("/", response.clone());
    }
    return response;
  } catch (error) {
    const cached = await caches.match("/");
    if (cached) return cached;
    throw error;
  }
}

async function cacheFirst(request) {
  const cached = await caches.match(request);
  if (cached) return cached;
  const response = await fetch(request);
  if (response.ok) {
    const cache = await caches.open(CACHE);
    await cache.put(request, response.clone());
  }
  return response;
}

async function networkFirst(request, key) {
  try {
    const response = await fetch(request);
    if (response.ok) {
      const cache = await caches.open(CACHE);
      await cache.put(key, response.clone());
    }
    return response;
  } catch (error) {
    const cached = await caches.match(key);
    if (cached) return cached;
    throw error;
  }
}

self.addEventListener("push", (event) => {
  let message;
  try {
    message = event.data?.json();
  } catch {
    message = undefined;
  }
  if (message?.type !== "turn_ended" || typeof message.url !== "string" || !message.url.startsWith("/")) return;
  event.waitUntil(
    self.registration.showNotification(String(message.title || "Oracle"), {
      body: String(message.body ?? ""),
      tag: String(message.tag ?? ""),
      icon: "/icons/icon-192.png",
      data: { url: message.url },
    }),
  );
});

// A notification's click (a push's, or one a tab showed through this worker): the app's window on that
// conversation comes forward, else any window of the app goes there, else a new one opens.
self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const path = event.notification.data?.url;
  if (typeof path !== "string" || !path.startsWith("/")) return;
  const target = new URL(path, self.location.origin).href;
  event.waitUntil(
    (async () => {
      const windows = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
      const same = windows.find((w) => w.url === target);
      if (same) return same.focus();
      const other = windows[0];
      if (other) {
        await other.focus();
        // navigate() works on a window this worker controls; any other gets a window of its own.
        return other.navigate(target).catch(() => self.clients.openWindow(target));
      }
      return self.clients.openWindow(target);
    })(),
  );
});
