// Settings → Models in the browser, on a desktop (1280×900) and a phone (390×844), never scrolling
// sideways: a provider added through the form is tested by the server, which finds its style and its
// model; its key never comes back, on the page or from the API. A model's window and prices are edited
// and saved with one button and survive a reload, while a bad value is refused by its input and nothing
// is saved. A wrong key is saved but said in plain words, and a new key mends it. The default model is
// saved at once; a deleted provider leaves the list and the model picker's list; an 11th is refused in a
// sentence. The providers are the shared fake OpenAI server on loopback (the shared app allows it).
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { REFUSED_KEY } from "../support/fake-openai-client";
import { apiFromPage, asNewUser, useSharedFakeModelApp } from "./harness.ts";

const live = useSharedFakeModelApp();

const SIZES = [
  { name: "1280", phone: false, options: { viewport: { width: 1280, height: 900 } } },
  { name: "390", phone: true, options: { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true } },
] as const;

type ProviderBody = { id: string; name: string; style: string; has_key: boolean; models: Record<string, unknown>[] };
type ModelsBody = {
  models: { provider_id: string; provider_name: string; model: string; context_window: number; prices?: unknown }[];
  default: { provider_id: string; model: string };
};

const squash = (s: string | null) => (s ?? "").replace(/\s+/g, " ").trim();

/** Nothing wider than the window. */
const sideways = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth);

const providers = async (page: Page) => (await apiFromPage<ProviderBody[]>(page, "GET", "/api/providers")).body;
const modelList = async (page: Page) => (await apiFromPage<ModelsBody>(page, "GET", "/api/models")).body;

/** Settings → Models, its providers loaded. */
async function openTab(page: Page) {
  await page.goto("/settings/models");
  await page.locator("[data-testid=model-settings][data-status=ready]").waitFor({ timeout: 15_000 });
}

/** A provider made through the API, with the model the fake lists (no test call: style and models given). */
async function providerByApi(page: Page, name: string): Promise<ProviderBody> {
  const res = await apiFromPage<ProviderBody>(page, "POST", "/api/providers", {
    name,
    base_url: `${live.llm.url}/v1`,
    style: "chat",
    models: [{ id: "fake-model", context_window: 8192 }],
  });
  expect(res.status).toBe(201);
  return res.body;
}

/** Records every text a Test button shows from now on (the fake answers too fast to catch "Testing…" by polling). */
async function watchTestButtons(page: Page): Promise<() => Promise<string[]>> {
  await page.evaluate(() => {
    const seen: string[] = [];
    Object.assign(window, { seenTestTexts: seen });
    new MutationObserver(() => {
      for (const button of document.querySelectorAll("[data-testid=provider-test]"))
        seen.push(button.textContent ?? "");
    }).observe(document.body, { subtree: true, childList: true, characterData: true });
  });
  return () => page.evaluate(() => (window as unknown as { seenTestTexts: string[] }).seenTestTexts);
}

const row = (page: Page, name: string) => page.locator(`[data-testid=provider][data-name="${name}"]`);

