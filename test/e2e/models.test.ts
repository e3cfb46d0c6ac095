// A model of the user's own choosing, as a person uses it (issue 28): add a provider in Settings → Models,
// pick its model for a conversation in the composer, watch a reasoning model think ("Thinking…", then
// "Thought for …", which opens to its text), see which model wrote the answer; and a wrong key said in
// plain words, with Retry taking another model. On a desktop and on a phone, with no sideways scroll.
// The providers are the fake OpenAI server on loopback (the app allows loopback, as under `npm start`).
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { marker, modelRequests, REFUSED_KEY, scriptModel } from "../support/fake-openai-client";
import {
  apiFromPage,
  asNewUser,
  newConversationInBrowser,
  sendChat,
  useSharedFakeModelApp,
  waitTurnEnded,
} from "./harness.ts";

const live = useSharedFakeModelApp();

const SIZES = [
  { name: "1280", options: { viewport: { width: 1280, height: 900 } } },
  { name: "390", options: { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true } },
] as const;

const squash = (s: string | null) => (s ?? "").replace(/\s+/g, " ").trim();

/** Adds a provider through Settings → Models and waits until it is listed. */
async function addProvider(page: Page, name: string, key: string) {
  await page.goto("/settings/models");
  const form = page.locator("[data-testid=provider-add-form]");
  await form.locator("[data-testid=provider-add-name]").fill(name);
  await form.locator("[data-testid=provider-add-url]").fill(`${live.llm.url}/v1`);
  await form.locator("[data-testid=provider-add-key]").fill(key);
  await form.locator("[data-testid=provider-add-submit]").click();
  await page.locator(`[data-testid=provider][data-name="${name}"]`).waitFor({ timeout: 20_000 });
}

/** Picks a model in the composer's picker, by its provider's name and its model's name. */
async function pickModel(page: Page, providerId: string, model: string) {
  await page.locator("[data-testid=model-picker]").click();
  const list = page.locator("[data-testid=model-picker-list]");
  await list.waitFor();
  await list.locator(`[data-testid=model-option][data-provider="${providerId}"][data-model="${model}"]`).click();
  await page
    .locator(`[data-testid=model-picker][data-provider="${providerId}"][data-model="${model}"]`)
    .waitFor({ timeout: 10_000 });
}

async function providerId(page: Page, name: string): Promise<string> {
  const res = await apiFromPage<{ id: string; name: string }[]>(page, "GET", "/api/providers");
  const found = res.body.find((p) => p.name === name);
  if (!found) throw new Error(`no provider ${name}: ${JSON.stringify(res.body)}`);
  return found.id;
}

/** What scrolls sideways on the page, if anything. */
const sideways = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth);

