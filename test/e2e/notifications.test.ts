// Notifications in the browser (seed 000 US2, US5; FR-022…031, SC-003, SC-005): System messages look
// apart from user and agent messages and name their source in plain words, TOON batches read as tables
// (under Details when the headline says it all), long ones fold, the Agent notices tab switches
// subscribers (core ones locked, with the reason), and history shows each System message once. A card
// may stand for several notices (issue 26: repeats, a loop incident), so the cards are counted by the
// notices they say they hold (data-notices). The app runs the demo model (no OPENAI_API_KEY):
//   "loop"                      → vault_read fails again and again: "Tool failures" + "Loop detected",
//                                 shown as one incident card
//   "write a note called x: y"  → one vault_write: a "Tool successes" notification once tool_success
//                                 is switched on (it ships off, as does turn_summary)
//   low budgets + that phrase   → iteration and token warnings due at the same step: one TOON batch
//                                 of two rows (the demo makes one tool call per step, so tool batches
//                                 never hold more than one row)
//   POST …/notify               → an "External" notification, here long enough to fold
import type { Page } from "playwright-core";
import { afterEach, beforeEach, expect, it } from "vitest";
import {
  apiFromPage,
  leaveEvidence,
  newConversationInBrowser,
  sendChat,
  signUpInBrowser,
  useSharedApp,
  waitTurnEnded,
} from "./harness.ts";

const ALWAYS_ON_REASON = "Always on: the agent relies on it";

type SystemMessage = {
  seq: number;
  role: string;
  source: string;
  item: { kind: string; subscriber?: string; format?: string; data?: unknown };
};

// The run's shared demo-model app, as most e2e files use (a fresh app takes ~7 s; one per test made
// the file take 53–57 s on a busy 2-core machine); each test is isolated by its own user, whose
// settings, subscriber toggles and conversations are its own, in its own browser context.
const live = useSharedApp();

let page: Page;
let pageErrors: string[];

beforeEach(async () => {
  const context = await live.browser.newContext({
    reducedMotion: "reduce",
    baseURL: live.app.url,
    viewport: { width: 1200, height: 900 },
  });
  page = await context.newPage();
  pageErrors = [];
  page.on("pageerror", (e) => pageErrors.push(String(e)));
  await signUpInBrowser(page);
});
afterEach(async (ctx) => {
  const failed = ctx.task.result?.state === "fail" || (ctx.task.result?.errors?.length ?? 0) > 0;
  if (failed) await leaveEvidence(page, live.app, `notifications-${ctx.task.name.slice(0, 40)}`, pageErrors);
  await page?.context().close();
});

async function systemMessages(conversationId: string): Promise<SystemMessage[]> {
  const res = await apiFromPage<{ messages: SystemMessage[] }>(
    page,
    "GET",
    `/api/conversations/${encodeURIComponent(conversationId)}/messages`,
  );
  expect(res.status).toBe(200);
  return res.body.messages.filter((m) => m.role === "system");
}

/** Runs one demo turn in a new conversation and waits until every System message of it is shown. */
async function demoTurn(phrase: string): Promise<{ id: string; system: SystemMessage[] }> {
  const id = await newConversationInBrowser(page);
  await sendChat(page, phrase);
  await page.locator("[data-role=user]", { hasText: phrase }).waitFor({ timeout: 15_000 });
  await waitTurnEnded(page, id);
  const system = await systemMessages(id);
  await openTurnGroups(page);
  await expect.poll(() => noticesShown(page), { timeout: 10_000 }).toBe(system.length);
  return { id, system };
}

/** How many System messages the cards on show stand for (a folded card holds several). */
const noticesShown = (p: Page) =>
  p
    .locator("[data-role=system]")
    .evaluateAll((els) => els.reduce((n, e) => n + Number(e.getAttribute("data-notices") ?? 1), 0));

/** Routine System messages (a tool success summary) fold into their turn's group: open every group. */
async function openTurnGroups(p: Page) {
  await expect
    .poll(() => p.locator("[data-testid=turn-group][data-running=true]").count(), { timeout: 10_000 })
    .toBe(0);
  const closed = p.locator("[data-testid=turn-group-toggle][aria-expanded=false]");
  while ((await closed.count()) > 0) await closed.first().click();
}

