// `npm run screenshots`: the README's pictures of the chat, made from the real app as `npm start` runs
// it offline (the demo model, fresh local state) in headless Chromium, at 1280 px and on a 390 px
// phone, dark, and once light; and the page of a share link to that chat, as a visitor with no account
// sees it; an approval card and an MCP server's question on the phone, and the Schedules page. Writes
// docs/screenshots/chat-1280.png, chat-1280-light.png, chat-390.png, approval-390.png, attachments-1280.png,
// an answer from the web with its sources, web-1280.png, a project's page, projects-1280.png, the demo
// remembering something in a project's conversation, memory-1280.png,
// elicitation-390.png, schedules-1280.png, shared-1280.png, and (ada is the app's admin) Settings → Usage
// under a quota, usage-1280.png, the admin page with a few more accounts, admin-1280.png, Settings →
// Account with a passkey and two sessions, account-1280.png, and the sign-in page on a phone,
// login-390.png; rerun after a UI change.
import { mkdirSync } from "node:fs";
import path from "node:path";
import {
  apiFromPage,
  launchBrowser,
  logInInBrowser,
  newConversationInBrowser,
  ROOT,
  sendChat,
  signUpInBrowser,
  startApp,
  waitTurnEnded,
} from "../test/e2e/harness.ts";
import { startFakeSearch } from "../test/support/fake-search.ts";
import { startElicitServer } from "../test/support/mcp-elicit-server.ts";
import { makePdf } from "../test/support/pdf-fixture.ts";
import { makePng } from "../test/support/png-fixture.ts";
import { addDevice, webAuthn } from "../test/support/virtual-authenticator.ts";

const OUT = path.join(ROOT, "docs/screenshots");

const NOTES: Record<string, string> = {
  "projects/budget.md":
    "# Budget\n\nWe decided to **cap cloud spend at $400 a month** and to review it every quarter.\n\n- hosting: $220\n- model calls: $150\n- backups: $30",
  "projects/launch.md": "# Launch\n\nThe beta opens on the 1st; the budget review comes first.",
};

