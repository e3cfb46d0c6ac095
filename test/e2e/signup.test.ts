// Who may sign up, as a visitor meets it in the browser (docs/protocol.md "Administration"), at 1280 and
// 390 px, on two apps of the file's own (SIGNUP=invite, SIGNUP=approval; the second's start overlaps
// the first's tests):
// - invite: without a link the sign-up page says an invite is needed and offers no form; the link an
//   admin made opens the form ("You were invited"), which lands in the app; the same link again is
//   refused in words, with what was typed kept. The invited user, whose quota an admin set to 0 tokens,
//   then sends a message: the refusal is said over the composer and the message stays "Not sent".
// - approval: the form says accounts wait for approval; after sign-up the waiting page (and no other
//   call to the API); once an admin approves, the page opens the app by itself (its check on focus);
//   disabled, signing in again is refused in the server's words.
// - closed: no form, the words (the client as it reads /api/health saying `closed`).
// Each app's admin is E2E_ADMIN through the API: the first account of a fresh app, or the one ADMINS names.
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type App,
  DESKTOP_AND_PHONE,
  E2E_PASSWORD,
  newConversationInBrowser,
  sendChat,
  sharedBrowser,
  startApp,
  uniqueUsername,
  viewportOptions,
  withPage,
} from "./harness.ts";

const ADMIN = "e2e_admin";
const shared = {} as { invite: App; approval: App; browser: Browser };
let approvalApp: Promise<App> | undefined;

beforeAll(async () => {
  // Awaited by the approval tests, which come last.
  approvalApp = startApp({ direct: true, env: { SIGNUP: "approval" } });
  approvalApp.catch(() => {});
  [shared.invite, shared.browser] = await Promise.all([
    startApp({ direct: true, env: { SIGNUP: "invite" } }),
    sharedBrowser(),
  ]);
}, 120_000);

afterAll(async () => {
  await shared.browser?.close();
  const approval = await approvalApp?.catch(() => undefined);
  await Promise.all([shared.invite?.stop(), approval?.stop()]);
});

const sessions = new Map<App, Promise<Record<string, string>>>();

/** The admin's session on `app` (signed up the first time it is asked for), as headers for fetch. */
function admin(app: App): Promise<Record<string, string>> {
  let session = sessions.get(app);
  if (!session) {
    session = signUpAdmin(app);
    sessions.set(app, session);
  }
  return session;
}

async function signUpAdmin(app: App): Promise<Record<string, string>> {
  const headers = { "content-type": "application/json", origin: app.url };
  const body = JSON.stringify({ username: ADMIN, password: E2E_PASSWORD });
  const res = await fetch(`${app.url}/api/auth/signup`, { method: "POST", headers, body });
  const json = (await res.json()) as { user?: { admin?: boolean } };
  if (!json.user?.admin) throw new Error(`${ADMIN} is not the admin: ${res.status} ${JSON.stringify(json)}`);
  return { ...headers, cookie: (res.headers.get("set-cookie") ?? "").split(";")[0] ?? "" };
}

