// System items rendered for what they are (issue 5, seed 002), with the demo model (no key):
//   "summarise @plan.md …"      → a file_attachment: a collapsed file card that opens to the note;
//                                 #writing-style and /summarize (default library entries): chips
//   a reminder every request    → "search my notes for plan" makes several model requests without
//                                 task tools, so task reminders name the open task, without raw tags
//   a turn killed with the app  → after a restart, an interrupt banner and a conversation that is
//                                 not running
// Each history is reloaded to check that every item shows exactly once, as it occurred.
import type { Page } from "playwright-core";
import { afterEach, beforeEach, expect, it } from "vitest";
import {
  apiFromPage,
  appAndBrowserForFile,
  leaveEvidence,
  logInInBrowser,
  newConversationInBrowser,
  sendChat,
  signUpInBrowser,
  waitTurnEnded,
} from "./harness.ts";

// An app of the file's own, not the shared one: the last test kills live.app's runtime (it comes back on the same state).
const live = appAndBrowserForFile();

let page: Page;
let username: string;
let pageErrors: string[];

async function openPage(baseURL: string): Promise<Page> {
  const context = await live.browser.newContext({
    reducedMotion: "reduce",
    baseURL,
    viewport: { width: 1200, height: 900 },
  });
  const opened = await context.newPage();
  opened.on("pageerror", (e) => pageErrors.push(String(e)));
  return opened;
}

beforeEach(async () => {
  pageErrors = [];
  page = await openPage(live.app.url);
  username = await signUpInBrowser(page);
});
afterEach(async (ctx) => {
  const failed = ctx.task.result?.state === "fail" || (ctx.task.result?.errors?.length ?? 0) > 0;
  if (failed) await leaveEvidence(page, live.app, `system-items-${ctx.task.name.slice(0, 30)}`, pageErrors);
  await page?.context().close();
});

/** Every message as shown: role, kind (system items) and text; for comparing before and after a reload. */
const shown = (p: Page) =>
  p
    .locator("[data-role]")
    .evaluateAll((els) =>
      els.map(
        (e) =>
          `${e.getAttribute("data-role")}:${e.getAttribute("data-kind") ?? ""}:${(e.textContent ?? "").replace(/\s+/g, " ").trim()}`,
      ),
    );

async function reloadShowsTheSame(p: Page, before: string[]) {
  await p.reload();
  await expect.poll(() => shown(p), { timeout: 15_000 }).toEqual(before);
  await p.waitForTimeout(1000); // a late resume replay would show up as duplicates now
  expect(await shown(p)).toEqual(before);
}

it("shows an attached note as a collapsed file card, knowledge and workflows as chips", async () => {
  const content = "Step 1: draft the plan\nStep 2: review it with the team";
  expect((await apiFromPage(page, "PUT", "/api/notes/plan.md", { content })).status).toBeLessThan(300);
  const id = await newConversationInBrowser(page);
  await sendChat(page, "summarise @plan.md #writing-style /summarize");
  await waitTurnEnded(page, id);

  const card = page.locator("[data-role=system][data-kind=file_attachment] [data-testid=file-card]");
  await card.waitFor({ timeout: 15_000 });
  expect(await card.count()).toBe(1);
  expect(await card.locator("[data-testid=file-path]").textContent()).toBe("plan.md");
  expect(await card.evaluate((e) => (e as HTMLDetailsElement).open)).toBe(false);
  expect(await card.locator("[data-testid=file-content]").isVisible()).toBe(false);

  await card.locator("summary").click();
  await card.locator("[data-testid=file-content]").waitFor({ state: "visible" });
  const text = await card.locator("[data-testid=file-content]").textContent();
  expect(text).toContain("Step 2: review it with the team");
  expect(text).not.toContain("[File:");

  // Knowledge and workflow: a chip with the slug that opens to the entry's text.
  const chips = [
    ["knowledge", "#writing-style", "Lead with the answer"],
    ["workflow", "/summarize", "Summarise this conversation"],
  ] as const;
  for (const [kind, label, body] of chips) {
    const chip = page.locator(`[data-role=system][data-kind=${kind}] [data-testid=${kind}-chip]`);
    expect(await chip.count()).toBe(1);
    expect(await chip.locator("summary").textContent()).toContain(label);
    expect(await chip.locator("[data-testid=chip-body]").isVisible()).toBe(false);
    await chip.locator("summary").click();
    await chip.locator("[data-testid=chip-body]").waitFor({ state: "visible" });
    expect(await chip.locator("[data-testid=chip-body]").textContent()).toContain(body);
  }

  // The items follow the user's message in the order of its references.
  const order = await page
    .locator("[data-role]")
    .evaluateAll((els) => els.map((e) => `${e.getAttribute("data-role")}:${e.getAttribute("data-kind") ?? ""}`));
  expect(order.slice(0, 4)).toEqual(["user:", "system:file_attachment", "system:knowledge", "system:workflow"]);

  await reloadShowsTheSame(page, await shown(page));
  expect(pageErrors).toEqual([]);
});