mkdirSync(OUT, { recursive: true });
// A search provider on this machine (the fake SearXNG of the tests), so the demo model can search the web.
const search = await startFakeSearch();
const [app, browser, elicit] = await Promise.all([
  // A provider the sign-in page offers (its button; nothing is fetched from it here).
  startApp({
    env: {
      ADMINS: "ada",
      OIDC_PROVIDERS: "google",
      OIDC_GOOGLE_ISSUER: "https://accounts.google.com",
      OIDC_GOOGLE_CLIENT_ID: "oracle-screenshots",
      OIDC_GOOGLE_NAME: "Google",
      SEARCH_PROVIDER: "searxng",
      SEARCH_URL: search.base("searxng"),
    },
  }),
  launchBrowser(),
  startElicitServer(),
]);
try {
  // Dark by default (the app follows the system's scheme); one light picture beside it.
  const desktop = await browser.newContext({
    baseURL: app.url,
    viewport: { width: 1280, height: 800 },
    colorScheme: "dark",
  });
  const page = await desktop.newPage();
  await signUpInBrowser(page, "ada");
  for (const [notePath, content] of Object.entries(NOTES)) {
    const saved = await apiFromPage(page, "PUT", `/api/notes/${notePath}`, { content });
    if (saved.status !== 200) throw new Error(`could not save ${notePath}: ${saved.status}`);
  }
  await apiFromPage(page, "POST", "/api/tasks", { title: "Review the cloud budget" });
  const id = await newConversationInBrowser(page);
  for (const prompt of ["search my notes for budget", "think about what to plan first"]) {
    await sendChat(page, prompt);
    await page.locator("[data-role=user]", { hasText: prompt }).waitFor();
    await waitTurnEnded(page, id);
  }
  // The last answer regenerated once, so the pictures show its versions (‹ 2/2 ›).
  await page
    .locator("[data-role=agent][data-phase=final]")
    .last()
    .locator("xpath=..")
    .locator("[data-testid=regenerate]")
    .click();
  await page.locator("[data-testid=version-switcher]").first().waitFor();
  await waitTurnEnded(page, id);
  await page.waitForTimeout(500); // the last frames and the sidebar's refreshed title
  await page.screenshot({ path: path.join(OUT, "chat-1280.png") });
  await page.emulateMedia({ colorScheme: "light" });
  await page.waitForTimeout(200);
  await page.screenshot({ path: path.join(OUT, "chat-1280-light.png") });

  const phone = await browser.newContext({
    baseURL: app.url,
    viewport: { width: 390, height: 844 },
    deviceScaleFactor: 2,
    isMobile: true,
    hasTouch: true,
    colorScheme: "dark",
    storageState: await desktop.storageState(),
  });
  const mobile = await phone.newPage();
  await mobile.goto(`/c/${encodeURIComponent(id)}`);
  await mobile.locator("[data-role=agent]").last().waitFor();
  await mobile.waitForTimeout(500);
  await mobile.screenshot({ path: path.join(OUT, "chat-390.png") });

  // A call that asks first (issue 30), on the phone: the card above the composer, then approved.
  const rule = await apiFromPage(page, "PUT", "/api/tool-approvals", { tool: "task_create", mode: "ask" });
  if (rule.status !== 200) throw new Error(`could not set the approval rule: ${rule.status}`);
  const asking = await newConversationInBrowser(mobile);
  await sendChat(mobile, "add task Renew the passport before the trip");
  const approval = mobile.locator("[data-testid=approval-card]");
  await approval.waitFor();
  await mobile.waitForTimeout(300);
  await mobile.screenshot({ path: path.join(OUT, "approval-390.png") });
  await approval.locator("[data-testid=approval-approve]").click();
  await waitTurnEnded(mobile, asking);

  // An MCP server that asks during its call (issue 40), on the phone: the form card, then answered.
  const trips = await apiFromPage<{ id: string }>(page, "POST", "/api/mcp-servers", {
    name: "trips",
    url: `${elicit.url}?plain`,
  });
  if (trips.status !== 201) throw new Error(`could not add the MCP server: ${trips.status}`);
  await apiFromPage(page, "PUT", "/api/tool-approvals", { tool: `mcp:${trips.body.id}:*`, mode: "allow" });
  const planning = await newConversationInBrowser(mobile);
  await sendChat(mobile, "call trips__ask_form {}");
  const form = mobile.locator("[data-testid=elicitation-card]");
  await form.waitFor();
  await form.locator("[data-field=city]").fill("Lyon");
  await mobile.waitForTimeout(300);
  await mobile.screenshot({ path: path.join(OUT, "elicitation-390.png") });
  await form.getByTestId("elicitation-accept").click();
  await waitTurnEnded(mobile, planning);

  // Files in a message (issue 45): a chart and a report attached by the file picker, and the answer.
  await page.emulateMedia({ colorScheme: "dark" });
  const filed = await newConversationInBrowser(page);
  await page.locator("[data-testid=attach-input]").setInputFiles([
    { name: "cloud-spend.png", mimeType: "image/png", buffer: makePng(480, 300, [46, 125, 200]) },
    {
      name: "budget-review-q3.pdf",
      mimeType: "application/pdf",
      buffer: Buffer.from(
        await makePdf([
          ["Budget review, third quarter", "Cloud spend stayed under the $400 cap: $372 in July."],
          ["Next steps", "Move backups to the cheaper tier."],
        ]),
      ),
    },
  ]);
  await page.locator("[data-testid=send]:not([disabled])").waitFor();
  await sendChat(page, "What do these say?");
  await waitTurnEnded(page, filed);
  await page.waitForTimeout(500);
  await page.screenshot({ path: path.join(OUT, "attachments-1280.png") });

  // An answer from the web: numbered citations in its text, its Sources under it.
  const searched = await newConversationInBrowser(page);
  await sendChat(page, "search the web for the Wend river floods");
  await waitTurnEnded(page, searched);
  await page.locator("[data-testid=citation]").first().waitFor();
  await page.waitForTimeout(500);
  await page.screenshot({ path: path.join(OUT, "web-1280.png") });

  // A project: its instructions and file, its conversations; one of them where the demo remembered something.
  const project = await apiFromPage<{ id: string }>(page, "POST", "/api/projects", {
    name: "Cloud budget",
    instructions: "Keep every plan under the $400 monthly cap. Name the line items you change.",
  });
  if (project.status !== 201) throw new Error(`could not create a project: ${project.status}`);
  const planned = await apiFromPage<{ id: string }>(page, "POST", "/api/conversations", {
    project_id: project.body.id,
  });
  await page.goto(`/c/${planned.body.id}`);
  await sendChat(page, "remember that I review the budget every quarter");
  await waitTurnEnded(page, planned.body.id);
  await page.locator("[data-testid=memory-card]").waitFor();
  await page.waitForTimeout(300);
  await page.screenshot({ path: path.join(OUT, "memory-1280.png") });
  await page.goto(`/projects/${project.body.id}`);
  const upload = page.locator("[data-testid=project-file-input]");
  await upload.setInputFiles({
    name: "line-items.csv",
    mimeType: "text/csv",
    buffer: Buffer.from("item,monthly\nhosting,220\nmodel calls,150\nbackups,30\n"),
  });
  await page.locator("[data-testid=project-file]").first().waitFor();
  await page.waitForTimeout(300);
  await page.screenshot({ path: path.join(OUT, "projects-1280.png"), fullPage: true });

  // The Schedules page with two schedules: a recurring workflow and a one-off reminder.
  for (const body of [
    { conversation_id: id, name: "Daily review", text: "/daily-review", repeat: "every weekday at 08:00" },
    {
      conversation_id: asking,
      name: "Passport follow-up",
      text: "Remind me to check on the passport renewal",
      at: new Date(Date.now() + 3 * 24 * 3600_000).toISOString(),
    },
  ]) {
    const made = await apiFromPage(page, "POST", "/api/schedules", body);
    if (made.status !== 201)
      throw new Error(`could not create a schedule: ${made.status} ${JSON.stringify(made.body)}`);
  }
  await page.emulateMedia({ colorScheme: "dark" });
  await page.goto("/schedules");
  await page.locator("[data-testid=schedule-item]").nth(1).waitFor();
  await page.waitForTimeout(300);
  await page.screenshot({ path: path.join(OUT, "schedules-1280.png"), fullPage: true });

  // A share link with the tool details, opened in a browser with no cookies.
  const share = await apiFromPage<{ url: string }>(
    page,
    "POST",
    `/api/conversations/${encodeURIComponent(id)}/shares`,
    {
      include_tools: true,
    },
  );
  if (share.status !== 201) throw new Error(`could not create a share link: ${share.status}`);
  const visitor = await browser.newContext({
    baseURL: app.url,
    viewport: { width: 1280, height: 800 },
    colorScheme: "dark",
  });
  const shared = await visitor.newPage();
  await shared.goto(share.body.url);
  await shared.locator("[data-testid=shared-page][data-status=ready]").waitFor();
  await shared.waitForTimeout(300);
  await shared.screenshot({ path: path.join(OUT, "shared-1280.png") });
  // Settings → Usage under a quota, and the admin page with a few more accounts (one disabled).
  const me = await apiFromPage<{ user: { id: string } }>(page, "GET", "/api/me");
  await apiFromPage(page, "PUT", `/api/admin/users/${me.body.user.id}/quota`, {
    daily_tokens: 50_000,
    monthly_tokens: 1_000_000,
  });
  for (const name of ["grace", "linus", "margaret"]) {
    const made = await fetch(`${app.url}/api/auth/signup`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: app.url },
      body: JSON.stringify({ username: name, password: "long enough password" }),
    });
    const { user } = (await made.json()) as { user: { id: string } };
    if (name === "linus") await apiFromPage(page, "POST", `/api/admin/users/${user.id}/disable`);
  }
  await apiFromPage(page, "POST", "/api/admin/invites", { note: "Barbara", expires_in_hours: 168 });
  await page.goto("/settings/usage");
  await page.locator("[data-testid=usage-chart-canvas] canvas").waitFor();
  await page.waitForTimeout(300);
  await page.screenshot({ path: path.join(OUT, "usage-1280.png"), fullPage: true });
  await page.goto("/admin");
  await page.locator("[data-testid=admin-user-row]").nth(3).waitFor();
  await page.waitForTimeout(300);
  await page.screenshot({ path: path.join(OUT, "admin-1280.png"), fullPage: true });
  await accountPictures(app.url);
  console.log(
    `wrote ${path.relative(ROOT, OUT)}/chat-1280.png, chat-1280-light.png, chat-390.png, approval-390.png, attachments-1280.png, web-1280.png, projects-1280.png, memory-1280.png, elicitation-390.png, schedules-1280.png, shared-1280.png, usage-1280.png, admin-1280.png, account-1280.png and login-390.png`,
  );
} finally {
  await Promise.all([browser.close(), elicit.close(), search.close()]);
  await app.stop();
}