async function adminCall<T>(app: App, method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${app.url}${path}`, {
    method,
    headers: await admin(app),
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

const userId = async (app: App, username: string) =>
  (
    await adminCall<{ users: { id: string; username: string }[] }>(app, "GET", `/api/admin/users?q=${username}`)
  ).users.find((u) => u.username === username)?.id;

const field = (page: Page, name: string) => page.locator(`[data-testid=auth-${name}]`);
const shellOf = (page: Page, username: string) =>
  page.locator(`[data-testid=shell][data-user=${JSON.stringify(username)}]`);

describe.each(DESKTOP_AND_PHONE)("sign-up by invite at $name", (viewport) => {
  it("invite: words without a link, the link's form lands in the app, the same link again refused in words; a quota of 0 refuses a message in words and keeps it", async () => {
    const app = shared.invite;
    const { url } = await adminCall<{ url: string }>(app, "POST", "/api/admin/invites", { note: viewport.name });
    expect(url).toMatch(/^\/signup\?invite=/);
    await withPage(
      { app, browser: shared.browser },
      `signup-invite-${viewport.name}`,
      viewportOptions(viewport),
      async (page) => {
        await page.goto("/signup");
        await expect.poll(() => page.getByTestId("signup-policy").textContent()).toMatch(/need an invite link/);
        expect(await field(page, "username").count()).toBe(0);
        // The login page says it too, instead of "Create an account".
        await page.goto("/login");
        await expect.poll(() => page.getByTestId("signup-policy").textContent()).toMatch(/need an invite link/);
        expect(await page.getByRole("link", { name: "Create an account" }).count()).toBe(0);

        const username = uniqueUsername("invited");
        await page.goto(url);
        await expect.poll(() => page.getByTestId("signup-policy").textContent()).toMatch(/You were invited/);
        await field(page, "username").fill(username);
        await field(page, "password").fill(E2E_PASSWORD);
        await field(page, "submit").click();
        await shellOf(page, username).waitFor({ timeout: 15_000 });

        // The same link, used: refused in words by the form, and nothing typed is lost.
        const page2 = await shared.browser.newContext({
          ...viewportOptions(viewport),
          baseURL: app.url,
          serviceWorkers: "block",
        });
        try {
          const other = await page2.newPage();
          await other.goto(url);
          const second = uniqueUsername("again");
          await field(other, "username").fill(second);
          await field(other, "password").fill(E2E_PASSWORD);
          await field(other, "submit").click();
          await expect
            .poll(() => other.getByTestId("auth-error").textContent())
            .toMatch(/invite link does not work any more/);
          expect(await field(other, "username").inputValue()).toBe(second);
          expect(await field(other, "password").inputValue()).toBe(E2E_PASSWORD);
        } finally {
          await page2.close();
        }

        // The invited user's quota: 0 tokens a day. A message is refused before anything runs.
        const id = await userId(app, username);
        await adminCall(app, "PUT", `/api/admin/users/${id}/quota`, { daily_tokens: 0 });
        await newConversationInBrowser(page);
        await sendChat(page, "Hello over quota");
        const alert = page.getByTestId("refusal-alert");
        await expect.poll(() => alert.textContent(), { timeout: 10_000 }).toMatch(/today's quota of 0 tokens/);
        expect(await alert.getAttribute("role")).toBe("alert");
        expect(await alert.textContent()).not.toMatch(/quota_exceeded/);
        expect(await alert.isVisible()).toBe(true);
        expect(await page.getByTestId("toast").count()).toBe(0);
        const kept = page.getByTestId("pending-message").filter({ hasText: "Hello over quota" });
        await expect.poll(() => kept.getByTestId("pending-note").textContent()).toBe("Not sent");
        expect(await kept.getByTestId("pending-retry").isVisible()).toBe(true);
        expect(await kept.getByTestId("pending-edit").isVisible()).toBe(true);
      },
    );
  });
});

it("closed: the sign-up page offers no form and says sign-ups are closed (desktop)", async () => {
  const app = shared.invite;
  await withPage(
    { app, browser: shared.browser },
    "signup-closed",
    viewportOptions(DESKTOP_AND_PHONE[0]),
    async (page) => {
      // The server's health answer with the policy read as `closed` (the server's own refusal under it is
      // the workers signup test's): what the page offers follows it.
      await page.route("**/api/health", async (route) => {
        const health = (await (await route.fetch()).json()) as Record<string, unknown>;
        await route.fulfill({ json: { ...health, signup: "closed" } });
      });
      await page.goto("/signup");
      await expect
        .poll(() => page.getByTestId("signup-policy").textContent())
        .toMatch(/Sign-ups are closed on this server/);
      expect(await field(page, "username").count()).toBe(0);
      expect(await field(page, "submit").count()).toBe(0);
      await page.getByRole("link", { name: "Log in" }).click();
      await field(page, "username").waitFor();
      expect(await page.getByTestId("signup-policy").textContent()).toMatch(/Sign-ups are closed on this server/);
      expect(await page.getByRole("link", { name: "Create an account" }).count()).toBe(0);
    },
  );
});

describe.each(DESKTOP_AND_PHONE)("sign-up for approval at $name", (viewport) => {
  beforeAll(async () => {
    if (approvalApp) shared.approval = await approvalApp;
  }, 120_000);

  it("approval: the form says so, the account waits on its own page, and opens the app by itself once approved; disabled, its sign-in says why", async () => {
    const app = shared.approval;
    await admin(app);
    await withPage(
      { app, browser: shared.browser },
      `signup-approval-${viewport.name}`,
      viewportOptions(viewport),
      async (page) => {
        await page.goto("/signup");
        await expect
          .poll(() => page.getByTestId("signup-policy").textContent())
          .toMatch(/wait for an administrator's approval/);
        const username = uniqueUsername("waiting");
        await field(page, "username").fill(username);
        await field(page, "password").fill(E2E_PASSWORD);
        // From here on, while the account waits, only /api/me may be asked (anything else would be a 403).
        const calls: string[] = [];
        page.on("request", (request) => {
          const path = new URL(request.url()).pathname;
          if (path.startsWith("/api/") && path !== "/api/auth/signup") calls.push(path);
        });
        await field(page, "submit").click();
        const waiting = page.getByTestId("pending-account");
        await waiting.waitFor({ timeout: 15_000 });
        expect(await waiting.textContent()).toMatch(/Your account is waiting for an administrator's approval/);
        expect(await page.getByTestId("pending-username").textContent()).toBe(username);
        expect(await page.getByTestId("pending-logout").isVisible()).toBe(true);
        // The waiting page checks when the tab comes back to the front.
        await page.evaluate(() => dispatchEvent(new Event("focus")));
        await expect.poll(() => calls.filter((p) => p === "/api/me").length).toBeGreaterThan(0);
        expect(await shellOf(page, username).count()).toBe(0);

        const id = await userId(app, username);
        await adminCall(app, "POST", `/api/admin/users/${id}/approve`);
        expect(
          calls.every((p) => p === "/api/me"),
          calls.join(", "),
        ).toBe(true);
        await page.evaluate(() => dispatchEvent(new Event("focus")));
        await shellOf(page, username).waitFor({ timeout: 15_000 });
        expect(await waiting.count()).toBe(0);

        // Disabled by the admin: signed out, and signing in again says why in the server's words.
        await adminCall(app, "POST", `/api/admin/users/${id}/disable`);
        await page.goto("/login");
        await field(page, "username").fill(username);
        await field(page, "password").fill(E2E_PASSWORD);
        await field(page, "submit").click();
        await expect
          .poll(() => page.getByTestId("auth-error").textContent())
          .toBe("This account has been disabled by an administrator");
        expect(await field(page, "username").inputValue()).toBe(username);
      },
    );
  });
});