describe.each(SIZES)("models at $name px", ({ name, options }) => {
  it("adds a provider, picks its model for a conversation, shows its reasoning and who wrote the answer", async () => {
    await asNewUser(live, `models-pick-${name}`, options, async (page) => {
      await addProvider(page, "Mine", "any-key");
      const mine = await providerId(page, "Mine");
      const id = await newConversationInBrowser(page);
      await pickModel(page, mine, "fake-model");
      // The choice is the conversation's: it is saved, and a reload shows it.
      const saved = await apiFromPage<{ model?: unknown }>(page, "GET", `/api/conversations/${id}`);
      expect(saved.body.model).toEqual({ provider_id: mine, model: "fake-model" });

      const key = `pick-${name}-${Date.now().toString(36)}`;
      const thinking = ["The user ", "greets me; ", "I should ", "greet back."];
      await scriptModel(live.llm.url, key, [
        { reasoning: thinking, text: "Hello from your own model.", chunk_delay_ms: 250 },
      ]);
      await sendChat(page, `hello ${marker(key)}`);
      // While it thinks, the folded block says so (and the working line does not say it twice).
      const block = page.locator("[data-testid=reasoning]");
      await page.locator("[data-testid=reasoning][data-state=thinking]").waitFor({ timeout: 15_000 });
      expect(await page.locator("[data-testid=working-indicator][data-kind=thinking]").count()).toBe(0);
      await waitTurnEnded(page, id);
      const answer = page.locator("[data-role=agent][data-phase=final]");
      await answer.filter({ hasText: "Hello from your own model." }).waitFor();
      const summary = block.locator("[data-testid=reasoning-summary]");
      await page.locator("[data-testid=reasoning][data-state=done]").waitFor();
      expect(squash(await summary.textContent())).toMatch(/^Thought for (a moment|\d+ s)$/);
      // Folded until opened; open, it is the model's thinking, whole.
      expect(await block.locator("[data-testid=reasoning-text]").count()).toBe(0);
      await block.locator("[data-testid=reasoning-toggle]").click();
      expect(squash(await block.locator("[data-testid=reasoning-text]").textContent())).toBe(thinking.join(""));

      // The request went to the user's model, with the user's key, capped.
      const [request] = await modelRequests(live.llm.url, key);
      expect(request?.body.model).toBe("fake-model");
      expect(request?.body.max_tokens).toBeGreaterThan(0);
      // The answer says which model wrote it, one click away.
      await page.locator("[data-testid=message-details-toggle]").last().click();
      expect(squash(await page.locator("[data-testid=message-model]").last().textContent())).toBe(
        "Written by fake-model (Mine)",
      );
      await page.reload();
      await page.locator(`[data-testid=model-picker][data-provider="${mine}"]`).waitFor({ timeout: 15_000 });
      await page.locator("[data-testid=reasoning][data-state=done]").waitFor();
      expect(await sideways(page)).toBe(false);
    });
  });

  it("says a wrong key in plain words, and Retry with another model answers", async () => {
    await asNewUser(live, `models-wrong-key-${name}`, options, async (page) => {
      // A provider that worked, whose key was then replaced with a wrong one.
      await addProvider(page, "Broken", "any-key");
      const broken = await providerId(page, "Broken");
      const patched = await apiFromPage(page, "PATCH", `/api/providers/${broken}`, { api_key: REFUSED_KEY });
      expect(patched.status).toBe(200);
      const id = await newConversationInBrowser(page);
      const key = `wrong-${name}-${Date.now().toString(36)}`;
      await scriptModel(live.llm.url, key, [{ text: "Answered by the app's model." }]);
      // The choice takes a moment to save (a slow network): Send waits for it, and the message sent at
      // once goes to the model just picked, not to the one the server still had.
      let release: () => void = () => undefined;
      const saving = new Promise<void>((resolve) => {
        release = resolve;
      });
      await page.route(`**/api/conversations/${id}`, async (route) => {
        if (route.request().method() === "PATCH") await saving;
        await route.continue();
      });
      await pickModel(page, broken, "fake-model");
      await page.locator("[data-testid=composer-input]").fill(`are you there? ${marker(key)}`);
      expect(await page.locator("[data-testid=send]").isDisabled()).toBe(true);
      release();
      await page.locator("[data-testid=send]").click();

      const bubble = page.locator("[data-testid=error-bubble]");
      await bubble.waitFor({ timeout: 30_000 });
      await waitTurnEnded(page, id);
      expect(squash(await bubble.locator("[data-testid=error-title]").textContent())).toBe(
        "✖ Broken refused the API key (HTTP 401).",
      );
      expect(squash(await bubble.locator("[data-testid=error-hint]").textContent())).toBe(
        "Check the key in Settings → Models.",
      );
      // Never the provider's raw error, never a dump.
      const chat = (await page.locator("[data-testid=chat]").textContent()) ?? "";
      expect(chat).not.toMatch(/Incorrect API key|invalid_request_error|\{"error"|llm_error/);

      // Retry with the app's own model: a new version, which answers; the conversation keeps that model.
      await bubble.locator("[data-testid=retry-with]").selectOption({ label: "m" });
      const answer = page.locator("[data-role=agent][data-phase=final]:not([data-testid=error-bubble])");
      await answer.filter({ hasText: "Answered by the app's model." }).waitFor({ timeout: 30_000 });
      await waitTurnEnded(page, id);
      await page.locator('[data-testid=model-picker][data-provider="default"][data-model="m"]').waitFor();
      const saved = await apiFromPage<{ model?: unknown }>(page, "GET", `/api/conversations/${id}`);
      expect(saved.body.model).toEqual({ provider_id: "default", model: "m" });
      expect(await sideways(page)).toBe(false);
    });
  });
});
