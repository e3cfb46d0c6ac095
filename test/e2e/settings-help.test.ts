// Settings → Agent explains itself and can start over: every field has a sentence on what it does and
// its default (the inputs are described by it), and "Reset to defaults", after a confirm step, saves
// the protocol's defaults for every field, overtaking a change still waiting to be saved.
import type { Page } from "playwright-core";
import { expect, it } from "vitest";
import { AGENT_CONFIG_FIELDS, DEFAULT_AGENT_CONFIG } from "../../protocol";
import { signUpInBrowser, useSharedApp, withPage } from "./harness.ts";

const live = useSharedApp();

const saved = async (page: Page) => {
  const res = await page.request.get("/api/settings/agent");
  expect(res.status()).toBe(200);
  return (await res.json()) as Record<string, unknown>;
};

const activeTestId = (page: Page) => page.evaluate(() => document.activeElement?.getAttribute("data-testid"));

it("explains every agent setting and resets them all to their defaults", async () => {
  await withPage(live, "settings-help", { viewport: { width: 390, height: 844 } }, async (page) => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await signUpInBrowser(page);
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto("/settings/agent");
    await page.locator("[data-testid=agent-settings]").waitFor({ timeout: 15_000 });

    // Help under every field, with its default; the inputs are described by it.
    for (const [name, spec] of Object.entries(AGENT_CONFIG_FIELDS)) {
      const help = page.locator(`[data-testid=field-help-${name}]`);
      expect(await help.isVisible(), name).toBe(true);
      const text = (await help.textContent()) ?? "";
      expect(text.length, name).toBeGreaterThan(40);
      expect(text, name).toContain(`Default: ${spec.default}`);
      const helpId = await help.getAttribute("id");
      expect(await page.locator(`[data-testid=agent-field-${name}]`).getAttribute("aria-describedby")).toContain(
        helpId,
      );
    }
    const treeHelp = page.locator("[data-testid=field-help-decisionTree]");
    expect(await treeHelp.textContent()).toContain("roa");
    expect(await treeHelp.textContent()).toContain("Default: default");
    expect(await page.locator("[data-testid=agent-field-decisionTree]").getAttribute("aria-describedby")).toBe(
      await treeHelp.getAttribute("id"),
    );
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);

    // Nothing to reset yet.
    const resetButton = page.locator("[data-testid=agent-reset-button]");
    expect(await resetButton.isDisabled()).toBe(true);

    // Change two settings and let them save.
    await page.locator("[data-testid=agent-field-maxIterations]").fill("10");
    await page.locator("[data-testid=field-status-maxIterations][data-status=saved]").waitFor({ timeout: 10_000 });
    await page.locator("[data-testid=agent-field-decisionTree]").selectOption("roa");
    await page.locator("[data-testid=field-status-decisionTree][data-status=saved]").waitFor({ timeout: 10_000 });
    expect(await saved(page)).toMatchObject({ maxIterations: 10, decisionTree: "roa" });

    // Reset asks first; Cancel changes nothing and gives the focus back.
    await resetButton.click();
    await expect.poll(() => activeTestId(page)).toBe("agent-reset-confirm");
    await page.locator("[data-testid=agent-reset-cancel]").click();
    await expect.poll(() => activeTestId(page)).toBe("agent-reset-button");
    expect(await saved(page)).toMatchObject({ maxIterations: 10, decisionTree: "roa" });

    // A change still waiting out its save delay, then the reset: the defaults win.
    await page.locator("[data-testid=agent-field-tokenBudget]").fill("2000");
    await resetButton.click();
    await page.locator("[data-testid=agent-reset-confirm]").click();
    await page.locator("[data-testid=agent-reset-status]").waitFor({ timeout: 10_000 });
    expect(await page.locator("[data-testid=agent-reset-status]").textContent()).toContain("back to its default");
    await page.waitForTimeout(800); // longer than the save debounce
    expect(await saved(page)).toEqual(DEFAULT_AGENT_CONFIG);
    for (const [name, spec] of Object.entries(AGENT_CONFIG_FIELDS))
      expect(await page.locator(`[data-testid=agent-field-${name}]`).inputValue(), name).toBe(String(spec.default));
    expect(await page.locator("[data-testid=agent-field-decisionTree]").inputValue()).toBe("default");
    expect(await resetButton.isDisabled()).toBe(true);

    // And after a reload.
    await page.reload();
    await page.locator("[data-testid=agent-field-maxIterations]").waitFor({ timeout: 15_000 });
    expect(await page.locator("[data-testid=agent-field-maxIterations]").inputValue()).toBe(
      String(DEFAULT_AGENT_CONFIG.maxIterations),
    );
  });
});