describe.each(SIZES)("Settings → Models at $name px", ({ name: size, phone, options }) => {
  it("adds a provider through the form: the server finds its style and model, and the key never comes back", async () => {
    const key = `sk-e2e-${size}-${Date.now().toString(36)}`;
    await asNewUser(live, `settings-models-add-${size}`, options, async (page) => {
      await page.goto("/settings/agent");
      await page.locator("[data-testid=tab-models]").click();
      await page.waitForURL((url) => url.pathname === "/settings/models");
      await page.locator("[data-testid=providers-empty]").waitFor({ timeout: 15_000 });
      expect(await page.locator("[data-testid=model-settings]").textContent()).toContain(
        "stored encrypted and never shown again",
      );

      // A URL the protocol refuses is shown under its field; nothing typed is lost.
      const form = page.locator("[data-testid=provider-add-form]");
      expect(await form.getByLabel("API style").inputValue()).toBe(""); // Detect automatically
      await form.getByLabel("Name", { exact: true }).fill("Local LLM");
      await form.getByLabel("Base URL").fill("not a url");
      await form.getByLabel("API key").fill(key);
      await form.locator("[data-testid=provider-add-submit]").click();
      await form.locator("[data-testid=provider-add-url-error]").waitFor({ timeout: 5_000 });
      expect(await form.getByLabel("Name", { exact: true }).inputValue()).toBe("Local LLM");
      expect(await form.getByLabel("API key").inputValue()).toBe(key);
      expect(await form.getByLabel("API key").getAttribute("type")).toBe("password");

      await form.getByLabel("Base URL").fill(`${live.llm.url}/v1`);
      await form.locator("[data-testid=provider-add-submit]").click();
      const added = form.locator("[data-testid=provider-added]");
      await added.waitFor({ timeout: 20_000 });
      expect(squash(await added.textContent())).toBe("Added Local LLM: found 1 model.");
      expect(await form.getByLabel("API key").inputValue()).toBe(""); // the form is empty again

      const provider = row(page, "Local LLM");
      expect(await provider.locator("[data-testid=provider-url]").textContent()).toBe(`${live.llm.url}/v1`);
      expect(await provider.locator("[data-testid=provider-key]").textContent()).toBe("API key stored");
      const status = provider.locator("[data-testid=provider-status]");
      expect(await status.getAttribute("data-state")).toBe("ok");
      expect(await status.textContent()).toBe("Working · checked just now");
      const style = provider.locator("[data-testid=provider-style]");
      expect(await style.inputValue()).toBe("chat");
      expect(await style.evaluate((s: HTMLSelectElement) => s.selectedOptions[0]?.textContent)).toBe(
        "Chat Completions",
      );
      const model = provider.locator("[data-testid=provider-model][data-model=fake-model]");
      expect(await model.locator("[data-testid=provider-model-window]").inputValue()).toBe("8192");
      expect(await model.textContent()).toContain("A guess: set the model's real window");

      // The key: not on the page, not in any answer; the provider's model is one the user can pick.
      expect(await page.evaluate((k) => document.documentElement.outerHTML.includes(k), key)).toBe(false);
      const listed = await apiFromPage<ProviderBody[]>(page, "GET", "/api/providers");
      expect(JSON.stringify(listed.body)).not.toContain(key);
      expect(listed.body).toMatchObject([{ name: "Local LLM", style: "chat", has_key: true }]);
      const one = await apiFromPage(page, "GET", `/api/providers/${listed.body[0]?.id}`);
      expect(JSON.stringify(one.body)).not.toContain(key);
      const models = await modelList(page);
      expect(models.models).toContainEqual(
        expect.objectContaining({ provider_name: "Local LLM", model: "fake-model", context_window: 8192 }),
      );
      // The default model's list follows without a reload.
      const choices = page.locator("[data-testid=models-default-select] optgroup[label='Local LLM'] option");
      await expect.poll(() => choices.allTextContents(), { timeout: 10_000 }).toEqual(["fake-model"]);
      expect(await sideways(page)).toBe(false);
    });
  });

  it("saves a model's window and prices with one button, refusing a bad value by its input", async () => {
    await asNewUser(live, `settings-models-edit-${size}`, options, async (page) => {
      await providerByApi(page, "edit-me");
      await openTab(page);
      const model = row(page, "edit-me").locator("[data-testid=provider-model][data-model=fake-model]");
      const input = (testid: string) => model.locator(`[data-testid=${testid}]`);
      const save = row(page, "edit-me").locator("[data-testid=provider-models-save]");
      expect(await save.isDisabled()).toBe(true); // nothing to save yet

      // A window of 10: refused by its input, the value kept, nothing saved.
      await input("provider-model-window").fill("10");
      expect(await row(page, "edit-me").locator("[data-testid=provider-models-status]").textContent()).toBe(
        "Unsaved changes",
      );
      await save.click();
      const windowError = input("provider-model-window-error");
      await windowError.waitFor({ timeout: 5_000 });
      expect(await windowError.textContent()).toBe("Context window must be a whole number from 4,000 to 10,000,000");
      expect(await input("provider-model-window").getAttribute("aria-invalid")).toBe("true");
      expect(await row(page, "edit-me").locator("[data-testid=provider-models-error]").textContent()).toBe(
        "Not saved: correct the values marked above.",
      );
      expect(await input("provider-model-window").inputValue()).toBe("10");
      expect((await providers(page))[0]?.models).toEqual([{ id: "fake-model", context_window: 8192 }]);

      // One price of three: the missing two are marked.
      await input("provider-model-window").fill("32000");
      await input("provider-model-price-input").fill("0.15");
      await save.click();
      await input("provider-model-price-cached-error").waitFor({ timeout: 5_000 });
      expect(await input("provider-model-price-output-error").textContent()).toBe("give all three prices, or none");
      expect(await windowError.count()).toBe(0);

      // All of it right: saved, and said so.
      await input("provider-model-price-cached").fill("0.075");
      await input("provider-model-price-output").fill("0,6"); // a decimal comma is read as a point
      await input("provider-model-output-cap").fill("2048");
      await model.getByLabel("Send reasoning back").check();
      await save.click();
      await row(page, "edit-me")
        .locator("[data-testid=provider-models-status]", { hasText: "Saved." })
        .waitFor({ timeout: 10_000 });
      const saved = {
        id: "fake-model",
        context_window: 32000,
        max_output_tokens: 2048,
        prices: { input: 0.15, cached_input: 0.075, output: 0.6 },
        send_reasoning: true,
      };
      expect((await providers(page))[0]?.models).toEqual([saved]);
      expect((await modelList(page)).models).toContainEqual(
        expect.objectContaining({ provider_name: "edit-me", model: "fake-model", context_window: 32000 }),
      );

      // After a reload the values stay.
      await page.reload();
      await model.waitFor({ timeout: 15_000 });
      expect(await input("provider-model-window").inputValue()).toBe("32000");
      expect(await input("provider-model-output-cap").inputValue()).toBe("2048");
      expect(await input("provider-model-price-input").inputValue()).toBe("0.15");
      expect(await input("provider-model-price-cached").inputValue()).toBe("0.075");
      expect(await input("provider-model-price-output").inputValue()).toBe("0.6");
      expect(await model.getByLabel("Send reasoning back").isChecked()).toBe(true);

      // A model added by its name starts at the guessed window, and Add saves it (no "Save models").
      await row(page, "edit-me").locator("[data-testid=provider-add-model]").fill("my-model");
      await row(page, "edit-me").locator("[data-testid=provider-add-model-button]").click();
      const added = row(page, "edit-me").locator("[data-testid=provider-model][data-model=my-model]");
      expect(await added.locator("[data-testid=provider-model-window]").inputValue()).toBe("8192");
      await row(page, "edit-me")
        .locator("[data-testid=provider-models-status]", { hasText: "Saved." })
        .waitFor({ timeout: 10_000 });
      expect((await providers(page))[0]?.models.map((m) => m.id)).toEqual(["fake-model", "my-model"]);
      expect(await sideways(page)).toBe(false);
    });
  });

  it("says a refused key in plain words, and a new key mends it", async () => {
    await asNewUser(live, `settings-models-key-${size}`, options, async (page) => {
      await openTab(page);
      const form = page.locator("[data-testid=provider-add-form]");
      await form.locator("[data-testid=provider-add-name]").fill("wrong key");
      await form.locator("[data-testid=provider-add-url]").fill(`${live.llm.url}/v1`);
      await form.locator("[data-testid=provider-add-key]").fill(REFUSED_KEY);
      await form.locator("[data-testid=provider-add-submit]").click();

      // Saved anyway, and both the form and the row say why the test failed, in words.
      const added = form.locator("[data-testid=provider-added]");
      await added.waitFor({ timeout: 20_000 });
      expect(await added.textContent()).toMatch(/^Saved, but the test failed: .*refused the API key \(HTTP 401\)/);
      const provider = row(page, "wrong key");
      const status = provider.locator("[data-testid=provider-status]");
      expect(await status.getAttribute("data-state")).toBe("error");
      const words = (await status.textContent()) ?? "";
      expect(words).toMatch(/^Last test failed just now: .*refused the API key \(HTTP 401\)/);
      expect(words).toContain("Check the key in Settings → Models");
      expect(words).not.toMatch(/[{}]|invalid_api_key|"error"/); // no raw JSON
      await provider.locator("[data-testid=provider-models-empty]").waitFor();

      // Replace key: the provider is tested with it at once, and works.
      await provider.locator("[data-testid=provider-replace-key]").click();
      const keyForm = provider.locator("[data-testid=provider-key-form]");
      expect(await keyForm.getByLabel("New API key").getAttribute("type")).toBe("password");
      await keyForm.getByLabel("New API key").fill("any-key");
      await keyForm.locator("[data-testid=provider-key-save]").click();
      await keyForm.waitFor({ state: "detached", timeout: 10_000 });
      await expect.poll(() => status.getAttribute("data-state"), { timeout: 20_000 }).toBe("ok");

      // Test again: "Testing…" while it runs, then what the server lists, offered to add.
      const test = provider.locator("[data-testid=provider-test]");
      const seen = await watchTestButtons(page);
      await test.click();
      await expect.poll(seen, { timeout: 20_000 }).toContain("Testing…");
      await expect.poll(() => test.textContent(), { timeout: 20_000 }).toBe("Test");
      expect(await status.textContent()).toBe("Working · checked just now");
      const found = provider.locator("[data-testid=provider-test-result]");
      expect(squash(await found.textContent())).toBe("The server lists 1 model, not in your list yet: fake-model.");
      await provider.locator("[data-testid=provider-add-found]", { hasText: "Add fake-model" }).click();
      await provider.locator("[data-testid=provider-model][data-model=fake-model]").waitFor({ timeout: 10_000 });
      await expect
        .poll(async () => (await providers(page))[0]?.models.map((m) => m.id), { timeout: 10_000 })
        .toEqual(["fake-model"]);
      expect(squash(await found.textContent())).toBe("The server lists 1 model, all in your list below.");
      expect(await page.evaluate((k) => document.documentElement.outerHTML.includes(k), "any-key")).toBe(false);
      expect(await sideways(page)).toBe(false);
    });
  });

  it("saves the default model for new conversations", async () => {
    await asNewUser(live, `settings-models-default-${size}`, options, async (page) => {
      const provider = await providerByApi(page, "mine");
      await openTab(page);
      const select = page.locator("[data-testid=models-default-select]");
      const before = await modelList(page);
      expect(await select.inputValue()).toBe(JSON.stringify([before.default.provider_id, before.default.model]));
      expect(
        await select.locator("optgroup").evaluateAll((groups) => groups.map((g) => g.getAttribute("label"))),
      ).toEqual([...new Set(before.models.map((m) => m.provider_name))]);

      const mine = JSON.stringify([provider.id, "fake-model"]);
      await select.selectOption(mine);
      await page.locator("[data-testid=models-default-status]", { hasText: "Saved." }).waitFor({ timeout: 10_000 });
      await page.reload();
      await select.waitFor({ timeout: 15_000 });
      expect(await select.inputValue()).toBe(mine);
      expect((await modelList(page)).default).toEqual({ provider_id: provider.id, model: "fake-model" });
      expect(await sideways(page)).toBe(false);
    });
  });

  it("deletes a provider after a confirm step: gone from the list and from the models", async () => {
    await asNewUser(live, `settings-models-delete-${size}`, options, async (page) => {
      await providerByApi(page, "old one");
      await openTab(page);
      const provider = row(page, "old one");
      await provider.locator("[data-testid=provider-delete]").click();
      const confirm = provider.locator("[data-testid=provider-delete-confirm]");
      expect(squash(await confirm.textContent())).toContain("Delete old one? Its key is erased");
      // Cancel first: nothing changes, the focus goes back to Delete.
      await confirm.locator("[data-testid=provider-delete-cancel]").click();
      await expect
        .poll(() => page.evaluate(() => document.activeElement?.getAttribute("data-testid")))
        .toBe("provider-delete");
      await provider.locator("[data-testid=provider-delete]").click();
      await confirm.locator("[data-testid=provider-delete-confirm-button]").click();
      await provider.waitFor({ state: "detached", timeout: 10_000 });
      await page.locator("[data-testid=providers-empty]").waitFor();
      expect(await providers(page)).toEqual([]);
      expect((await modelList(page)).models.some((m) => m.provider_name === "old one")).toBe(false);
      const group = page.locator("[data-testid=models-default-select] optgroup[label='old one']");
      await expect.poll(() => group.count(), { timeout: 10_000 }).toBe(0);
      if (phone) expect(await sideways(page)).toBe(false);
    });
  });
});

