// Subagents in the browser (issue 6), with the demo model (no OPENAI_API_KEY): "delegate listing my
// notes to a subagent" makes the demo call `delegate` with the task "Look through the vault and list
// the notes."; the subagent's own demo model calls vault_list and answers; the parent quotes that
// answer. While the call runs, its card shows the subagent's progress in a panel (recorded with a
// MutationObserver, as the run lasts about a second); afterwards the panel stays, collapsed, and opens
// again; a pod event line follows; the link opens the child conversation with its own history; after
// a reload the persisted result still shows the answer and the link, each thing once.
import type { Page } from "playwright-core";
import { expect, it } from "vitest";
import { apiFromPage, asNewUser, newConversationInBrowser, sendChat, useSharedApp, waitTurnEnded } from "./harness.ts";

const PHRASE = "delegate listing my notes to a subagent";
const TASK = "Look through the vault and list the notes.";

const live = useSharedApp();

/** Remembers what the live delegate card showed, however briefly. */
async function recordLivePanel(page: Page): Promise<void> {
  await page.evaluate(() => {
    const seen = { panel: false, expanded: false, running: false, tool: false, text: false, link: "" };
    (window as unknown as { __subagentSeen: typeof seen }).__subagentSeen = seen;
    const look = () => {
      const panel = document.querySelector(
        "[data-testid=live-tool][data-tool=delegate] [data-testid=subagent-panel]",
      ) as HTMLElement | null;
      if (!panel) return;
      seen.panel = true;
      if (panel.dataset.expanded === "true") seen.expanded = true;
      if (panel.dataset.running === "true") seen.running = true;
      if (panel.querySelector("[data-testid=subagent-tool][data-tool=vault_list]")) seen.tool = true;
      if (panel.querySelector("[data-testid=subagent-text]")?.textContent?.trim()) seen.text = true;
      seen.link = panel.querySelector("[data-testid=subagent-link]")?.getAttribute("href") ?? seen.link;
    };
    new MutationObserver(look).observe(document.body, {
      subtree: true,
      childList: true,
      characterData: true,
      attributes: true,
    });
  });
}

