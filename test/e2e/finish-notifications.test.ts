// Item 14 of issue 41: the user hears when a turn ends out of sight (docs/protocol.md "Finish
// notifications"), on the shared demo app (every test app has a VAPID key pair: app.ts TEST_VAPID).
//   - No tab open (a scheduled run): the Worker sends a web push to each of the user's subscribed
//     browsers, here push endpoints of this test on loopback: the request carries a VAPID token the
//     operator's public key verifies, its body decrypts with the subscription's private key (RFC 8291,
//     decrypted by test/support/web-push-receiver.ts, not by the Worker's code), and it holds no content
//     unless that device chose it; an endpoint the push service calls gone (410) is forgotten.
//   - A tab open but hidden: the tab itself shows one notification (spied on), with no content by
//     default; none while it is in sight; the title and the answer's start once the user chose them;
//     its click brings the conversation back. The browser is asked for permission only on the click.
import http from "node:http";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { noticeText } from "../../protocol/push";
import { listenOnLoopback } from "../support/loopback-server";
import { pushReceiver, verifyVapid } from "../support/web-push-receiver";
import { signUp, waitIdle } from "./api-client";
import { TEST_VAPID } from "./app";
import {
  asNewUser,
  DESKTOP_AND_PHONE,
  newConversationInBrowser,
  sendChat,
  useSharedApp,
  viewportOptions,
  waitTurnEnded,
} from "./harness";

const shared = useSharedApp();

interface Received {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

/** A push service of the test's own: records every message; `/gone` answers 410 as for an expired subscription. */
async function pushService() {
  const received: Received[] = [];
  const waiters: (() => void)[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      received.push({ path: req.url ?? "", headers: req.headers, body: Buffer.concat(chunks) });
      for (const wake of waiters.splice(0)) wake();
      res.writeHead(req.url?.endsWith("/gone") ? 410 : 201).end();
    });
  });
  const { origin, close } = await listenOnLoopback(server);
  const count = async (n: number, timeoutMs: number) => {
    const deadline = Date.now() + timeoutMs;
    while (received.length < n) {
      if (Date.now() > deadline) throw new Error(`${received.length} of ${n} push messages in ${timeoutMs} ms`);
      await new Promise<void>((wake) => {
        waiters.push(wake);
        setTimeout(wake, 500);
      });
    }
  };
  return { origin, received, count, close };
}

