// The Notes and Tasks pages, as a person uses them on a phone (390×844): create a note (an invalid and a
// taken path are refused in words), read it as Markdown, edit it with a preview, delete it after a
// confirm step; add tasks, complete and reopen them, delete one and undo. Every change is checked
// through the API too, and no page scrolls sideways.
import type { Page } from "playwright-core";
import { expect, it } from "vitest";
import { apiFromPage, asNewUser, useSharedApp } from "./harness.ts";

const live = useSharedApp();

const PHONE = { width: 390, height: 844 };

/** The page must not scroll sideways. */
const noHorizontalScroll = async (page: Page) =>
  expect(
    await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, width: window.innerWidth })),
  ).toSatisfy(({ scroll, width }: { scroll: number; width: number }) => scroll <= width);

const activeTestId = (page: Page) => page.evaluate(() => document.activeElement?.getAttribute("data-testid"));

// signUpInBrowser waits for the username, which the header may hide on a phone: sign up wide, then
// each test narrows the window to PHONE.
const WIDE = { viewport: { width: 1280, height: 800 } };

it("creates, reads, edits and deletes a note on a phone", async () => {
  await asNewUser(live, "notes", WIDE, async (page) => {
    // The header's Notes link leads to the page.
    await page.locator("[data-testid=notes-link]").first().click();
    await page.waitForURL((url) => url.pathname === "/notes");
    await page.setViewportSize(PHONE);

    await page.locator("[data-testid=notes-empty]").waitFor({ timeout: 15_000 });
    expect(await page.locator("[data-testid=notes-empty]").textContent()).toMatch(/No notes yet/);
    await noHorizontalScroll(page);

    // New note: the path field takes the focus; a bad path is refused with the API's reason.
    await page.locator("[data-testid=notes-new]").click();
    await expect.poll(() => activeTestId(page)).toBe("note-path-input");
    await page.locator("[data-testid=note-path-input]").fill("bad?path");
    await page.locator("[data-testid=note-textarea]").fill("x");
    await page.locator("[data-testid=note-save]").click();
    const error = page.locator("[data-testid=note-error]");
    await error.waitFor();
    expect(await error.textContent()).toMatch(/Could not create the note: the path may only contain letters/);
    expect((await apiFromPage(page, "GET", "/api/notes")).body).toEqual({ notes: [] });

    const content = "# Plan\n\n- **first** step\n- second step\n\n<img src=x onerror=\"window.__xss='note'\">";
    await page.locator("[data-testid=note-path-input]").fill("projects/plan.md");
    await page.locator("[data-testid=note-textarea]").fill(content);
    // The preview shows the Markdown.
    await page.locator("[data-testid=note-mode-preview]").click();
    const preview = page.locator("[data-testid=note-preview]");
    expect(await preview.locator("h1").textContent()).toBe("Plan");
    expect(await preview.locator("strong").textContent()).toBe("first");
    await page.locator("[data-testid=note-mode-edit]").click();
    expect(await page.locator("[data-testid=note-textarea]").inputValue()).toBe(content);
    await page.locator("[data-testid=note-save]").click();

    // Created: its page shows it as Markdown, its raw HTML as text.
    await page.waitForURL((url) => url.pathname === "/notes/projects/plan.md");
    const body = page.locator("[data-testid=note-body]");
    await body.locator("h1").waitFor();
    expect(await page.locator("[data-testid=note-title]").textContent()).toBe("projects/plan.md");
    expect(await body.locator("h1").textContent()).toBe("Plan");
    expect(await body.locator("li").allTextContents()).toEqual(["first step", "second step"]);
    expect(await body.locator("img").count()).toBe(0);
    expect(await body.textContent()).toContain("<img src=x");
    const saved = await apiFromPage<{ content: string }>(page, "GET", "/api/notes/projects/plan.md");
    expect(saved.status).toBe(200);
    expect(saved.body.content).toBe(content);
    await noHorizontalScroll(page);

    // A taken path is refused: creating never overwrites.
    await page.locator("[data-testid=notes-back]").click();
    await page.waitForURL((url) => url.pathname === "/notes");
    await page.locator("[data-testid=notes-new]").click();
    await page.locator("[data-testid=note-path-input]").fill("projects/plan.md");
    await page.locator("[data-testid=note-textarea]").fill("overwritten?");
    await page.locator("[data-testid=note-save]").click();
    await error.waitFor();
    expect(await error.textContent()).toMatch(/a note at projects\/plan\.md already exists/);
    expect((await apiFromPage<{ content: string }>(page, "GET", "/api/notes/projects/plan.md")).body.content).toBe(
      content,
    );
    await page.locator("[data-testid=note-cancel]").click();

    // The list, with its filter.
    const items = page.locator("[data-testid=note-item]");
    expect(await items.count()).toBe(1);
    expect(await items.first().getAttribute("data-path")).toBe("projects/plan.md");
    await page.locator("[data-testid=notes-filter]").fill("nothing-like-it");
    await page.locator("[data-testid=notes-no-match]").waitFor();
    expect(await items.count()).toBe(0);
    await page.locator("[data-testid=notes-filter]").fill("PLAN");
    expect(await items.count()).toBe(1);
    await noHorizontalScroll(page);
    await items.first().locator("a").click();
    await page.waitForURL((url) => url.pathname === "/notes/projects/plan.md");

    // Edit: the editor takes the focus; Cancel changes nothing, Save saves.
    await page.locator("[data-testid=note-edit]").click();
    await expect.poll(() => activeTestId(page)).toBe("note-textarea");
    expect(await page.locator("[data-testid=note-textarea]").inputValue()).toBe(content);
    await page.locator("[data-testid=note-textarea]").fill("thrown away");
    await page.locator("[data-testid=note-cancel]").click();
    expect(await body.locator("h1").textContent()).toBe("Plan");
    await expect.poll(() => activeTestId(page)).toBe("note-edit");

    await page.locator("[data-testid=note-edit]").click();
    const edited = "# Plan v2\n\nAll steps **done**.";
    await page.locator("[data-testid=note-textarea]").fill(edited);
    await noHorizontalScroll(page);
    await page.locator("[data-testid=note-save]").click();
    await expect.poll(() => body.locator("h1").textContent()).toBe("Plan v2");
    expect(await body.locator("strong").textContent()).toBe("done");
    expect((await apiFromPage<{ content: string }>(page, "GET", "/api/notes/projects/plan.md")).body.content).toBe(
      edited,
    );

    // Delete asks first; "Keep it" keeps it, the confirm deletes it.
    await page.locator("[data-testid=note-delete]").click();
    await page.locator("[data-testid=note-confirm]").waitFor();
    await expect.poll(() => activeTestId(page)).toBe("note-keep");
    await page.locator("[data-testid=note-keep]").click();
    expect(await page.locator("[data-testid=note-confirm]").count()).toBe(0);
    expect((await apiFromPage(page, "GET", "/api/notes/projects/plan.md")).status).toBe(200);
    await page.locator("[data-testid=note-delete]").click();
    await page.locator("[data-testid=note-confirm-delete]").click();
    await page.waitForURL((url) => url.pathname === "/notes");
    expect(await page.locator("[data-testid=notes-status]").textContent()).toContain("Deleted projects/plan.md");
    await page.locator("[data-testid=notes-empty]").waitFor();
    expect((await apiFromPage(page, "GET", "/api/notes/projects/plan.md")).status).toBe(404);

    // A note written elsewhere (the agent, another tab) shows up; a missing path says so.
    await apiFromPage(page, "PUT", "/api/notes/inbox.md", { content: "From the agent" });
    await page.goto("/notes/inbox.md");
    await expect.poll(() => body.textContent(), { timeout: 15_000 }).toBe("From the agent");
    await page.goto("/notes/no/such/note.md");
    await page.locator("[data-testid=note-missing]").waitFor({ timeout: 15_000 });
    await noHorizontalScroll(page);

    expect(await page.evaluate(() => (window as unknown as { __xss?: string }).__xss)).toBeUndefined();
  });
});