it("shows the subagent's progress under the delegate card, then its answer, and links to its conversation", async () => {
  await asNewUser(live, "subagents", { viewport: { width: 1200, height: 900 } }, async (page) => {
    const note = await apiFromPage(page, "PUT", "/api/notes/plan.md", { content: "Ship the subagent panel." });
    expect(note.status).toBeLessThan(300);
    const id = await newConversationInBrowser(page);
    await recordLivePanel(page);
    await sendChat(page, PHRASE);

    // Live: the delegate card with the subagent's panel, open, its vault_list call and its text.
    await page.locator("[data-tool=delegate]").first().waitFor({ timeout: 15_000 });
    await waitTurnEnded(page, id, 45_000);
    const seen = await page.evaluate(
      () => (window as unknown as { __subagentSeen: Record<string, unknown> }).__subagentSeen,
    );
    expect(seen).toMatchObject({ panel: true, expanded: true, running: true, tool: true, text: true });
    expect(String(seen.link)).toMatch(/^\/c\/.+/);

    // Done: the turn's steps fold into one line; opened, the persisted card shows the answer and the
    // panel is still there, collapsed.
    const group = page.locator("[data-testid=turn-group]");
    await expect.poll(() => group.getAttribute("data-expanded"), { timeout: 10_000 }).toBe("false");
    expect(await page.locator("[data-role=tool][data-tool=delegate]").count()).toBe(0);
    await group.locator("[data-testid=turn-group-toggle]").click();
    const card = page.locator("[data-role=tool][data-tool=delegate]");
    await expect.poll(() => card.count(), { timeout: 10_000 }).toBe(1);
    await expect.poll(() => card.getAttribute("data-status")).toBe("success");
    expect(await card.locator("[data-testid=delegate-task]").textContent()).toContain(TASK);
    expect(await card.locator("[data-testid=subagent-answer]").textContent()).toContain("plan.md");
    const pod = (await card.locator("[data-testid=subagent-pod]").textContent())?.trim() ?? "";
    expect(pod).toMatch(/^subagent-/);
    const panel = card.locator("[data-testid=subagent-panel]");
    expect(await panel.getAttribute("data-expanded")).toBe("false");
    expect(await panel.locator("[data-testid=subagent-progress]").count()).toBe(0);

    // Expand: the subagent's tool call (finished) and its answer; collapse again.
    await panel.locator("[data-testid=subagent-toggle]").click();
    expect(await panel.getAttribute("data-expanded")).toBe("true");
    await panel.locator("[data-testid=subagent-tool][data-tool=vault_list][data-status=success]").waitFor();
    const childTexts = await panel.locator("[data-testid=subagent-text]").allTextContents();
    expect(childTexts.join("\n")).toContain("plan.md");
    // In plain words ("Answered"), the reason code kept for tools in data-reason.
    const outcome = panel.locator("[data-testid=subagent-outcome]");
    expect(await outcome.getAttribute("data-reason")).toBe("completed");
    expect(await outcome.textContent()).toMatch(/^Finished: Answered · \d+ steps?$/);
    await panel.locator("[data-testid=subagent-toggle]").click();
    expect(await panel.getAttribute("data-expanded")).toBe("false");
    expect(await panel.locator("[data-testid=subagent-progress]").count()).toBe(0);

    // The parent's answer quotes the subagent's; a pod event line names the subagent's task (its pod
    // name only in data-pod and under the card's Details, issue 41).
    const answer = page.locator("[data-role=agent]").last();
    // (rendered as markdown: a quote holding a list)
    expect(await answer.locator("blockquote li").allTextContents()).toContain("plan.md");
    const event = page.locator("[data-testid=pod-event][data-event=turn_ended]");
    expect(await event.count()).toBe(1);
    expect(await event.getAttribute("data-pod")).toBe(pod);
    expect(await event.textContent()).toContain(TASK);
    expect(await event.textContent()).not.toContain(pod);

    // The link opens the child conversation with its own history: the task, vault_list, its answer.
    const href = (await panel.locator("[data-testid=subagent-link]").getAttribute("href")) ?? "";
    expect(href).toBe(seen.link);
    const childId = decodeURIComponent(href.slice("/c/".length));
    expect(await card.locator("[data-testid=subagent-conversation-link]").getAttribute("href")).toBe(href);
    await panel.locator("[data-testid=subagent-link]").click();
    await page.waitForURL((url) => url.pathname === href);
    const child = page.locator(`[data-testid=chat][data-conversation-id=${JSON.stringify(childId)}]`);
    await child.locator("[data-role=user]", { hasText: TASK }).waitFor({ timeout: 15_000 });
    await child.locator("[data-testid=turn-group-toggle]").click(); // its steps, folded like any turn's
    await child.locator("[data-role=tool][data-tool=vault_list]").waitFor();
    await expect
      .poll(async () => (await child.locator("[data-role=agent]").allTextContents()).join("\n"))
      .toContain("plan.md");
    expect(await child.locator("[data-role=user]").count()).toBe(1);

    // Back and reloaded: the persisted result still shows the answer and the link, everything once.
    await page.goBack();
    await page.waitForURL((url) => url.pathname === `/c/${encodeURIComponent(id)}`);
    await page.reload();
    const reloaded = page.locator("[data-role=tool][data-tool=delegate]");
    await page.locator("[data-testid=turn-group-toggle]").click({ timeout: 15_000 });
    await reloaded.waitFor({ timeout: 15_000 });
    expect(await reloaded.locator("[data-testid=subagent-answer]").textContent()).toContain("plan.md");
    expect(await reloaded.locator("[data-testid=subagent-conversation-link]").getAttribute("href")).toBe(href);
    expect(await reloaded.locator("[data-testid=subagent-pod]").textContent()).toBe(pod);
    await page.waitForTimeout(1000); // a late resume replay would show up as duplicates now
    expect(await page.locator("[data-role=tool][data-tool=delegate]").count()).toBe(1);
    expect(await page.locator("[data-testid=pod-event]").count()).toBe(1);
    expect(await page.locator("[data-role=user]").count()).toBe(1);
  });
});