describe("finish notifications: web push when no tab is open", () => {
  it("pushes a scheduled run's end to each device: VAPID-signed, encrypted, content only where chosen; a gone one is forgotten", async () => {
    const service = await pushService();
    try {
      const client = await signUp(shared.app.url);
      const api = (method: string, path: string, body?: unknown, headers = client.headers) =>
        fetch(`${shared.app.url}${path}`, {
          method,
          headers,
          body: body === undefined ? undefined : JSON.stringify(body),
        });
      const created = await api("POST", "/api/conversations", { title: "Weekly plan" });
      const { id } = (await created.json()) as { id: string };

      const config = (await (await api("GET", "/api/push")).json()) as { public_key: string | null };
      expect(config.public_key).toBe(TEST_VAPID.VAPID_PUBLIC_KEY);
      const devices = { plain: pushReceiver(), open: pushReceiver(), gone: pushReceiver() };
      for (const [name, device] of Object.entries(devices)) {
        const res = await api("POST", "/api/push/subscriptions", {
          endpoint: `${service.origin}/push/${name}`,
          keys: { p256dh: device.p256dh, auth: device.auth },
          show_content: name === "open",
        });
        expect(res.status, await res.clone().text()).toBe(201);
      }
      // An endpoint the Worker may not fetch is refused, and an API token cannot choose where answers go.
      const refused = await api("POST", "/api/push/subscriptions", {
        endpoint: "http://push.example.com/x",
        keys: { p256dh: devices.plain.p256dh, auth: devices.plain.auth },
      });
      expect(refused.status).toBe(400);
      const token = (await (await api("POST", "/api/tokens", { name: "script" })).json()) as { token: string };
      const byToken = await api(
        "POST",
        "/api/push/subscriptions",
        { endpoint: `${service.origin}/push/token`, keys: { p256dh: devices.plain.p256dh, auth: devices.plain.auth } },
        { authorization: `Bearer ${token.token}`, "content-type": "application/json" },
      );
      expect(byToken.status).toBe(403);

      // A scheduled run a few seconds ahead: no tab and no socket is open on the conversation.
      const schedule = await api("POST", "/api/schedules", {
        conversation_id: id,
        text: "Summarize my week",
        at: new Date(Date.now() + 3_000).toISOString(),
      });
      expect(schedule.status).toBe(201);
      await service.count(3, 30_000);
      await waitIdle(client, id);
      const answer = (await client.messages(id)).findLast((m) => m.role === "agent" && m.phase === "final");
      const answerStart = String(answer?.content ?? "").slice(0, 24);
      expect(answerStart.length).toBeGreaterThan(10);

      const byPath = new Map(service.received.map((r) => [r.path, r]));
      expect([...byPath.keys()].sort()).toEqual(["/push/gone", "/push/open", "/push/plain"]);
      for (const request of service.received) {
        expect(request.headers["content-encoding"]).toBe("aes128gcm");
        expect(Number(request.headers.ttl)).toBeGreaterThan(0);
        const token = verifyVapid(String(request.headers.authorization));
        expect(token.key).toBe(TEST_VAPID.VAPID_PUBLIC_KEY);
        expect(token.header.alg).toBe("ES256");
        expect(token.claims.aud).toBe(service.origin);
        expect(token.claims.sub).toBe(TEST_VAPID.VAPID_SUBJECT);
        expect(token.claims.exp).toBeGreaterThan(Date.now() / 1000);
        expect(token.claims.exp).toBeLessThanOrEqual(Date.now() / 1000 + 24 * 3600);
      }
      const read = (name: keyof typeof devices) =>
        JSON.parse(devices[name].decrypt((byPath.get(`/push/${name}`) as Received).body).toString("utf8"));

      const plain = read("plain");
      expect(plain).toEqual({
        type: "turn_ended",
        conversation_id: id,
        url: `/c/${id}`,
        title: "Oracle",
        body: "Your answer is ready.",
        tag: `turn-${id}`,
      });
      const plainText = JSON.stringify(plain);
      for (const secret of ["Weekly plan", "Summarize", answerStart]) expect(plainText).not.toContain(secret);

      const open = read("open");
      expect(open.title).toBe("Weekly plan");
      expect(open.body).toBe(noticeText(String(answer?.content)));
      expect(open.body.length).toBeGreaterThan(10);

      // 410: that subscription is forgotten; the others stay.
      for (let tries = 0; ; tries++) {
        const listed = (await (await api("GET", "/api/push")).json()) as { subscriptions: { endpoint: string }[] };
        const endpoints = listed.subscriptions.map((s) => new URL(s.endpoint).pathname).sort();
        if (endpoints.length === 2 || tries > 40) {
          expect(endpoints).toEqual(["/push/open", "/push/plain"]);
          break;
        }
        await new Promise((r) => setTimeout(r, 250));
      }
    } finally {
      await service.close();
    }
  });
});

/**
 * Before the app's scripts: every notification the page shows is recorded (`new Notification` and the
 * service worker registration's showNotification alike) instead of shown, and the test decides whether
 * the document is hidden (`__setHidden`, with the visibilitychange a real switch fires).
 */
function spyOnNotifications(page: Page) {
  return page.addInitScript(() => {
    type Notice = { title: string; body?: string; tag?: string; url?: string; onclick?: (() => void) | null };
    const w = window as unknown as { __notices: Notice[]; __asks: number; __setHidden(hidden: boolean): void };
    w.__notices = [];
    w.__asks = 0;
    const Real = window.Notification;
    const record = (title: string, options?: NotificationOptions) => {
      const notice: Notice = { title, body: options?.body, tag: options?.tag, url: options?.data?.url, onclick: null };
      w.__notices.push(notice);
      return notice;
    };
    // The headless shell reports Notification.permission "denied" whatever the context grants, while its
    // requestPermission() answers as the context says ("granted": the user accepts the prompt). So the
    // spy keeps the permission as a browser would: "default" until asked, then the answer, kept across
    // page loads; and it counts the asks.
    let permission = (sessionStorage.getItem("spy-permission") ?? "default") as NotificationPermission;
    class Spy {
      static get permission() {
        return permission;
      }
      static async requestPermission() {
        w.__asks += 1;
        permission = await Real.requestPermission();
        sessionStorage.setItem("spy-permission", permission);
        return permission;
      }
      constructor(title: string, options?: NotificationOptions) {
        const notice = record(title, options);
        // The click handler the app sets is kept, so the test can click the notification.
        Object.defineProperty(this, "onclick", {
          set: (f: () => void) => (notice.onclick = f),
          get: () => notice.onclick,
        });
      }
      close() {}
    }
    Object.defineProperty(window, "Notification", { value: Spy, configurable: true, writable: true });
    ServiceWorkerRegistration.prototype.showNotification = async (title, options) => void record(title, options);
    let hidden = false;
    Object.defineProperty(document, "hidden", { get: () => hidden, configurable: true });
    Object.defineProperty(document, "visibilityState", {
      get: () => (hidden ? "hidden" : "visible"),
      configurable: true,
    });
    w.__setHidden = (value) => {
      hidden = value;
      document.dispatchEvent(new Event("visibilitychange"));
    };
  });
}

