// Agent controls end to end (seed 003) with the offline demo model: Stop cuts a running turn short and
// the chat goes on afterwards; request_input pauses a turn until the user answers in the banner.
// The demo's deterministic slow path: "long story" streams ~800 words one at a time (about 10 s),
// long enough to press Stop while it runs.
import type { Page } from "playwright-core";
import { expect, it } from "vitest";
import { apiFromPage, asNewUser, newConversationInBrowser, useSharedApp, waitTurnEnded } from "./harness.ts";

const live = useSharedApp();

const agentTexts = (page: Page) =>
  page
    .locator("[data-role=agent]")
    .evaluateAll((els) => els.map((e) => (e.textContent ?? "").replace(/\s+/g, " ").trim()));

async function send(page: Page, text: string) {
  await page.locator("[data-testid=composer-input]").fill(text);
  const button = page.locator("[data-testid=send]");
  await expect.poll(() => button.isEnabled(), { timeout: 10_000 }).toBe(true);
  await button.click();
}

/** The conversation's saved messages, as the API returns them. */
async function messagesOf(page: Page, id: string): Promise<{ role: string; content: string }[]> {
  const res = await apiFromPage<{ messages: { role: string; content: string }[] }>(
    page,
    "GET",
    `/api/conversations/${encodeURIComponent(id)}/messages`,
  );
  return res.body.messages;
}

/** A fresh browser context with a signed-up user in a new conversation. */
const inNewConversation = (run: (page: Page, conversationId: string) => Promise<void>, name: string) =>
  asNewUser(live, name, {}, async (page) => run(page, await newConversationInBrowser(page)));

it("stops a running turn with the Stop button, then takes and completes a new message", async () => {
  await inNewConversation(async (page, conversationId) => {
    await send(page, "tell me a long story");

    // Running: the Stop button is there and the story is streaming.
    const stop = page.locator("[data-testid=stop]");
    await stop.waitFor({ timeout: 15_000 });
    await page.locator("[data-testid=streaming]", { hasText: "Chapter 1" }).waitFor({ timeout: 15_000 });
    await stop.click();

    // The turn ends: no Stop button, the partial story kept, and one note in plain words (never the raw
    // code) that says it was stopped: the saved explanation ("— Stopped by the user.", which the model
    // sees on replay) is not repeated under it, and nothing else in the chat says so again.
    await stop.waitFor({ state: "detached", timeout: 15_000 });
    const note = page.locator("[data-testid=termination-note]");
    await note.waitFor({ timeout: 15_000 });
    expect(await note.getAttribute("data-reason")).toBe("user_cancelled");
    expect(await note.textContent()).toBe("You stopped this answer");
    expect(await page.locator("[data-testid=chat]").textContent()).not.toMatch(/user_cancelled|after \d+ steps/);
    await waitTurnEnded(page, conversationId);
    const [stopped] = await agentTexts(page);
    expect(stopped).toContain("Chapter 1");
    expect(stopped).not.toContain("Stopped by the user");
    expect(stopped).not.toContain("The end."); // cut short, not streamed to the end
    const chatText = (await page.locator("[data-testid=chat]").textContent()) ?? "";
    expect(chatText.match(/\bstopped\b/gi)).toHaveLength(1);
    const [saved] = (await messagesOf(page, conversationId)).filter((m) => m.role === "agent");
    expect(saved?.content).toMatch(/\n\n— Stopped by the user\.$/); // what is persisted stays as it was

    // The chat goes on: a new message is accepted and its turn completes normally.
    await send(page, "hello again");
    await expect.poll(async () => (await agentTexts(page)).length, { timeout: 30_000 }).toBe(2);
    await waitTurnEnded(page, conversationId);
    expect((await agentTexts(page))[1]).toMatch(/offline demo model/);
    await expect.poll(() => note.count()).toBe(1); // only the stopped turn carries a note
    expect(await stop.count()).toBe(0);
  }, "stop");
});

it("pauses for request_input, takes the answer from the banner, and finishes the turn with it", async () => {
  await inNewConversation(async (page, conversationId) => {
    await send(page, "ask me a question");

    const banner = page.locator("[data-testid=request-input]");
    await banner.waitFor({ timeout: 15_000 });
    expect(await banner.textContent()).toMatch(/What should I call you\?/);
    await page.locator("[data-testid=request-input-answer]").fill("Ada Lovelace");
    await page.locator("[data-testid=request-input-send]").click();

    await banner.waitFor({ state: "detached", timeout: 15_000 });
    const answer = page.locator("[data-role=agent]", { hasText: "“Ada Lovelace”" });
    await answer.waitFor({ timeout: 15_000 });
    await waitTurnEnded(page, conversationId);
    expect(await page.locator("[data-testid=termination-note]").count()).toBe(0);
    expect(await page.locator("[data-testid=stop]").count()).toBe(0);
  }, "request-input");
});