/**
 * Settings → Account with a passkey (Chromium's virtual authenticator) and a second session from another
 * browser, and the sign-in page on a phone. Both by the name localhost: browsers refuse passkeys on an IP.
 */
async function accountPictures(url: string) {
  const byName = url.replace("//127.0.0.1:", "//localhost:");
  const elsewhere = await browser.newContext({
    baseURL: byName,
    userAgent: "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0",
  });
  await logInInBrowser(await elsewhere.newPage(), "ada");
  // Tall enough for the whole tab: the settings page scrolls inside its own frame, not the window.
  const context = await browser.newContext({
    baseURL: byName,
    viewport: { width: 1280, height: 2900 },
    colorScheme: "dark",
  });
  const page = await context.newPage();
  await addDevice(await webAuthn(page));
  await logInInBrowser(page, "ada");
  await page.goto("/settings/account");
  await page.locator("[data-testid=passkey-add]").click();
  await page.locator("[data-testid=passkey]").waitFor();
  await page.locator("[data-testid=session]").nth(2).waitFor();
  const bottom = await page.locator("[data-testid=account]").evaluate((panel) => {
    panel.scrollIntoView({ block: "end" });
    return panel.getBoundingClientRect().bottom;
  });
  await page.waitForTimeout(300);
  await page.screenshot({
    path: path.join(OUT, "account-1280.png"),
    clip: { x: 0, y: 0, width: 1280, height: Math.min(2900, bottom + 40) },
  });
  const phone = await browser.newContext({
    baseURL: byName,
    viewport: { width: 390, height: 844 },
    isMobile: true,
    hasTouch: true,
    colorScheme: "dark",
  });
  const login = await phone.newPage();
  await login.goto("/login");
  await login.locator("[data-testid=passkey-signin]").waitFor();
  await login.locator("[data-testid=forgot-password] summary").click();
  await login.waitForTimeout(300);
  await login.screenshot({ path: path.join(OUT, "login-390.png") });
  await Promise.all([elsewhere.close(), context.close(), phone.close()]);
}
