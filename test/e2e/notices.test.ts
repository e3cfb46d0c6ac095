// System notices that respect attention (issue 26), on a desktop and a phone (layout.test.ts holds 360 px). With an MCP server
// that cannot be reached (a closed port on loopback) three messages give one "unavailable" card that
// counts 3 and lists when on a click, in plain words (no internal names until Details); "Turn off this
// server" on the card turns it off (the next message adds no notice; Settings → Tools shows it off).
// The loop demo's incident (the loop warning and the failed reads) is one card. Settings →
// Agent notices shows no subscriber ids or event types until Details is opened. The model still gets
// every notice: the API lists each one. The app runs the demo model (no OPENAI_API_KEY).
import type { Page } from "playwright-core";
import { expect, it } from "vitest";
import {
  apiFromPage,
  asNewUser,
  DESKTOP_AND_PHONE,
  freePort,
  newConversationInBrowser,
  sendChat,
  useSharedApp,
  viewportOptions,
  waitTurnEnded,
} from "./harness.ts";

const live = useSharedApp();

/** Internal names a person should not meet without asking for Details. */
const INTERNAL =
  /mcp_unavailable|mcp\.unavailable|loop_detected|loop\.detected|tool_failure|tool\.failure|MCP Connector|Loop Detector|Tool Executor|error_type|\bpriority\b/;

type Listed = { role: string; item: { subscriber?: string } };

async function notices(page: Page, id: string, subscriber: string): Promise<number> {
  const res = await apiFromPage<{ messages: Listed[] }>(
    page,
    "GET",
    `/api/conversations/${encodeURIComponent(id)}/messages`,
  );
  return res.body.messages.filter((m) => m.role === "system" && m.item.subscriber === subscriber).length;
}

/** Sends a message and waits for its answer and for the turn to end. */
async function turn(page: Page, id: string, text: string, answersBefore: number): Promise<void> {
  await sendChat(page, text);
  await expect
    .poll(() => page.locator("[data-role=agent][data-phase=final]").count(), { timeout: 30_000 })
    .toBe(answersBefore + 1);
  await waitTurnEnded(page, id);
}

/** What is on show: the rendered text, without what closed Details hold. */
const shownText = (page: Page, selector: string) =>
  page.locator(selector).evaluateAll((els) => els.map((e) => (e as HTMLElement).innerText).join("\n"));

