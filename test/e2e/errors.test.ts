// Errors as errors (issue 13): a turn whose model call failed shows as an error bubble in plain words
// with what to do (the server's, issue 28), never a raw code or the provider's own error, and Retry runs
// the turn again as a new version (issue 27). While the
// model is slow to answer, the thread says it is thinking. The model is the fake OpenAI server.
import type { Page } from "playwright-core";
import { expect, it } from "vitest";
import { marker, scriptModel } from "../support/fake-openai-client";
import {
  apiFromPage,
  asNewUser,
  newConversationInBrowser,
  sendChat,
  useSharedFakeModelApp,
  waitTurnEnded,
} from "./harness.ts";

const live = useSharedFakeModelApp();

const inConversation = (name: string, run: (page: Page, id: string) => Promise<void>) =>
  asNewUser(live, name, { viewport: { width: 1200, height: 900 } }, async (page) =>
    run(page, await newConversationInBrowser(page)),
  );

type Row = { role: string; content?: string; termination_reason?: string };
/** The conversation's current path, or with `tree` every version's messages. */
async function messages(page: Page, id: string, view: "path" | "tree" = "path"): Promise<Row[]> {
  const res = await apiFromPage<{ messages: Row[] }>(page, "GET", `/api/conversations/${id}/messages?view=${view}`);
  expect(res.status).toBe(200);
  return res.body.messages;
}

const squash = (s: string | null) => (s ?? "").replace(/\s+/g, " ").trim();

it("shows a refused API key as an error bubble in plain words, and Retry makes a new version that succeeds", async () => {
  await inConversation("errors-401", async (page, id) => {
    const key = `e401-${Date.now().toString(36)}`;
    await scriptModel(live.llm.url, key, [
      { error: { status: 401, message: "Incorrect API key provided: k." } },
      { text: "Back in business." },
    ]);
    const question = `Are you there? ${marker(key)}`;
    await sendChat(page, question);

    const bubble = page.locator("[data-testid=error-bubble]");
    await bubble.waitFor({ timeout: 30_000 });
    await waitTurnEnded(page, id);
    expect(await bubble.getAttribute("role")).toBe("alert");
    // What failed and what to do, in the app's words: the operator's key is not the user's to fix.
    expect(squash(await bubble.locator("[data-testid=error-title]").textContent())).toBe(
      "✖ 127.0.0.1 refused the API key (HTTP 401).",
    );
    expect(await bubble.locator("[data-testid=error-hint]").textContent()).toBe(
      "The key is the app's own: tell whoever runs this app, or pick another model.",
    );
    // No raw code and none of the provider's own words anywhere.
    const chatText = (await page.locator("[data-testid=chat]").textContent()) ?? "";
    expect(chatText).not.toMatch(/llm_error|after \d+ steps|Incorrect API key/);
    // The bubble says it once: no second line elsewhere (the chat header has no status line).
    expect(chatText.match(/refused the API key/g)).toHaveLength(1);

    // Retry: the turn again, as a second version in the failed one's place, and this time an answer.
    // The failed one stays, one ‹ away.
    await page.locator("[data-testid=retry]").click();
    const answer = page.locator("[data-role=agent][data-phase=final]:not([data-testid=error-bubble])");
    await answer.waitFor({ timeout: 30_000 });
    await waitTurnEnded(page, id);
    expect(await answer.textContent()).toContain("Back in business.");
    expect(await bubble.count()).toBe(0);
    expect(await page.locator("[data-testid=version-count]").textContent()).toContain("Version 2 of 2");
    expect((await messages(page, id)).map((m) => m.termination_reason ?? m.content)).toEqual([question, "completed"]);
    const log = await messages(page, id, "tree");
    expect(log.filter((m) => m.role === "user").map((m) => m.content)).toEqual([question]);
    expect(log.filter((m) => m.role === "agent").map((m) => m.termination_reason)).toEqual(["llm_error", "completed"]);
    await page.locator("[data-testid=version-previous]").click();
    await bubble.waitFor({ timeout: 10_000 });
    expect(await answer.count()).toBe(0);
  });
});

it("says the model service failed after its retries, in plain words", async () => {
  await inConversation("errors-500", async (page, id) => {
    const key = `e500-${Date.now().toString(36)}`;
    const failing = { error: { status: 500, message: "The server had an error", retry_after_ms: 100 } };
    await scriptModel(live.llm.url, key, [failing, failing, failing, failing, { text: "unused" }]);
    await sendChat(page, `Hello ${marker(key)}`);
    const bubble = page.locator("[data-testid=error-bubble]");
    await bubble.waitFor({ timeout: 45_000 });
    await waitTurnEnded(page, id);
    expect(squash(await bubble.locator("[data-testid=error-title]").textContent())).toBe(
      "✖ 127.0.0.1 failed (HTTP 500).",
    );
    expect(await bubble.locator("[data-testid=error-hint]").textContent()).toMatch(/^Try again in a moment/);
    expect(await bubble.locator("[data-testid=retry]").count()).toBe(1);
    expect((await page.locator("[data-testid=chat]").textContent()) ?? "").not.toContain("llm_error");
  });
});

it("keeps the thread from going silent while the model is slow: a working indicator until the answer", async () => {
  await inConversation("errors-slow", async (page, id) => {
    const key = `slow-${Date.now().toString(36)}`;
    await scriptModel(live.llm.url, key, [{ text: "Worth the wait.", delay_ms: 3000 }]);
    await sendChat(page, `Take your time ${marker(key)}`);
    const indicator = page.locator("[data-testid=working-indicator]");
    await indicator.waitFor({ timeout: 10_000 });
    await expect.poll(() => indicator.textContent(), { timeout: 5_000 }).toBe("Thinking…");
    expect(await indicator.getAttribute("role")).toBe("status");
    // The indicator is the one place that says so.
    expect(((await page.locator("[data-testid=chat]").textContent()) ?? "").match(/Thinking…/g)).toHaveLength(1);
    await page.locator("[data-role=agent][data-phase=final]").waitFor({ timeout: 30_000 });
    await waitTurnEnded(page, id);
    await expect.poll(() => indicator.count(), { timeout: 5_000 }).toBe(0);
  });
});
