// The Schedules page (/schedules) in a real browser, on a desktop and on a phone: the form creates a
// recurring and a one-off schedule, listed with the rule in words, its zone and the next run in the
// browser's time; a rule that runs too often is refused in words and the form keeps what was typed;
// pause, resume, edit (kept after a reload) and delete after the confirm step; a schedule deleted on the
// page before its time never posts, while one left alone does (once, on a desktop); nothing scrolls
// sideways on the phone; a time the clocks skip says, as it is saved, when it actually runs.
// On the shared fake-model app: each test has its own user, conversations and model keys.
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { type Schedule, wallTime } from "../../protocol/schedules";
import { marker, scriptModel } from "../support/fake-openai-client";
import { springForward } from "../support/new-york-dst";
import { apiFromPage, asNewUser, type PageOptions, useSharedFakeModelApp } from "./harness";

const shared = useSharedFakeModelApp();
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The browser's own zone and the schedules' zone differ, so "local time" is really the browser's. */
const BROWSER_ZONE = "America/New_York";
const SCHEDULE_ZONE = "Europe/Paris";

const VIEWPORTS: { name: string; width: number; options: PageOptions }[] = [
  { name: "desktop", width: 1280, options: { viewport: { width: 1280, height: 800 } } },
  { name: "phone", width: 390, options: { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true } },
];

/** The page's "next run" in the browser's time (en-US, BROWSER_ZONE), spaces made plain. */
const localTime = (iso: string) =>
  new Date(iso)
    .toLocaleString("en-US", {
      timeZone: BROWSER_ZONE,
      weekday: "short",
      month: "short",
      day: "numeric",
      hour: "2-digit",
      minute: "2-digit",
    })
    .replace(/\s/g, " ");
const plain = (text: string | null) => (text ?? "").replace(/\s/g, " ").trim();

const row = (page: Page, name: string) =>
  page.locator("[data-testid=schedule-item]", {
    has: page.locator("[data-testid=schedule-title]", { hasText: name }),
  });

async function schedulesByName(page: Page): Promise<Map<string, Schedule>> {
  const res = await apiFromPage<{ schedules: Schedule[] }>(page, "GET", "/api/schedules");
  expect(res.status).toBe(200);
  return new Map(res.body.schedules.map((s) => [s.name, s]));
}

async function createConversation(page: Page, title: string): Promise<string> {
  const res = await apiFromPage<{ id: string }>(page, "POST", "/api/conversations", { title });
  expect(res.status).toBe(201);
  return res.body.id;
}

async function openSchedules(page: Page): Promise<void> {
  await page.goto("/schedules");
  await page.locator("[data-testid=schedule-form]").waitFor({ timeout: 15_000 });
}

/** Accepts (or dismisses) the next confirm dialog, returning its message. */
function onNextConfirm(page: Page, accept: boolean): Promise<string> {
  return new Promise((resolve) => {
    page.once("dialog", (dialog) => {
      const message = dialog.message();
      void (accept ? dialog.accept() : dialog.dismiss()).then(() => resolve(message));
    });
  });
}

/** Nothing on the page is wider than the viewport, and neither the document nor the page scrolls sideways. */
async function expectNoSidewaysScroll(page: Page, width: number): Promise<void> {
  const found = await page.evaluate(() => {
    const section = document.querySelector<HTMLElement>("[data-testid=schedules-page]");
    const scrollers = [document.documentElement, document.body, section].map((e) =>
      e ? { scroll: e.scrollWidth, client: e.clientWidth } : null,
    );
    const wide: string[] = [];
    for (const el of section?.querySelectorAll<HTMLElement>("*") ?? []) {
      const box = el.getBoundingClientRect();
      if (box.width === 0 && box.height === 0) continue;
      if (box.left < -0.5 || box.right > window.innerWidth + 0.5)
        wide.push(`${el.tagName.toLowerCase()}[${el.dataset.testid ?? el.className}] ${box.left}..${box.right}`);
    }
    return { scrollers, wide, innerWidth: window.innerWidth };
  });
  expect(found.innerWidth).toBe(width);
  for (const s of found.scrollers) if (s) expect(s.scroll).toBeLessThanOrEqual(s.client);
  expect(found.wide).toEqual([]);
}