// The two viewports run side by side (each its own user and context): half of the wall time.
for (const viewport of DESKTOP_AND_PHONE) {
  it.concurrent(`folds repeated notices, turns an unreachable server off from its card, and speaks plainly (${viewport.name})`, async () => {
    const options = viewportOptions(viewport);
    await asNewUser(live, `notices-${viewport.name.replace(" ", "-")}`, options, async (page) => {
      // An MCP server nobody answers for (npm start and the tests allow loopback).
      const url = `http://127.0.0.1:${await freePort()}/mcp`;
      const added = await apiFromPage<{ id: string }>(page, "POST", "/api/mcp-servers", { name: "offline", url });
      expect(added.status).toBe(201);

      const id = await newConversationInBrowser(page);
      await turn(page, id, "hello", 0);
      await turn(page, id, "hello again", 1);
      await turn(page, id, "loop", 2);

      // Three notices persisted (the model read each), one card that counts them.
      expect(await notices(page, id, "mcp_unavailable")).toBe(3);
      const mcpCard = page.locator("[data-role=system][data-subscriber=mcp_unavailable]");
      await expect.poll(() => mcpCard.count(), { timeout: 10_000 }).toBe(1);
      const toggle = mcpCard.locator("[data-testid=notice-toggle]");
      expect(await toggle.textContent()).toBe("× 3");
      expect(await mcpCard.locator("[data-testid=system-source]").textContent()).toBe("Tools");
      expect(await mcpCard.locator("[data-testid=notification-headline]").textContent()).toBe(
        "MCP server offline is unavailable; its tools are not offered this turn",
      );
      // On a click: when each came.
      expect(await toggle.getAttribute("aria-expanded")).toBe("false");
      await toggle.click();
      const occurrences = mcpCard.locator("[data-testid=notice-occurrence]");
      await expect.poll(() => occurrences.count()).toBe(3);
      expect((await occurrences.allTextContents()).map((t) => t.split(" · ")[0])).toEqual([
        "Turn 1",
        "Turn 2",
        "Turn 3",
      ]);
      // The same words each time: the list says when, not the same sentence three times.
      expect(await occurrences.first().textContent()).not.toContain("unavailable");

      // The loop demo's incident (its failed reads and the loop warning) is one card.
      const listed = await apiFromPage<{ messages: Listed[] }>(page, "GET", `/api/conversations/${id}/messages`);
      const incident = listed.body.messages.filter(
        (m) => m.role === "system" && ["loop_detected", "tool_failure"].includes(m.item.subscriber ?? ""),
      );
      expect(incident.length).toBeGreaterThanOrEqual(3);
      const loopCard = page.locator("[data-role=system][data-subscriber=loop_detected]");
      expect(await loopCard.count()).toBe(1);
      expect(await page.locator("[data-role=system][data-subscriber=tool_failure]").count()).toBe(0);
      expect(await page.locator("[data-role=system]").count()).toBe(2);
      expect(await loopCard.locator("[data-testid=notification-headline]").textContent()).toMatch(/^Loop detected: /);
      expect(await loopCard.locator("[data-testid=notice-related]").textContent()).toMatch(/^Read a note failed/);
      await loopCard.locator("[data-testid=notice-toggle]").click();
      await expect.poll(() => loopCard.locator("[data-testid=notice-occurrence]").count()).toBe(incident.length);

      // Plain words on show; the internal names only under Details.
      expect(await shownText(page, "[data-role=system]")).not.toMatch(INTERNAL);
      const details = mcpCard.locator("[data-testid=system-details]");
      await details.locator("summary").click();
      const rawSource = details.locator("[data-testid=system-raw-source]");
      expect(await rawSource.isVisible()).toBe(true);
      expect(await rawSource.textContent()).toBe("MCP Connector");

      // Test it again from the card: still down, said in words.
      const outcome = mcpCard.locator("[data-testid=mcp-notice-outcome]");
      await mcpCard.locator("[data-testid=mcp-notice-test]").click();
      await expect.poll(() => outcome.textContent(), { timeout: 15_000 }).toMatch(/^Still unreachable: \S/);

      // Turn it off from the card: said in words, stored, and the next message adds no notice.
      await mcpCard.locator("[data-testid=mcp-notice-turn-off]").click();
      await expect.poll(() => outcome.textContent(), { timeout: 10_000 }).toMatch(/^Turned off\./);
      await mcpCard.locator("[data-testid=mcp-notice-turn-on]").waitFor();
      await turn(page, id, "hello once more", 3);
      expect(await notices(page, id, "mcp_unavailable")).toBe(3);
      expect(await mcpCard.locator("[data-testid=notice-toggle]").textContent()).toBe("× 3");
      expect(await page.locator("[data-role=system]").count()).toBe(2);

      // Settings → Tools shows it off.
      await page.goto("/settings/tools");
      const row = page.locator("[data-testid=mcp-server][data-name=offline]");
      await row.waitFor({ timeout: 15_000 });
      expect(await row.getAttribute("data-enabled")).toBe("false");
      expect(await row.locator("[data-testid=mcp-enabled]").isChecked()).toBe(false);

      // Settings → Agent notices: names and plain sentences; ids and event types only under Details.
      await page.locator("[data-testid=tab-agent-notices]").click();
      const settings = page.locator("[data-testid=agent-notices]");
      await settings.waitFor({ timeout: 15_000 });
      const subscribers = await apiFromPage<{ id: string; events: string[] }[]>(page, "GET", "/api/subscribers");
      expect(subscribers.body.length).toBeGreaterThan(5);
      const shown = await shownText(page, "[data-testid=agent-notices]");
      for (const s of subscribers.body) {
        expect(shown).not.toContain(s.id);
        for (const event of s.events) expect(shown).not.toContain(event);
      }
      expect(shown).not.toMatch(/core subscriber|POST |429|5xx/i);
      expect(shown).toContain("Always on");
      const budget = page.locator("[data-testid=subscriber-budget_exceeded]");
      await budget.locator("[data-testid=subscriber-details-budget_exceeded] summary").click();
      expect(await budget.locator("[data-testid=subscriber-event]").isVisible()).toBe(true);
      expect(await budget.locator("[data-testid=subscriber-event]").textContent()).toBe("budget.exceeded");
      expect(await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth)).toBe(false);
    });
  });
}