const systemTexts = (p: Page) =>
  p
    .locator("[data-role=system]")
    .evaluateAll((els) =>
      els.map((e) => `${e.getAttribute("data-seq")}|${(e.textContent ?? "").replace(/\s+/g, " ").trim()}`),
    );

it("shows System messages apart from user and agent messages, with their source, read-only", async () => {
  const { system } = await demoTurn("loop");
  const sources = new Set(system.map((m) => m.source));
  expect(sources).toContain("Tool Executor");
  expect(sources).toContain("Loop Detector");

  // The loop incident (the failed reads and the loop warning) is one card, its source in plain words.
  const loop = page.locator("[data-role=system][data-source='Loop Detector']");
  expect(await loop.count()).toBe(1);
  expect(await loop.locator("[data-testid=system-source]").textContent()).toBe("Agent");
  expect(await loop.getByText("System", { exact: true }).isVisible()).toBe(true);
  // The headline is the first line: "Loop detected: …", then the failures' latest: "Read a note failed …"
  // (tools by their labels, issue 41).
  expect(await loop.locator("[data-testid=notification-headline]").textContent()).toMatch(
    /^Loop detected: Read a note/,
  );
  expect(await loop.locator("[data-testid=notice-related]").textContent()).toMatch(/^Read a note failed/);
  expect(await loop.textContent()).not.toContain("[Notification:");
  // The data part reads as fields, not as raw TOON/JSON, under Details.
  const fields = loop.locator("[data-testid=notification-fields]");
  expect(await fields.isVisible()).toBe(false);
  await loop.locator("[data-testid=system-details] summary").click();
  expect(await fields.isVisible()).toBe(true);
  expect(await fields.locator("dt").allTextContents()).toContain("kind");
  // …and what the model read, verbatim, beside it (issue 41).
  expect(await loop.locator("[data-testid=system-model-text]").textContent()).toContain(
    "[Notification: Loop detection]",
  );

  // Visibly distinct: a different card colour than the user's and the agent's bubbles, and a severity
  // stripe they do not have.
  const look = (selector: string) =>
    page
      .locator(selector)
      .first()
      .evaluate((el) => {
        const card = el.matches("[data-role=system]") ? el : (el.firstElementChild ?? el);
        const s = getComputedStyle(card);
        return { background: s.backgroundColor, stripe: `${s.borderLeftWidth} ${s.borderLeftColor}` };
      });
  const [systemLook, userLook, agentLook] = await Promise.all([
    look("[data-role=system][data-severity=error]"),
    look("[data-role=user]"),
    look("[data-role=agent]"),
  ]);
  expect(systemLook.background).not.toBe(userLook.background);
  expect(systemLook.background).not.toBe(agentLook.background);
  expect(systemLook.stripe).not.toBe(agentLook.stripe);
  expect(systemLook.stripe).not.toBe(userLook.stripe);
  expect(systemLook.stripe.startsWith("4px")).toBe(true);

  // Read-only: nothing to reply with or edit; the only possible controls are Show more/less and the
  // list of notices a card stands for.
  const controls = page.locator(
    "[data-role=system] button:not([data-testid=show-more]):not([data-testid=notice-toggle]), [data-role=system] input, [data-role=system] textarea, [data-role=system] [contenteditable]",
  );
  expect(await controls.count()).toBe(0);
  expect(
    await page
      .locator("[data-role=system]")
      .getByRole("button", { name: /reply|edit/i })
      .count(),
  ).toBe(0);
  expect(pageErrors).toEqual([]);
});

