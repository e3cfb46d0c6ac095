// Settings end to end (seed 001 FR-016…018): the Agent tab saves a field by itself, the value survives
// a reload, an out-of-range value gets an inline message and is never saved, and the Agent notices
// tab is one click away.
import type { Page } from "playwright-core";
import { expect, it } from "vitest";
import { asNewUser, useSharedApp } from "./harness.ts";

const live = useSharedApp();

const savedMaxIterations = async (page: Page) => {
  const res = await page.request.get("/api/settings/agent");
  expect(res.status()).toBe(200);
  return ((await res.json()) as { maxIterations: number }).maxIterations;
};

it("saves Max iterations, keeps it across a reload, refuses out-of-range values inline", async () => {
  await asNewUser(live, "settings", {}, async (page) => {
    await page.locator("[data-testid=settings-link]").click();
    await page.locator("[data-testid=tab-agent]").click();
    expect(new URL(page.url()).pathname).toBe("/settings/agent");

    const field = page.locator("[data-testid=agent-field-maxIterations]");
    await field.waitFor({ timeout: 15_000 });
    expect(await field.inputValue()).toBe("15"); // the default until the user saves

    // A valid change saves itself (debounced) and says so next to the field.
    await field.fill("10");
    await page.locator("[data-testid=field-status-maxIterations][data-status=saved]").waitFor({ timeout: 10_000 });
    expect(await savedMaxIterations(page)).toBe(10);

    // Still 10 after a reload.
    await page.reload();
    await field.waitFor({ timeout: 15_000 });
    expect(await field.inputValue()).toBe("10");

    // Out of range: an inline message, and nothing reaches the server.
    const error = page.locator("[data-testid=field-error-maxIterations]");
    for (const bad of ["0", "99"]) {
      await field.fill(bad);
      await error.waitFor({ timeout: 5_000 });
      expect((await error.textContent())?.trim()).toBeTruthy();
      await expect.poll(() => field.getAttribute("aria-invalid")).toBe("true");
    }
    await page.waitForTimeout(800); // longer than the save debounce: a save would have happened by now
    expect(await savedMaxIterations(page)).toBe(10);

    // Back to a valid value: the message goes away.
    await field.fill("12");
    await error.waitFor({ state: "detached", timeout: 5_000 });
    await page.locator("[data-testid=field-status-maxIterations][data-status=saved]").waitFor({ timeout: 10_000 });
    expect(await savedMaxIterations(page)).toBe(12);

    // The Agent notices tab is reachable: its subscribers, or a note that they are not available yet.
    await page.locator("[data-testid=tab-agent-notices]").click();
    expect(new URL(page.url()).pathname).toBe("/settings/agent-notices");
    await page
      .locator("[data-testid=agent-notices], [data-testid=agent-notices-unavailable]")
      .first()
      .waitFor({ timeout: 10_000 });
  });
});