it("shows a task reminder naming the open task, without the raw reminder tags", async () => {
  const settings = await apiFromPage(page, "PUT", "/api/settings/agent", { taskReminderRequests: 1 });
  expect(settings.status).toBe(200);
  expect((await apiFromPage(page, "POST", "/api/tasks", { title: "Write the report" })).status).toBe(201);
  await apiFromPage(page, "PUT", "/api/notes/plan.md", { content: "The plan: write the report by Friday." });
  const id = await newConversationInBrowser(page);
  await sendChat(page, "search my notes for plan");
  await waitTurnEnded(page, id);

  const reminders = page.locator("[data-role=system][data-kind=task_reminder] [data-testid=task-reminder]");
  await reminders.first().waitFor({ timeout: 15_000 });
  expect(await reminders.count()).toBeGreaterThanOrEqual(1);
  for (const text of await reminders.allTextContents()) {
    expect(text).toContain("Write the report");
    expect(text).not.toContain("system-reminder");
  }
  expect(await page.locator("[data-testid=message-list]").textContent()).not.toContain("<system-reminder>");

  await reloadShowsTheSame(page, await shown(page));
  expect(pageErrors).toEqual([]);
});

it("shows an interrupt banner after the app died mid-turn, and the turn goes on to its answer", async () => {
  const id = await newConversationInBrowser(page);
  await sendChat(page, "tell me a long story");
  await expect
    .poll(
      async () =>
        (await page
          .locator("[data-testid=streaming]")
          .textContent()
          .catch(() => "")) ?? "",
      {
        timeout: 15_000,
      },
    )
    .toContain("Chapter 1");
  await live.app.crash();
  await page.context().close();

  page = await openPage(live.app.url);
  await logInInBrowser(page, username);
  await page.goto(`/c/${encodeURIComponent(id)}`);
  const chat = page.locator(`[data-testid=chat][data-conversation-id=${JSON.stringify(id)}]`);
  await chat
    .locator("[data-testid=connection-status][data-status=connected]")
    .waitFor({ state: "attached", timeout: 15_000 });

  const banner = page.locator("[data-role=system][data-kind=interrupt] [data-testid=interrupt-banner]");
  await banner.waitFor({ timeout: 15_000 });
  expect(await banner.count()).toBe(1);
  expect(await banner.textContent()).toMatch(/interrupted/i);
  expect(await banner.textContent()).not.toContain("[Interrupted]");
  // The turn resumed and finished: its answer is there once, and Send works again.
  await expect.poll(() => page.locator("[data-testid=stop]").count(), { timeout: 60_000 }).toBe(0);
  expect(await page.locator("[data-role=agent]", { hasText: "Chapter 1" }).count()).toBe(1);
  await page.locator("[data-testid=composer-input]").fill("are you there?");
  await expect.poll(() => page.locator("[data-testid=send]").isEnabled()).toBe(true);
  await page.locator("[data-testid=composer-input]").fill("");
  expect(await page.locator("[data-role=user]", { hasText: "tell me a long story" }).count()).toBe(1);

  await reloadShowsTheSame(page, await shown(page));
  expect(await page.locator("[data-testid=interrupt-banner]").count()).toBe(1);
  expect(pageErrors).toEqual([]);
});