it("renders a TOON batch as a table, a single event as fields, and raw text when it cannot parse", async () => {
  // Budgets so small that the iteration warning (step 2 of 4) and the token warning (10% of 1,000)
  // are due at the same step: one batched notification of two rows, encoded as TOON.
  const saved = await apiFromPage(page, "PUT", "/api/settings/agent", {
    maxIterations: 4,
    softWarningPercent: 50,
    tokenBudget: 1000,
    tokenWarningPercent: 10,
  });
  expect(saved.status).toBe(200);
  const { id, system } = await demoTurn("write a note called x: y");
  const batch = system.find((m) => m.item.subscriber === "budget_warning");
  expect(batch?.item.format).toBe("toon");
  expect(Array.isArray(batch?.item.data) && batch.item.data.length).toBe(2);

  const card = page.locator(`[data-role=system][data-seq="${batch?.seq}"]`);
  expect(await card.locator("[data-testid=system-source]").textContent()).toBe("Limits");
  // The headline says it in words; the table is one click away, under Details.
  const table = card.locator("table[data-testid=notification-table]");
  expect(await table.isVisible()).toBe(false);
  await card.locator("[data-testid=system-details] summary").click();
  await table.waitFor({ timeout: 5_000 });
  expect(await card.locator("[data-testid=notification-data]").getAttribute("data-decoded-from")).toBe("body");
  expect(await table.locator("thead th").allTextContents()).toEqual(["budget", "used", "limit", "percent"]);
  const rows = await table
    .locator("tbody tr")
    .evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll("td")].map((td) => td.textContent)));
  expect(rows).toHaveLength(2);
  expect(rows.map((r) => r[0])).toEqual(["iterations", "tokens"]);
  expect(rows[0]?.slice(1)).toEqual(["2", "4", "50"]);
  // The data reads as a table, not raw TOON; the raw TOON is what the model read, beside it (issue 41).
  expect(await card.locator("[data-testid=notification-data]").textContent()).not.toMatch(
    /\{budget,used,limit,percent\}/,
  );
  expect(await card.locator("[data-testid=system-model-text]").textContent()).toMatch(/\{budget,used,limit,percent\}/);
  expect(await card.locator("[data-testid=show-more]").count()).toBe(0); // two rows: not folded

  // A single event (an External notification from the API) reads as a key–value list.
  const posted = await apiFromPage(page, "POST", `/api/conversations/${encodeURIComponent(id)}/notify`, {
    message: "Backup finished",
    severity: "info",
  });
  expect(posted.status).toBe(202);
  const external = page.locator("[data-role=system]", {
    has: page.locator("[data-testid=system-source]", { hasText: "External" }),
  });
  await external.waitFor({ timeout: 10_000 });
  expect(await external.locator("[data-testid=notification-headline]").textContent()).toBe("Backup finished");
  const fields = external.locator("[data-testid=notification-fields]");
  expect(await fields.locator("dt").allTextContents()).toEqual(["message"]);
  expect(await fields.locator("dd").allTextContents()).toEqual(["Backup finished"]);

  // TOON that does not parse: with `data` beside it the data is shown; without, the raw text with a
  // visible mark. Injected into the socket, since the server only sends what it could encode.
  // Each follows the one before it on the current path (hello's leaf_seq first), as the server's do.
  const broken = (seq: number, parent: number, message: string, data?: unknown) => ({
    type: "message",
    message: {
      seq,
      parent_seq: parent,
      id: `injected-${seq}`,
      created_at: new Date().toISOString(),
      role: "system",
      source: "Injected Source",
      severity: "warning",
      item: {
        kind: "notification",
        message,
        body: `[Notification: Test] ${message}\n[3]{tool,error}:\n  vault_read,boom`,
        format: "toon",
        subscriber: "test",
        priority: "normal",
        ...(data === undefined ? {} : { data }),
      },
    },
  });
  const injected = await page.context().newPage();
  await injected.routeWebSocket(/\/ws$/, (ws) => {
    const server = ws.connectToServer();
    let leaf = 0;
    server.onMessage((frame) => {
      if (typeof frame === "string" && frame.includes('"hello"')) leaf = JSON.parse(frame).leaf_seq;
      ws.send(frame);
    });
    ws.onMessage((frame) => {
      server.send(frame);
      if (typeof frame === "string" && frame.includes('"resume"')) {
        setTimeout(() => {
          ws.send(JSON.stringify(broken(9001, leaf, "Broken without data")));
          const rows = Array.from({ length: 7 }, (_, i) => ({ tool: `tool_${i + 1}`, error: "boom" }));
          ws.send(JSON.stringify(broken(9002, 9001, "Broken with data", rows)));
        }, 300);
      }
    });
  });
  await injected.goto(`/c/${encodeURIComponent(id)}`);
  const bare = injected.locator('[data-role=system][data-seq="9001"]');
  await bare.waitFor({ timeout: 10_000 });
  await bare.locator("[data-testid=could-not-parse]").waitFor(); // the data's chunk loads with the first data shown
  expect(await bare.locator("pre").textContent()).toContain("vault_read,boom");
  expect(await bare.locator("[data-testid=notification-headline]").textContent()).toBe("Broken without data");
  const withData = injected.locator('[data-role=system][data-seq="9002"]');
  await withData.locator("[data-testid=notification-table]").waitFor({ timeout: 5_000 });
  expect(await withData.locator("[data-testid=notification-data]").getAttribute("data-decoded-from")).toBe("data");
  expect(await withData.locator("[data-testid=could-not-parse]").count()).toBe(0);
  // Seven rows: over ~5, so the table starts folded.
  expect(await withData.locator("[data-testid=notification-table] tbody tr").count()).toBe(7);
  expect(await withData.locator("[data-collapsed]").getAttribute("data-collapsed")).toBe("true");
  expect(await withData.locator("[data-testid=show-more]").textContent()).toBe("Show more");
  expect(pageErrors).toEqual([]);
});