it("adds, completes, reopens and deletes tasks on a phone", async () => {
  await asNewUser(live, "tasks", WIDE, async (page) => {
    type TaskRow = { id: string; title: string; status: string };
    const apiTasks = async () =>
      (await apiFromPage<{ tasks: TaskRow[] }>(page, "GET", "/api/tasks")).body.tasks.map((t) => [t.title, t.status]);
    await page.locator("[data-testid=tasks-link]").first().click();
    await page.waitForURL((url) => url.pathname === "/tasks");
    await page.setViewportSize(PHONE);
    await page.locator("[data-testid=tasks-empty]").waitFor({ timeout: 15_000 });
    expect(await page.locator("[data-testid=tasks-empty]").textContent()).toMatch(/No tasks yet/);
    await noHorizontalScroll(page);

    // An empty title is refused here, in words.
    await page.locator("[data-testid=task-add]").click();
    expect(await page.locator("[data-testid=task-error]").textContent()).toMatch(/Write what the task is/);

    // Add two: Enter and the button; the input is emptied and keeps the focus.
    const input = page.locator("[data-testid=task-input]");
    await input.fill("Buy milk");
    await input.press("Enter");
    await page.locator("[data-testid=task-item]", { hasText: "Buy milk" }).waitFor();
    expect(await input.inputValue()).toBe("");
    await expect.poll(() => activeTestId(page)).toBe("task-input");
    await input.fill("Write the report, which has a very long title that must wrap on a narrow phone screen");
    await page.locator("[data-testid=task-add]").click();
    const report = page.locator("[data-testid=task-item]", { hasText: "Write the report" });
    await report.waitFor();
    await expect.poll(() => activeTestId(page)).toBe("task-input");
    expect(await apiTasks()).toEqual([
      ["Write the report, which has a very long title that must wrap on a narrow phone screen", "open"],
      ["Buy milk", "open"],
    ]);
    await noHorizontalScroll(page);

    // Complete one: it moves to Done, and the API agrees; reopen it, then complete it again.
    const milk = () => page.locator("[data-testid=task-item]", { hasText: "Buy milk" });
    await milk().locator("[data-testid=task-toggle]").check();
    await page.locator("[data-testid=tasks-done] [data-testid=task-item]", { hasText: "Buy milk" }).waitFor();
    await expect.poll(async () => Object.fromEntries(await apiTasks())["Buy milk"]).toBe("done");
    expect(await milk().getAttribute("data-status")).toBe("done");
    await milk().locator("[data-testid=task-toggle]").uncheck();
    await page.locator("[data-testid=tasks-open] [data-testid=task-item]", { hasText: "Buy milk" }).waitFor();
    await expect.poll(async () => Object.fromEntries(await apiTasks())["Buy milk"]).toBe("open");
    await milk().locator("[data-testid=task-toggle]").check();
    await expect.poll(async () => Object.fromEntries(await apiTasks())["Buy milk"]).toBe("done");

    // The filter shows one group.
    await page.locator("[data-testid=task-filter-done]").click();
    expect(await page.locator("[data-testid=task-title]").allTextContents()).toEqual(["Buy milk"]);
    await page.locator("[data-testid=task-filter-open]").click();
    expect(await page.locator("[data-testid=task-title]").allTextContents()).toEqual([
      "Write the report, which has a very long title that must wrap on a narrow phone screen",
    ]);
    await page.locator("[data-testid=task-filter-all]").click();

    // Delete, with Undo; the focus goes to the next task's checkbox (never to another Delete); then
    // delete for good.
    await report.locator("[data-testid=task-delete]").click();
    await page.locator("[data-testid=task-undo]").waitFor();
    await expect.poll(() => activeTestId(page)).toBe("task-toggle");
    expect(
      await milk()
        .locator("[data-testid=task-toggle]")
        .evaluate((el) => el === document.activeElement),
    ).toBe(true);
    expect(await report.count()).toBe(0);
    expect((await apiTasks()).map(([title]) => title)).toEqual(["Buy milk"]);
    await page.locator("[data-testid=task-undo]").click();
    await report.waitFor();
    expect((await apiTasks()).length).toBe(2);
    // Undo of a done task brings it back done.
    await milk().locator("[data-testid=task-delete]").click();
    await page.locator("[data-testid=task-undo]").click();
    await milk().waitFor();
    await expect.poll(async () => Object.fromEntries(await apiTasks())["Buy milk"]).toBe("done");
    expect(await milk().getAttribute("data-status")).toBe("done");

    await report.locator("[data-testid=task-delete]").click();
    await page.locator("[data-testid=task-undo]").waitFor();
    expect(await apiTasks()).toEqual([["Buy milk", "done"]]);
    await noHorizontalScroll(page);

    // A reload shows what the server holds.
    await page.reload();
    await milk().waitFor({ timeout: 15_000 });
    expect(await page.locator("[data-testid=task-item]").count()).toBe(1);
    expect(await milk().locator("[data-testid=task-toggle]").isChecked()).toBe(true);
  });
});
