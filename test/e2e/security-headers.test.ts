// Issue 10 (hardening): every HTML response carries the security headers (client/public/_headers,
// applied by wrangler's assets layer, SPA fallback included), API responses carry nosniff, and the app
// really works under that CSP in Chromium: it loads, signs up, opens a conversation and gets `hello`
// on its socket without a single CSP violation.
import type { Page } from "playwright-core";
import { expect, it } from "vitest";
import { leaveEvidence, newConversationInBrowser, signUpInBrowser, useSharedApp } from "./harness.ts";

const live = useSharedApp();

const CSP_DIRECTIVES = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "connect-src 'self'",
  "img-src 'self' data:",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
];

function expectHtmlHeaders(headers: Headers) {
  const csp = (headers.get("Content-Security-Policy") ?? "").split(";").map((d) => d.trim());
  expect(csp).toEqual(expect.arrayContaining(CSP_DIRECTIVES));
  expect(headers.get("X-Frame-Options")).toBe("DENY");
  expect(headers.get("X-Content-Type-Options")).toBe("nosniff");
  expect(headers.get("Referrer-Policy")).toBe("no-referrer");
  expect(headers.get("Permissions-Policy")).toContain("camera=()");
}

it("serves / and a deep link with every security header, and API responses with nosniff", async () => {
  for (const path of ["/", "/c/some-conversation-id", "/settings/agent"]) {
    const res = await fetch(`${live.app.url}${path}`);
    expect(res.status, path).toBe(200);
    expect(res.headers.get("Content-Type"), path).toContain("text/html");
    expectHtmlHeaders(res.headers);
  }
  // The rules file is read by wrangler, never served: /_headers falls back to the app's HTML.
  expect(await (await fetch(`${live.app.url}/_headers`)).text()).not.toContain("Content-Security-Policy:");

  for (const path of ["/api/health", "/api/no-such-route", "/api/me"]) {
    const res = await fetch(`${live.app.url}${path}`);
    expect(res.headers.get("Content-Type"), path).toContain("application/json");
    expect(res.headers.get("X-Content-Type-Options"), path).toBe("nosniff");
  }
});

/**
 * Every CSP violation the page reports, as the DOM event and as Chromium's console message, and any
 * complaint about the Permissions-Policy header (an unknown feature name, say).
 */
async function recordViolations(page: Page): Promise<string[]> {
  const violations: string[] = [];
  page.on("console", (message) => {
    if (/Content Security Policy|Permissions-Policy/i.test(message.text())) {
      violations.push(`console: ${message.text()}`);
    }
  });
  await page.exposeFunction("reportViolation", (text: string) => violations.push(`event: ${text}`));
  await page.addInitScript(() => {
    document.addEventListener("securitypolicyviolation", (e) => {
      const report = (window as unknown as { reportViolation: (text: string) => void }).reportViolation;
      report(`${e.violatedDirective} blocked ${e.blockedURI}`);
    });
  });
  return violations;
}

/** Resolves with the first `hello` frame any socket of the page receives. */
function nextHello(page: Page): Promise<unknown> {
  return new Promise((resolve) => {
    page.on("websocket", (socket) => {
      socket.on("framereceived", ({ payload }) => {
        const frame = JSON.parse(String(payload)) as { type?: string };
        if (frame.type === "hello") resolve(frame);
      });
    });
  });
}

it("loads, signs up, opens a conversation and gets hello on its socket with no CSP violation", async () => {
  const context = await live.browser.newContext({ baseURL: live.app.url });
  const page = await context.newPage();
  const pageErrors: string[] = [];
  page.on("pageerror", (e) => pageErrors.push(String(e)));
  const violations = await recordViolations(page);
  try {
    const hello = nextHello(page);
    await signUpInBrowser(page);
    const id = await newConversationInBrowser(page);
    expect(await hello).toMatchObject({ type: "hello", conversation_id: id });

    // A deep link loads through the SPA fallback under the same policy and connects again.
    const helloAgain = nextHello(page);
    await page.reload();
    expect(await helloAgain).toMatchObject({ type: "hello", conversation_id: id });

    expect(violations).toEqual([]);
    expect(pageErrors).toEqual([]);
  } catch (error) {
    await leaveEvidence(page, live.app, "security-headers", [...pageErrors, ...violations]);
    throw error;
  } finally {
    await context.close();
  }
});