it("folds a long notification behind Show more, and Show less folds it again", async () => {
  const id = await newConversationInBrowser(page);
  const lines = Array.from({ length: 24 }, (_, i) => `line ${i + 1}: disk /dev/sd${i} checked, no errors found`);
  const posted = await apiFromPage(page, "POST", `/api/conversations/${encodeURIComponent(id)}/notify`, {
    message: lines.join("\n"),
    severity: "warning",
  });
  expect(posted.status).toBe(202);

  const card = page.locator("[data-role=system]").first();
  await card.waitFor({ timeout: 10_000 });
  expect(await card.locator("[data-testid=system-source]").textContent()).toBe("External");
  const toggle = card.locator("[data-testid=show-more]");
  const fold = card.locator("[data-collapsed]");
  const shownHeight = () =>
    card.locator("[data-testid=notification-data]").evaluate((el) => el.parentElement?.clientHeight ?? 0);
  const lastLine = card.getByText("line 24:", { exact: false });

  expect(await toggle.textContent()).toBe("Show more");
  expect(await fold.getAttribute("data-collapsed")).toBe("true");
  const foldedHeight = await shownHeight();

  await toggle.click();
  await expect.poll(() => toggle.textContent()).toBe("Show less");
  expect(await fold.getAttribute("data-collapsed")).toBe("false");
  expect(await shownHeight()).toBeGreaterThan(foldedHeight * 2);
  expect(await lastLine.isVisible()).toBe(true);

  await toggle.click();
  await expect.poll(() => toggle.textContent()).toBe("Show more");
  expect(await fold.getAttribute("data-collapsed")).toBe("true");
  expect(await shownHeight()).toBe(foldedHeight);
  expect(pageErrors).toEqual([]);
});