const notices = (page: Page) =>
  page.evaluate(() => (window as unknown as { __notices: { title: string; body?: string; url?: string }[] }).__notices);
const setHidden = (page: Page, hidden: boolean) =>
  page.evaluate((h) => (window as unknown as { __setHidden(h: boolean): void }).__setHidden(h), hidden);

const answers = (page: Page) => page.locator("[data-role=agent][data-phase=final]");

/** Sends `text` and waits for its turn to end (the reply on the page, and the server idle). */
async function turn(page: Page, id: string, text: string): Promise<void> {
  const all = answers(page);
  const before = await all.count();
  await sendChat(page, text);
  await all.nth(before).waitFor({ state: "attached", timeout: 30_000 });
  await waitTurnEnded(page, id);
}

describe("finish notifications: a hidden tab tells its user", () => {
  it.each(DESKTOP_AND_PHONE)(
    "one notification, without content, when a turn ends out of sight ($name)",
    async (viewport) => {
      await asNewUser(
        shared,
        `finish-notice-${viewport.name}`,
        { ...viewportOptions(viewport), permissions: ["notifications"] },
        async (page) => {
          await spyOnNotifications(page);
          await page.goto("/settings");
          await page.locator("[data-testid=tab-device-notifications]").click();
          const section = page.locator("[data-testid=device-notifications]");
          await section.waitFor();
          // Nothing is on, and nothing is asked, until the user clicks.
          expect(await section.locator("[data-testid=notify-content]").count()).toBe(0);
          await section.locator("[data-testid=notify-turn-on]").click();
          await section.locator("[data-testid=notify-on]").waitFor();
          expect(await section.locator("[data-testid=notify-content]").isChecked()).toBe(false);
          // What follows is the page's logic, not its layout: the same at any size, so once (desktop).
          if (viewport.phone) return;

          const id = await newConversationInBrowser(page);
          // In sight: no notification.
          await turn(page, id, "What can you do for me today?");
          expect(await notices(page)).toEqual([]);
          // Out of sight: exactly one, which says only that an answer is ready.
          await setHidden(page, true);
          await turn(page, id, "Summarize my week in one line, please");
          await page.waitForFunction(() => (window as unknown as { __notices: unknown[] }).__notices.length > 0);
          const [notice, ...more] = await notices(page);
          expect(more).toEqual([]);
          expect(notice).toMatchObject({ title: "Oracle", body: "Your answer is ready.", url: `/c/${id}` });
          const answer = await answers(page).last().innerText();
          expect(JSON.stringify(notice)).not.toContain(answer.trim().slice(0, 20));
          expect(JSON.stringify(notice)).not.toContain("Summarize");

          // With the text chosen, the title and the answer's start; the click opens the conversation.
          await page.goto("/settings/device-notifications");
          await page.locator("[data-testid=notify-content]").check();
          await page.goto(`/c/${id}`);
          await page.locator("[data-testid=connection-status][data-status=connected]").waitFor({ state: "attached" });
          await answers(page).nth(1).waitFor({ state: "attached" });
          await setHidden(page, true);
          await turn(page, id, "And what about next week?");
          await page.waitForFunction(() => (window as unknown as { __notices: unknown[] }).__notices.length > 0);
          const [chosen] = await notices(page);
          const last = (await answers(page).last().innerText()).trim();
          const { title } = (await (await page.request.get(`/api/conversations/${id}`)).json()) as { title: string };
          expect(chosen?.title).toBe(title);
          expect(chosen?.body).toContain(last.split(/\s+/).slice(0, 3).join(" "));
          await page.locator("[data-testid=brand]").click();
          await page.waitForURL((url) => !url.pathname.startsWith("/c/"));
          await page.evaluate(() =>
            (window as unknown as { __notices: { onclick: () => void }[] }).__notices[0]?.onclick(),
          );
          await page.waitForURL((url) => url.pathname === `/c/${id}`);
        },
      );
    },
  );
});
