// A compaction as a person sees it: the app (real `wrangler dev`, OPENAI_CONTEXT_WINDOW=4000 passed
// like `npm start` passes it) talks to the fake OpenAI server; long messages push the conversation past
// the window, the model writes a summary, and the chat shows a divider that opens to that summary while
// every earlier message stays on screen. The model's next request starts with the summary.
import { expect, it } from "vitest";
import { marker, modelRequests, scriptModel } from "../support/fake-openai-client";
import {
  fakeModelAppForFile,
  newConversationInBrowser,
  sendChat,
  signUpInBrowser,
  waitTurnEnded,
  withPage,
} from "./harness.ts";

const SUMMARY = "- Goal: plan the launch.\n- Decided: ship in May.";

const live = fakeModelAppForFile({ OPENAI_CONTEXT_WINDOW: "4000" });

it("shows a compaction as a divider that opens to the summary, keeping every message", async () => {
  await withPage(live, "compaction", { viewport: { width: 1280, height: 800 } }, async (page) => {
    expect(((await (await page.request.get("/api/health")).json()) as { model: unknown }).model).toMatchObject({
      context_window: 4000,
    });
    await signUpInBrowser(page);
    const id = await newConversationInBrowser(page);
    const key = `compaction-${Date.now().toString(36)}`;
    await scriptModel(live.llm.url, key, [{ text: `Noted. ${"detail ".repeat(150)}` }], { text: SUMMARY });
    for (let i = 0; i < 8; i++) {
      await sendChat(page, `Part ${i} of the plan: ${"launch ".repeat(200)} ${marker(key)}`);
      await waitTurnEnded(page, id);
    }
    const divider = page.locator("[data-kind=compaction]");
    await divider.first().waitFor({ timeout: 15_000 });
    // One or more, as the tools' schemas leave room for the messages: each a summary.
    for (const each of await divider.all()) expect(await each.getAttribute("data-method")).toBe("summary");
    expect(await page.getByTestId("compaction-title").first().textContent()).toContain("Earlier messages summarised");
    // Closed, then open on request, as plain text.
    expect(await page.getByTestId("compaction-body").first().isVisible()).toBe(false);
    await page.getByTestId("compaction-toggle").first().click();
    expect(await page.getByTestId("compaction-body").first().innerText()).toContain("- Decided: ship in May.");
    // Every message is still in the chat.
    expect(await page.locator("[data-role=user]").count()).toBe(8);
    // The model read the summary in place of the early messages, never more than the window.
    const requests = await modelRequests(live.llm.url, key);
    const last = requests.at(-1);
    expect(JSON.stringify(last?.body.messages)).toContain("Decided: ship in May.");
    expect(JSON.stringify(last?.body.messages)).not.toContain("Part 0 of the plan");
    for (const r of requests) expect(r.usage?.prompt_tokens).toBeLessThanOrEqual(4000);
  });
});