it("refuses an 11th provider in a sentence, keeping what was typed", async () => {
  await asNewUser(live, "settings-models-too-many", SIZES[0].options, async (page) => {
    for (let i = 0; i < 10; i++) await providerByApi(page, `p${i}`);
    await openTab(page);
    expect(await page.locator("[data-testid=provider]").count()).toBe(10);
    const form = page.locator("[data-testid=provider-add-form]");
    await form.locator("[data-testid=provider-add-name]").fill("eleventh");
    await form.locator("[data-testid=provider-add-url]").fill(`${live.llm.url}/v1`);
    await form.locator("[data-testid=provider-add-submit]").click();
    const error = form.locator("[data-testid=provider-add-error]");
    await error.waitFor({ timeout: 10_000 });
    expect(await error.textContent()).toBe("At most 10 providers per user; delete one first");
    expect(await form.locator("[data-testid=provider-add-name]").inputValue()).toBe("eleventh");
    expect(await page.locator("[data-testid=provider]").count()).toBe(10);
  });
});

it("shows only the default model when the operator has turned user providers off", async () => {
  await asNewUser(live, "settings-models-off", SIZES[0].options, async (page) => {
    // As the Worker answers with USER_PROVIDERS=off (docs/protocol.md "Models"), without an app of its own.
    await page.route("**/api/providers", (route) =>
      route.fulfill({
        status: 403,
        json: {
          error: { code: "forbidden", message: "The operator of this app turned off adding your own model providers" },
        },
      }),
    );
    await page.route("**/api/models", async (route) => {
      const answer = await route.fetch();
      await route.fulfill({ response: answer, json: { ...(await answer.json()), user_providers: false } });
    });
    await page.goto("/settings/models");
    await page.locator("[data-testid=model-settings][data-status=off]").waitFor({ timeout: 15_000 });
    expect(await page.locator("[data-testid=providers-off]").textContent()).toBe(
      "The operator of this app has turned off adding your own model providers.",
    );
    // The status says "off" once /api/providers is refused; the choice shows once /api/models answers too
    // (CI once checked in between): waited for, not sampled.
    await page.locator("[data-testid=models-default-select]").waitFor({ state: "visible", timeout: 15_000 });
    expect(await page.locator("[data-testid=models-default-select]").isVisible()).toBe(true);
    expect(await page.locator("[data-testid=provider-add-form]").count()).toBe(0);
  });
});
