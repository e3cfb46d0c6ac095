// The quiet transcript (issue 13): a turn's intermediate steps (step texts, tool calls, routine System
// messages) fold into one "Worked for …" line between the question and the answer; opened, it shows
// the tool cards (one line each, openable to their arguments and results). A tool failure's System
// message stays visible outside the group. While the turn runs, the group is open and a working
// indicator says what is going on. The model is the fake OpenAI server, scripted step by step.
import { expect, it } from "vitest";
import { marker, scriptModel } from "../support/fake-openai-client";
import { asNewUser, newConversationInBrowser, sendChat, useSharedFakeModelApp, waitTurnEnded } from "./harness.ts";

const live = useSharedFakeModelApp();

const squash = (s: string | null) => (s ?? "").replace(/\s+/g, " ").trim();
const USAGE = { prompt_tokens: 500, completion_tokens: 156, cached_tokens: 0 }; // 656 per call, 1,968 for three

it("folds a turn's steps into one summary line, keeps a tool failure visible, and expands to the tool cards", async () => {
  await asNewUser(live, "transcript", { viewport: { width: 1200, height: 900 } }, async (page) => {
    const id = await newConversationInBrowser(page);
    const key = `transcript-${Date.now().toString(36)}`;
    await scriptModel(live.llm.url, key, [
      {
        text: "Let me look through your notes.",
        tool_calls: [
          { name: "vault_list", arguments: {} },
          { name: "vault_search", arguments: { query: "quarterly plan" } },
        ],
        usage: USAGE,
      },
      { tool_calls: [{ name: "vault_read", arguments: { path: "missing.md" } }], usage: USAGE, delay_ms: 2500 },
      { text: "Nothing about a quarterly plan in your notes.", usage: USAGE, delay_ms: 2500 },
    ]);
    await sendChat(page, `What is in my quarterly plan? ${marker(key)}`);

    // While it runs: the group is open, its steps show, and the thread says it is thinking.
    const group = page.locator("[data-testid=turn-group]");
    await group.locator("[data-role=tool][data-tool=vault_search]").waitFor({ timeout: 15_000 });
    expect(await group.getAttribute("data-running")).toBe("true");
    expect(await group.getAttribute("data-expanded")).toBe("true");
    const indicator = page.locator("[data-testid=working-indicator]");
    await expect.poll(() => indicator.textContent(), { timeout: 10_000 }).toBe("Thinking…");
    expect(await page.locator("[data-testid=chat]").textContent()).not.toMatch(/reasoning/i);

    // Done: one collapsed line with the right figures, the answer under it, no tool card on show.
    const answer = page.locator("[data-role=agent][data-phase=final]");
    await answer.waitFor({ timeout: 30_000 });
    await waitTurnEnded(page, id);
    await expect.poll(() => group.getAttribute("data-expanded"), { timeout: 10_000 }).toBe("false");
    expect(await group.count()).toBe(1);
    const toggle = group.locator("[data-testid=turn-group-toggle]");
    const summary = group.locator("[data-testid=turn-group-summary]");
    expect(squash(await summary.textContent())).toBe("Worked for 3 steps · 3 tools · 1 failed");
    expect(await toggle.getAttribute("aria-expanded")).toBe("false");
    expect(await page.locator("[data-role=tool]").count()).toBe(0);
    expect(await page.locator("[data-testid=live-tool]").count()).toBe(0);
    expect(await indicator.count()).toBe(0);
    expect(await answer.textContent()).toContain("Nothing about a quarterly plan");
    // The step text is folded away too: the only agent text on show is the answer.
    expect(await page.locator("[data-role=agent]").count()).toBe(1);

    // The failure stays visible, outside the group, between the question and the answer.
    const failure = page.locator("[data-role=system][data-source='Tool Executor']", { hasText: "vault_read" });
    await failure.first().waitFor({ timeout: 10_000 });
    expect(await group.locator("[data-role=system]").count()).toBe(0);
    const order = await page
      .locator("[data-role], [data-testid=turn-group]")
      .evaluateAll((els) => els.map((e) => e.getAttribute("data-role") ?? e.getAttribute("data-testid")));
    expect(order[0]).toBe("user");
    expect(order.at(-1)).toBe("agent");
    expect(order).toContain("system");

    // Expanded: the step text and three tool cards, each one line until opened.
    await toggle.click();
    expect(await toggle.getAttribute("aria-expanded")).toBe("true");
    const cards = group.locator("[data-role=tool]");
    await expect.poll(() => cards.count()).toBe(3);
    expect(await cards.evaluateAll((els) => els.map((e) => e.getAttribute("data-tool")))).toEqual([
      "vault_list",
      "vault_search",
      "vault_read",
    ]);
    expect(await cards.evaluateAll((els) => els.map((e) => (e as HTMLDetailsElement).open))).toEqual([
      false,
      false,
      false,
    ]);
    expect(await group.locator("[data-role=agent]").textContent()).toContain("Let me look through your notes.");
    const search = cards.nth(1);
    await search.locator("summary").click();
    expect(await search.textContent()).toContain("quarterly plan"); // its arguments
    expect(await search.textContent()).toContain("Result");
    const read = cards.nth(2);
    expect(await read.getAttribute("data-status")).toBe("error");
    await read.locator("summary").click();
    expect(await read.textContent()).toContain("No note at missing.md");

    // A reload shows the same: one collapsed line with the same figures.
    await page.reload();
    await answer.waitFor({ timeout: 15_000 });
    expect(await group.getAttribute("data-expanded")).toBe("false");
    expect(squash(await summary.textContent())).toBe("Worked for 3 steps · 3 tools · 1 failed");
    expect(await page.locator("[data-role=tool]").count()).toBe(0);
    // The failure's card may follow the answer's by a render on a loaded machine.
    await expect.poll(() => failure.count()).toBeGreaterThan(0);
  });
});

it("shows a simple answer without a group, and the empty state only for a conversation that is really empty", async () => {
  await asNewUser(live, "transcript-simple", {}, async (page) => {
    const id = await newConversationInBrowser(page);
    await page.locator("[data-testid=empty-conversation]").waitFor({ timeout: 10_000 });
    const key = `simple-${Date.now().toString(36)}`;
    await scriptModel(live.llm.url, key, [{ text: "Just an answer." }]);
    await sendChat(page, `Hi ${marker(key)}`);
    await page.locator("[data-role=agent][data-phase=final]").waitFor({ timeout: 30_000 });
    await waitTurnEnded(page, id);
    expect(await page.locator("[data-testid=turn-group]").count()).toBe(0);
    expect(await page.locator("[data-testid=empty-conversation]").count()).toBe(0);

    // On a reload the history loads: "No messages yet" never flashes for a conversation with history.
    await page.evaluate(() => {
      (window as unknown as { __sawEmpty: boolean }).__sawEmpty = false;
    });
    await page.addInitScript(() => {
      const w = window as unknown as { __sawEmpty: boolean };
      w.__sawEmpty = false;
      new MutationObserver(() => {
        if (document.querySelector("[data-testid=empty-conversation]")) w.__sawEmpty = true;
      }).observe(document, { subtree: true, childList: true });
    });
    await page.reload();
    await page.locator("[data-role=agent][data-phase=final]").waitFor({ timeout: 15_000 });
    expect(await page.evaluate(() => (window as unknown as { __sawEmpty: boolean }).__sawEmpty)).toBe(false);
  });
});