/** Each of the row's buttons lies inside the viewport's width (scrolled to, if need be). */
async function expectButtonsReachable(page: Page, name: string, width: number): Promise<void> {
  for (const testid of ["schedule-pause", "schedule-edit", "schedule-delete"]) {
    const button = row(page, name).locator(`[data-testid=${testid}]`);
    await button.scrollIntoViewIfNeeded();
    const box = await button.boundingBox();
    expect(box, testid).not.toBeNull();
    if (!box) return;
    expect(box.x, testid).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width, testid).toBeLessThanOrEqual(width);
    expect(box.height, testid).toBeGreaterThan(0);
  }
}

// Server logic more than the page (the page's Delete is in the tests below, at both sizes), and most of
// it waiting for the schedules' time: once, on a desktop, and side by side with the file's other tests
// (each its own user), so its wait overlaps their work rather than holding the file's slot alone.
it.concurrent("a schedule deleted on the page before its time never posts; one left alone does", async () => {
  const context: PageOptions = { ...VIEWPORTS[0]?.options, locale: "en-US", timezoneId: BROWSER_ZONE };
  await asNewUser(shared, "schedules-page-stops", context, async (page) => {
    const doomedIn = await createConversation(page, "Doomed chat");
    const controlIn = await createConversation(page, "Control chat");
    const key = `sp${Date.now().toString(36)}`;
    await scriptModel(shared.llm.url, `${key}d`, [{ text: "The deleted schedule ran." }]);
    await scriptModel(shared.llm.url, `${key}c`, [{ text: "The control schedule ran." }]);
    // The page is loaded first, so only a reload stands between creating them and deleting one.
    await openSchedules(page);
    // Both due at the same instant, ahead enough for a loaded machine (15 s was once not); each in a
    // conversation of its own.
    const due = Date.now() + 25_000;
    for (const [conversation_id, label, k] of [
      [doomedIn, "Doomed", `${key}d`],
      [controlIn, "Control", `${key}c`],
    ] as const) {
      const created = await apiFromPage(page, "POST", "/api/schedules", {
        conversation_id,
        name: label,
        text: `${label} run ${marker(k)}`,
        at: new Date(due).toISOString(),
      });
      expect(created.status).toBe(201);
    }

    await page.reload();
    const doomed = row(page, "Doomed");
    await doomed.waitFor();
    await row(page, "Control").waitFor();
    const asked = onNextConfirm(page, true);
    const deleted = page.waitForResponse(
      (r) => r.url().includes("/api/schedules/") && r.request().method() === "DELETE",
    );
    await doomed.locator("[data-testid=schedule-delete]").click();
    await asked;
    expect((await deleted).status()).toBe(204);
    await doomed.waitFor({ state: "detached" });
    // Deleted well before it was due, or the test proves nothing.
    expect(Date.now()).toBeLessThan(due - 2_000);

    // The doomed conversation stays open in the page while the time passes.
    await page.goto(`/c/${encodeURIComponent(doomedIn)}`);
    await page
      .locator(
        `[data-testid=chat][data-conversation-id=${JSON.stringify(doomedIn)}] [data-testid=connection-status][data-status=connected]`,
      )
      .waitFor({ state: "attached", timeout: 15_000 });

    const messages = async (id: string) =>
      (
        await apiFromPage<{ messages: { role: string; origin?: { name: string }; content?: string }[] }>(
          page,
          "GET",
          `/api/conversations/${encodeURIComponent(id)}/messages?limit=1000`,
        )
      ).body.messages;
    // The control fires (so this test can fail)…
    const deadline = due + 60_000; // a loaded machine has seen it ~20 s late
    let control: Awaited<ReturnType<typeof messages>> = [];
    while (Date.now() < deadline) {
      control = await messages(controlIn);
      if (control.some((m) => m.role === "agent" && m.content === "The control schedule ran.")) break;
      await sleep(250);
    }
    expect(control.find((m) => m.role === "user")?.origin).toMatchObject({ name: "Control" });
    expect(control.some((m) => m.role === "agent" && m.content === "The control schedule ran.")).toBe(true);
    // …and, well past the due time, the deleted one has posted nothing.
    await sleep(Math.max(0, due + 5_000 - Date.now()));
    expect(await messages(doomedIn)).toEqual([]);
    expect(await page.locator("[data-testid=scheduled-label]").count()).toBe(0);
    expect(await page.locator("[data-role=user]").count()).toBe(0);
  });
}, 120_000);