it("switches subscribers in the Agent notices tab within 3 clicks; core ones are locked and say why", async () => {
  await newConversationInBrowser(page); // start from the chat page
  let clicks = 0;
  const click = async (selector: string) => {
    clicks++;
    await page.locator(selector).click();
  };
  await click("[data-testid=settings-link]");
  await click("[data-testid=tab-agent-notices]");
  expect(new URL(page.url()).pathname).toBe("/settings/agent-notices");
  await page.locator("[data-testid=agent-notices]").waitFor({ timeout: 10_000 });

  // Every subscriber the server has, with name, description, status, and its event types under Details.
  const listed = await apiFromPage<{ id: string; name: string; events: string[]; core: boolean; enabled: boolean }[]>(
    page,
    "GET",
    "/api/subscribers",
  );
  expect(listed.status).toBe(200);
  expect(listed.body.length).toBeGreaterThan(3);
  for (const s of listed.body) {
    const row = page.locator(`[data-testid=subscriber-${s.id}]`);
    expect(await row.locator(`[data-testid=subscriber-name-${s.id}]`).textContent()).toBe(s.name);
    expect(await row.locator("[data-testid=subscriber-event]").allTextContents()).toEqual(s.events);
    expect(await row.locator("[data-testid=subscriber-event]").first().isVisible()).toBe(false);
    expect(await row.locator(`[data-testid=subscriber-status-${s.id}]`).textContent()).toBe(
      s.core ? "Always on" : s.enabled ? "On" : "Off",
    );
  }
  // The two that repeat what the chat already shows ship off.
  expect(listed.body.filter((s) => !s.enabled).map((s) => s.id)).toEqual(
    expect.arrayContaining(["tool_success", "turn_summary"]),
  );

  // A core subscriber: locked on, with the reason on hover and, in its own words, in its description.
  const core = page.locator("[data-testid=subscriber-tool_failure]");
  expect(await core.getAttribute("data-core")).toBe("true");
  expect(await core.locator("[data-testid=subscriber-toggle-tool_failure]").isDisabled()).toBe(true);
  expect(await core.locator("[data-testid=subscriber-toggle-tool_failure]").isChecked()).toBe(true);
  expect(await core.locator("[data-testid=subscriber-lock-tool_failure]").getAttribute("title")).toBe(ALWAYS_ON_REASON);
  const note = core.locator("[data-testid=subscriber-description-tool_failure]");
  expect(await note.isVisible()).toBe(true);
  expect(await note.textContent()).toMatch(/Always on: without it/);

  // Tool successes on: the third click.
  const toggle = page.locator("[data-testid=subscriber-toggle-tool_success]");
  const status = page.locator("[data-testid=subscriber-status-tool_success]");
  expect(await toggle.isChecked()).toBe(false);
  const saved = page.waitForResponse(
    (r) => r.url().endsWith("/api/subscribers/tool_success") && r.request().method() === "PUT",
  );
  await click("[data-testid=subscriber-toggle-tool_success]");
  expect(clicks).toBeLessThanOrEqual(3);
  expect((await saved).status()).toBe(200);
  expect(await status.textContent()).toBe("On");

  // Still on after a reload, and the server agrees.
  await page.reload();
  await toggle.waitFor({ timeout: 10_000 });
  expect(await toggle.isChecked()).toBe(true);
  expect(await status.textContent()).toBe("On");
  const after = await apiFromPage<{ id: string; enabled: boolean }[]>(page, "GET", "/api/subscribers");
  expect(after.body.find((s) => s.id === "tool_success")?.enabled).toBe(true);

  // A refused change flips back and says why on its row.
  await page.route("**/api/subscribers/turn_summary", (route) =>
    route.fulfill({
      status: 409,
      contentType: "application/json",
      body: JSON.stringify({ error: { code: "conflict", message: "Refused for the test" } }),
    }),
  );
  await page.locator("[data-testid=subscriber-toggle-turn_summary]").click();
  await page.locator("[data-testid=subscriber-error-turn_summary]", { hasText: "Refused for the test" }).waitFor();
  expect(await page.locator("[data-testid=subscriber-toggle-turn_summary]").isChecked()).toBe(false);
  expect(await page.locator("[data-testid=subscriber-status-turn_summary]").textContent()).toBe("Off");
  await page.unroute("**/api/subscribers/turn_summary");

  // It takes effect at once: a successful tool call now yields a Tool successes notification, and the
  // turn summary, still off, none.
  await page.locator("a", { hasText: "Back to chat" }).click();
  const { system } = await demoTurn("write a note called x: y");
  expect(system.filter((m) => m.item.subscriber === "tool_success")).toHaveLength(1);
  // A success is routine: it sits in the turn's folded steps, not in the thread.
  expect(await page.locator("[data-testid=turn-group] [data-role=system][data-source='Tool Executor']").count()).toBe(
    1,
  );
  expect(system.filter((m) => m.item.subscriber === "turn_summary")).toEqual([]);
  expect(pageErrors).toEqual([]);
});

it("shows the same System messages exactly once after a reload, without re-triggering them", async () => {
  const { id, system } = await demoTurn("loop");
  expect(system.length).toBeGreaterThanOrEqual(3);
  const before = await systemTexts(page);
  expect(await noticesShown(page)).toBe(system.length);

  await page.reload();
  await page.locator("[data-role=user]", { hasText: "loop" }).waitFor({ timeout: 15_000 });
  await openTurnGroups(page);
  await expect.poll(() => systemTexts(page), { timeout: 10_000 }).toEqual(before);
  await page.waitForTimeout(1000); // a late resume replay would show up as duplicates now
  const after = await systemTexts(page);
  expect(after).toEqual(before);
  const seqs = after.map((t) => t.split("|")[0]);
  expect(new Set(seqs).size).toBe(seqs.length);
  // Nothing was delivered again on the server side either.
  expect((await systemMessages(id)).map((m) => m.seq)).toEqual(system.map((m) => m.seq));
  expect(pageErrors).toEqual([]);
});