describe.concurrent.each(VIEWPORTS)("the Schedules page on $name", ({ name, width, options }) => {
  const context: PageOptions = { ...options, locale: "en-US", timezoneId: BROWSER_ZONE };

  it("creates, refuses a too-frequent rule in words, pauses, resumes, edits and deletes", async () => {
    await asNewUser(shared, `schedules-page-${name}`, context, async (page) => {
      await createConversation(page, "Inbox chat");
      await createConversation(page, "Morning planning");
      await openSchedules(page);
      await expect.poll(() => page.locator("[data-testid=schedule-conversation] option").count()).toBeGreaterThan(1);
      await page.locator("[data-testid=schedules-empty]").waitFor();

      // A recurring one through the form, in a zone other than the browser's.
      await page.locator("[data-testid=schedule-conversation]").selectOption({ label: "Morning planning" });
      await page.locator("[data-testid=schedule-name]").fill("Morning digest");
      await page.locator("[data-testid=schedule-text]").fill("Summarise my inbox");
      await page.locator("[data-testid=schedule-kind-cron]").check();
      await page.locator("[data-testid=schedule-repeat]").fill("every weekday at 08:00");
      await page.locator("[data-testid=schedule-time-zone]").fill(SCHEDULE_ZONE);
      await page.locator("[data-testid=schedule-create]").click();
      const digest = row(page, "Morning digest");
      await digest.waitFor();
      expect(plain(await page.locator("[data-testid=schedules-status]").textContent())).toBe(
        "✓ Scheduled “Morning digest”",
      );
      // The form is ready for the next one: the text is cleared, the zone kept.
      expect(await page.locator("[data-testid=schedule-text]").inputValue()).toBe("");
      expect(await page.locator("[data-testid=schedule-time-zone]").inputValue()).toBe(SCHEDULE_ZONE);
      let saved = (await schedulesByName(page)).get("Morning digest");
      expect(saved).toMatchObject({
        cron: "0 8 * * 1-5",
        time_zone: SCHEDULE_ZONE,
        conversation_title: "Morning planning",
      });
      const digestNext = saved?.next_run_at ?? "";
      expect(wallTime(digestNext, SCHEDULE_ZONE)).toMatch(/ 08:00$/);
      expect(plain(await digest.locator("[data-testid=schedule-rule]").textContent())).toBe(
        `Every weekday at 08:00 (${SCHEDULE_ZONE})`,
      );
      expect(plain(await digest.locator("[data-testid=schedule-next]").textContent())).toBe(
        `Next: ${localTime(digestNext)}`,
      );
      expect(await digest.getByRole("link", { name: "Morning planning" }).count()).toBe(1);

      // A one-off at a date-time read in the chosen zone.
      const day = wallTime(new Date(Date.now() + 20 * 86_400_000).toISOString(), SCHEDULE_ZONE).slice(0, 10);
      await page.locator("[data-testid=schedule-conversation]").selectOption({ label: "Inbox chat" });
      await page.locator("[data-testid=schedule-name]").fill("Dentist reminder");
      await page.locator("[data-testid=schedule-text]").fill("Remind me to call the dentist");
      await page.locator("[data-testid=schedule-kind-once]").check();
      await page.locator("[data-testid=schedule-at]").fill(`${day}T09:30`);
      await page.locator("[data-testid=schedule-create]").click();
      const dentist = row(page, "Dentist reminder");
      await dentist.waitFor();
      saved = (await schedulesByName(page)).get("Dentist reminder");
      expect(saved).toMatchObject({ kind: "once", time_zone: SCHEDULE_ZONE, conversation_title: "Inbox chat" });
      expect(wallTime(saved?.next_run_at ?? "", SCHEDULE_ZONE)).toBe(`${day} 09:30`);
      expect(plain(await dentist.locator("[data-testid=schedule-rule]").textContent())).toBe(
        `Once, ${day} 09:30 (${SCHEDULE_ZONE})`,
      );
      expect(plain(await dentist.locator("[data-testid=schedule-next]").textContent())).toBe(
        `Next: ${localTime(saved?.next_run_at ?? "")}`,
      );

      // Too often: refused in words, and what was typed is still there.
      await page.locator("[data-testid=schedule-name]").fill("Nag");
      await page.locator("[data-testid=schedule-text]").fill("Are we there yet?");
      await page.locator("[data-testid=schedule-kind-cron]").check();
      await page.locator("[data-testid=schedule-repeat]").fill("*/5 * * * *");
      await page.locator("[data-testid=schedule-create]").click();
      const error = page.locator("[data-testid=schedule-error]");
      await error.waitFor();
      expect(await error.getAttribute("role")).toBe("alert");
      // No stale "✓ Scheduled" beside the refusal.
      expect(await page.locator("[data-testid=schedules-status]").count()).toBe(0);
      expect(plain(await error.textContent())).toBe(
        "Could not create the schedule: the rule runs more often than every 15 minutes.",
      );
      expect(await page.locator("[data-testid=schedule-name]").inputValue()).toBe("Nag");
      expect(await page.locator("[data-testid=schedule-text]").inputValue()).toBe("Are we there yet?");
      expect(await page.locator("[data-testid=schedule-repeat]").inputValue()).toBe("*/5 * * * *");
      expect(await page.locator("[data-testid=schedule-kind-cron]").isChecked()).toBe(true);
      expect(await page.locator("[data-testid=schedule-time-zone]").inputValue()).toBe(SCHEDULE_ZONE);
      expect(await page.locator("[data-testid=schedule-item]").count()).toBe(2);
      expect([...(await schedulesByName(page)).keys()].sort()).toEqual(["Dentist reminder", "Morning digest"]);

      // The phone: nothing scrolls sideways, and the row's buttons are within reach.
      await expectNoSidewaysScroll(page, width);
      await expectButtonsReachable(page, "Morning digest", width);
      await expectButtonsReachable(page, "Dentist reminder", width);

      // Pause: the row says so and has no next run; resume brings the next run back.
      await digest.locator("[data-testid=schedule-pause]").click();
      await page.locator("[data-testid=schedule-item][data-paused=true]").waitFor();
      expect(plain(await digest.locator("[data-testid=schedule-pause]").textContent())).toBe("Resume");
      expect(await digest.getByText("paused", { exact: true }).isVisible()).toBe(true);
      expect(plain(await digest.locator("[data-testid=schedule-next]").textContent())).not.toContain("Next:");
      expect((await schedulesByName(page)).get("Morning digest")).toMatchObject({ paused: true, next_run_at: null });
      await page.reload();
      await digest.waitFor();
      expect(await digest.getAttribute("data-paused")).toBe("true");
      expect(plain(await digest.locator("[data-testid=schedule-next]").textContent())).not.toContain("Next:");
      await digest.locator("[data-testid=schedule-pause]").click();
      await page.locator("[data-testid=schedule-item][data-paused=true]").waitFor({ state: "detached" });
      expect(plain(await page.locator("[data-testid=schedules-status]").textContent())).toBe(
        "Resumed “Morning digest”",
      );
      expect(plain(await digest.locator("[data-testid=schedule-next]").textContent())).toBe(
        `Next: ${localTime(digestNext)}`,
      );

      // Edit the text and the rule; the change is there after a reload.
      await digest.locator("[data-testid=schedule-edit]").click();
      const edit = digest.locator("[data-testid=schedule-edit-form]");
      await edit.waitFor();
      expect(await edit.locator("[data-testid=schedule-text]").inputValue()).toBe("Summarise my inbox");
      // The rule is offered in the words it was made with, not as cron.
      expect(await edit.locator("[data-testid=schedule-repeat]").inputValue()).toBe("every weekday at 08:00");
      expect(await edit.locator("[data-testid=schedule-kind-cron]").isChecked()).toBe(true);
      expect(await edit.locator("[data-testid=schedule-time-zone]").inputValue()).toBe(SCHEDULE_ZONE);
      await edit.locator("[data-testid=schedule-text]").fill("Summarise my inbox and calendar");
      await edit.locator("[data-testid=schedule-repeat]").fill("every monday at 9:00");
      await expectNoSidewaysScroll(page, width);
      await edit.locator("[data-testid=schedule-save]").click();
      await edit.waitFor({ state: "detached" });
      await page.reload();
      await digest.waitFor();
      expect(plain(await digest.locator("[data-testid=schedule-rule]").textContent())).toBe(
        `Every Monday at 09:00 (${SCHEDULE_ZONE})`,
      );
      expect(plain(await digest.locator("[data-testid=schedule-message]").textContent())).toBe(
        "Summarise my inbox and calendar",
      );
      saved = (await schedulesByName(page)).get("Morning digest");
      expect(saved).toMatchObject({ cron: "0 9 * * 1", text: "Summarise my inbox and calendar", paused: false });
      expect(plain(await digest.locator("[data-testid=schedule-next]").textContent())).toBe(
        `Next: ${localTime(saved?.next_run_at ?? "")}`,
      );

      // An edit the server refuses says why in the row, and keeps the edit open.
      await dentist.locator("[data-testid=schedule-edit]").click();
      const dentistEdit = dentist.locator("[data-testid=schedule-edit-form]");
      expect(await dentistEdit.locator("[data-testid=schedule-at]").inputValue()).toBe(`${day}T09:30`);
      await dentistEdit.locator("[data-testid=schedule-at]").fill("2001-01-01T09:00");
      await dentistEdit.locator("[data-testid=schedule-save]").click();
      const editError = dentist.locator("[data-testid=schedule-edit-error]");
      await editError.waitFor();
      expect(plain(await editError.textContent())).toBe(
        "Could not save the schedule: the date and time is in the past; a one-off must be in the future.",
      );
      expect(await dentistEdit.locator("[data-testid=schedule-at]").inputValue()).toBe("2001-01-01T09:00");
      await dentistEdit.getByRole("button", { name: "Cancel" }).click();
      await dentistEdit.waitFor({ state: "detached" });

      // Delete: dismissing the confirm keeps it; accepting removes it, also after a reload.
      let asked = onNextConfirm(page, false);
      await dentist.locator("[data-testid=schedule-delete]").click();
      expect(await asked).toBe("Delete the schedule “Dentist reminder”?");
      await sleep(300);
      expect(await dentist.count()).toBe(1);
      asked = onNextConfirm(page, true);
      await dentist.locator("[data-testid=schedule-delete]").click();
      expect(await asked).toBe("Delete the schedule “Dentist reminder”?");
      await dentist.waitFor({ state: "detached" });
      expect(plain(await page.locator("[data-testid=schedules-status]").textContent())).toBe(
        "Deleted “Dentist reminder”",
      );
      await page.reload();
      await digest.waitFor();
      expect(await dentist.count()).toBe(0);
      expect([...(await schedulesByName(page)).keys()]).toEqual(["Morning digest"]);
      await expectNoSidewaysScroll(page, width);
    });
  }, 120_000);
});

describe.concurrent("the Schedules page across a daylight-saving change", () => {
  it("says, as a schedule is saved, when a time the clocks skip actually runs", async () => {
    const context: PageOptions = { viewport: { width: 1280, height: 800 }, locale: "en-US", timezoneId: BROWSER_ZONE };
    await asNewUser(shared, "schedules-page-dst", context, async (page) => {
      await createConversation(page, "Night chat");
      await openSchedules(page);
      await expect.poll(() => page.locator("[data-testid=schedule-conversation] option").count()).toBeGreaterThan(0);
      const day = springForward();
      const fill = async (label: string, rule: () => Promise<void>) => {
        await page.locator("[data-testid=schedule-name]").fill(label);
        await page.locator("[data-testid=schedule-text]").fill("Back up the photos");
        await rule();
        await page.locator("[data-testid=schedule-time-zone]").fill("America/New_York");
        await page.locator("[data-testid=schedule-create]").click();
        await row(page, label).waitFor();
        return plain(await row(page, label).locator("[data-testid=schedule-note]").textContent());
      };

      const nightly = await fill("Nightly backup", async () => {
        await page.locator("[data-testid=schedule-kind-cron]").check();
        await page.locator("[data-testid=schedule-repeat]").fill("every day at 02:30");
      });
      expect(nightly).toBe(
        `On ${day}, 02:30 does not exist in America/New_York: the clocks go forward from 02:00 to 03:00, so that day it runs at 03:00.`,
      );
      const once = await fill("One-off backup", async () => {
        await page.locator("[data-testid=schedule-kind-once]").check();
        await page.locator("[data-testid=schedule-at]").fill(`${day}T02:30`);
      });
      expect(once).toBe(
        `${day} 02:30 does not exist in America/New_York: the clocks go forward from 02:00 to 03:00, so it runs at 03:00.`,
      );
      expect(plain(await row(page, "One-off backup").locator("[data-testid=schedule-rule]").textContent())).toBe(
        `Once, ${day} 03:00 (America/New_York)`,
      );
    });
  }, 60_000);
});
