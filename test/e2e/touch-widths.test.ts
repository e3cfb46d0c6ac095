// Issue 41, items 6, 10 and 12 (part), on a desktop and on a phone (touch), with the fake model:
//  - 6: on a touch screen every control under the messages (Copy, Edit, Regenerate, Details, ‹ ›, the
//    turn's steps and the model's thinking) and on the drawer's rows is at least 44×44 px (WCAG 2.5.5,
//    Apple's guidance), Delete set apart from Pin and Rename; a desktop stays compact;
//  - 12: after an edit the action row stays one row (‹ 2/2 › and Edit on it, the "changes stay" line
//    under it), and a task list's checkboxes (in a note, in an answer) are named by their item's words;
//  - 10: the question, the approval cards and an MCP server's form line up with the messages and the
//    composer, and the model's open thinking is no wider than the answer.
import type { Page } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import { marker, scriptModel } from "../support/fake-openai-client";
import { type ElicitServer, startElicitServer } from "../support/mcp-elicit-server";
import {
  apiFromPage,
  asNewUser,
  DESKTOP_AND_PHONE,
  newConversationInBrowser,
  sendChat,
  useSharedFakeModelApp,
  viewportOptions,
  waitTurnEnded,
} from "./harness.ts";

const live = useSharedFakeModelApp();
let elicit: ElicitServer;

beforeAll(async () => {
  elicit = await startElicitServer();
});
afterAll(async () => {
  await elicit?.close();
});

/** WCAG 2.5.5 (AAA) and Apple's Human Interface Guidelines: 44 × 44 CSS px. */
const TARGET = 44;

const finals = (page: Page) => page.locator("[data-role=agent][data-phase=final]");
const create = (title: string) => ({ name: "task_create", arguments: { title } });

/**
 * Every visible control inside `scope` smaller than TARGET either way, as "testid W×H". Links and task
 * boxes inside a text are left out (WCAG exempts a target in a sentence), not a code block's Copy.
 */
const smallTargets = (page: Page, scope: string) =>
  page.evaluate(
    ({ scope, target }) =>
      [...document.querySelectorAll<HTMLElement>(`${scope} :is(button, a[href], summary, input, select, textarea)`)]
        .filter(
          (el) => el.getClientRects().length > 0 && !(el.matches("a, input") && el.closest("[data-testid=markdown]")),
        )
        .map((el) => ({ el, box: el.getBoundingClientRect() }))
        .filter(({ box }) => box.width < target - 0.5 || box.height < target - 0.5)
        .map(
          ({ el, box }) =>
            `${el.dataset.testid ?? el.textContent?.trim()} ${Math.round(box.width)}×${Math.round(box.height)}`,
        ),
    { scope, target: TARGET },
  );

/**
 * Each message's action row: whether its items (time, Copy, ‹ n/m ›, Edit…) sit on one line, and whether
 * the "changes stay" line, when there, is under all of them rather than between them.
 */
const actionRows = (page: Page) =>
  page.evaluate(() =>
    [...document.querySelectorAll<HTMLElement>("[data-testid=message-actions]")].map((row) => {
      const shown = [...row.children].filter((el) => el.getClientRects().length > 0);
      const isStay = (el: Element) => (el as HTMLElement).dataset.testid === "versions-changes-stay";
      const items = shown.filter((el) => !isStay(el)).map((el) => el.getBoundingClientRect());
      const bottom = Math.max(...items.map((b) => b.bottom));
      return {
        row: row.innerText.replace(/\s+/g, " ").trim(),
        oneLine: Math.max(...items.map((b) => b.top)) < Math.min(...items.map((b) => b.bottom)),
        stayUnder: shown.filter(isStay).every((el) => el.getBoundingClientRect().top >= bottom - 1),
      };
    }),
  );

it("gives a touch screen 44 px targets under the messages and in the drawer (Delete apart), keeps a desktop compact, and an edited message's actions on one row", async () => {
  for (const viewport of DESKTOP_AND_PHONE) {
    await asNewUser(live, `touch-targets-${viewport.name}`, viewportOptions(viewport), async (page) => {
      const key = `touch-${viewport.name}-${Date.now().toString(36)}`;
      const look = {
        reasoning: ["Let me look at the list first."],
        tool_calls: [{ name: "task_list", arguments: {} }],
      };
      await scriptModel(live.llm.url, key, [
        { tool_calls: [create("Water the plants")] },
        { text: "It is on your list." },
        look,
        { text: "Tomorrow it is." },
        look,
        { text: "Tomorrow, then:\n\n```\nwater the plants\n```" },
      ]);
      const id = await newConversationInBrowser(page);
      await sendChat(page, `Remind me to water the plants ${marker(key)}`);
      await finals(page).first().waitFor({ timeout: 30_000 });
      await waitTurnEnded(page, id);

      // Edit the question: a second version, its ‹ 2/2 › and, as the first version wrote a task, the
      // line saying such changes stay. Then Regenerate the answer: ‹ 2/2 › under the answer too.
      await page.locator("[data-testid=edit-message]").click();
      await page.locator("[data-testid=edit-input]").fill(`Remind me tomorrow ${marker(key)}`);
      await page.locator("[data-testid=edit-save]").click();
      await expect.poll(() => finals(page).textContent(), { timeout: 30_000 }).toContain("Tomorrow it is.");
      await waitTurnEnded(page, id);
      await page.locator("[data-testid=regenerate]").click();
      await expect.poll(() => finals(page).textContent(), { timeout: 30_000 }).toContain("Tomorrow, then:");
      await waitTurnEnded(page, id);
      await page.locator("[data-testid=versions-changes-stay]").waitFor();
      expect(await page.locator("[data-testid=version-switcher]").count()).toBe(2);

      // Item 12: each row is one line, the sentence under it (on base, Edit went alone to a third line).
      const rows = await actionRows(page);
      expect(rows.length).toBe(2);
      for (const row of rows) expect(row).toEqual({ row: row.row, oneLine: true, stayUnder: true });

      const copy = await page.locator("[data-testid=copy-message]").first().boundingBox();
      if (!viewport.phone) {
        // A mouse needs no more than the text: the desktop's rows stay as compact as they were.
        expect(copy?.height).toBeLessThan(30);
        return;
      }
      // Item 6, a phone: every control under the messages, the turn's steps and its thinking included.
      await page.locator("[data-testid=turn-group-toggle]").click();
      await page.locator("[data-testid=turn-group-steps] [data-testid=reasoning-toggle]").waitFor();
      await page.locator("[data-testid=code-block]").waitFor();
      expect(await smallTargets(page, "[data-testid=message-list]")).toEqual([]);

      // The drawer's rows: Pin, Rename and Delete each 44 × 44, Delete set apart from the other two.
      await page.locator("[data-testid=menu-button]").click();
      const row = page.locator(`[data-testid=conversation-item][data-id="${id}"]`);
      await row.waitFor({ state: "visible" });
      expect(await smallTargets(page, `[data-testid=conversation-item][data-id="${id}"]`)).toEqual([]);
      const box = async (testid: string) => {
        const found = await row.locator(`[data-testid=${testid}]`).boundingBox();
        if (!found) throw new Error(`${testid} is not shown`);
        return found;
      };
      const rename = await box("rename-conversation");
      const remove = await box("delete-conversation");
      expect(remove.x - (rename.x + rename.width)).toBeGreaterThanOrEqual(12);
      // And the rest of the drawer: New, the search, the pages, Log out.
      expect(await smallTargets(page, "[data-testid=drawer]")).toEqual([]);
    });
  }
}, 120_000);

it("lines the question, the approval and an MCP server's form up with the messages and the composer; the open thinking is no wider than the answer", async () => {
  for (const viewport of DESKTOP_AND_PHONE) {
    await asNewUser(live, `widths-${viewport.name}`, viewportOptions(viewport), async (page) => {
      const approvals = await apiFromPage(page, "PUT", "/api/tool-approvals", { tool: "task_create", mode: "ask" });
      expect(approvals.status).toBe(200);
      const server = await apiFromPage<{ id: string }>(page, "POST", "/api/mcp-servers", {
        name: "trips",
        url: elicit.url,
      });
      expect(server.status).toBe(201);
      const trusted = await apiFromPage(page, "PUT", "/api/tool-approvals", {
        tool: `mcp:${server.body.id}:*`,
        mode: "allow",
      });
      expect(trusted.status).toBe(200);
      const key = `widths-${viewport.name}-${Date.now().toString(36)}`;
      const long = "A long answer that fills the bubble to its widest, written out at length. ".repeat(12);
      await scriptModel(live.llm.url, key, [
        { tool_calls: [{ name: "request_input", arguments: { question: "Which day suits you?" } }] },
        { tool_calls: [create("Water the plants")] },
        { tool_calls: [{ name: "trips__ask_form", arguments: {} }] },
        { reasoning: ["Thinking it over at length, word after word, line after line. ".repeat(20)], text: long },
      ]);
      const id = await newConversationInBrowser(page);
      await sendChat(page, `Plan my week ${marker(key)}`);

      /** Left and right edges, rounded to the pixel. */
      const edges = async (selector: string) =>
        page.evaluate((selector) => {
          const el = document.querySelector(selector);
          if (!el) throw new Error(`${selector} is not on the page`);
          const box = el.getBoundingClientRect();
          return { left: Math.round(box.left), right: Math.round(box.right) };
        }, selector);
      // The reference: the messages' column (its role=log list) and the composer's box.
      const column = await edges("[data-testid=message-list] [role=log]");
      const composer = await page.evaluate(() => {
        let el = document.querySelector("[data-testid=composer-input]") as HTMLElement;
        while (el.parentElement && el.parentElement.tagName !== "FORM") el = el.parentElement;
        const box = el.getBoundingClientRect();
        return { left: Math.round(box.left), right: Math.round(box.right) };
      });
      expect(composer).toEqual(column);

      await page.locator("[data-testid=request-input]").waitFor({ timeout: 15_000 });
      expect({ question: await edges("[data-testid=request-input]") }).toEqual({ question: column });
      await page.locator("[data-testid=request-input-answer]").fill("Monday");
      await page.locator("[data-testid=request-input-send]").click();

      await page.locator("[data-testid=approval-card]").waitFor({ timeout: 15_000 });
      expect({ approval: await edges("[data-testid=approval-card]") }).toEqual({ approval: column });
      await page.locator("[data-testid=approval-approve]").click();

      await page.locator("[data-testid=elicitation-card]").waitFor({ timeout: 15_000 });
      expect({ form: await edges("[data-testid=elicitation-card]") }).toEqual({ form: column });
      await page.locator("[data-testid=elicitation-decline]").click();

      await finals(page).first().waitFor({ timeout: 30_000 });
      await waitTurnEnded(page, id);
      const thought = "[data-testid=reasoning]:has(+ [data-role=agent][data-phase=final])";
      await page.locator(`${thought} [data-testid=reasoning-toggle]`).click();
      await page.locator(`${thought} [data-testid=reasoning-text]`).waitFor();
      const bubble = await edges("[data-role=agent][data-phase=final] > div");
      const thinking = await edges(thought);
      expect(bubble.right - bubble.left).toBeGreaterThan(viewport.phone ? 250 : 600); // the answer is at its widest
      expect(thinking.left).toBeGreaterThanOrEqual(bubble.left);
      expect(thinking.right).toBeLessThanOrEqual(bubble.right);
    });
  }
}, 120_000);

it("names a task list's checkboxes by their item's words, in a note and in an answer", async () => {
  const list =
    "- [ ] Buy milk\n- [x] Call **Ann** about `the trip`\n  - [ ] Book the train\n\n1. [ ] Pack\n\n2. [x] Go";
  const names = ["Buy milk", "Call Ann about the trip", "Book the train", "Pack", "Go"];
  /** The accessible names of the checkboxes inside `scope`, from the browser's accessibility tree. */
  const checkboxNames = async (page: Page, scope: string) => {
    const text = page.locator(scope).first();
    await text.getByRole("checkbox").first().waitFor();
    const snapshot = await text.ariaSnapshot();
    return [...snapshot.matchAll(/- checkbox(?: "([^"]*)")?/g)].map((m) => m[1] ?? "");
  };
  for (const viewport of DESKTOP_AND_PHONE) {
    await asNewUser(live, `task-names-${viewport.name}`, viewportOptions(viewport), async (page) => {
      const saved = await apiFromPage(page, "PUT", "/api/notes/today.md", { content: `# Today\n\n${list}\n` });
      expect(saved.status).toBeLessThan(300);
      await page.goto("/notes/today.md");
      expect(await checkboxNames(page, "[data-testid=markdown]")).toEqual(names);
      expect(await page.getByRole("checkbox", { name: "Call Ann about the trip", exact: true }).isChecked()).toBe(true);

      const key = `task-names-${viewport.name}-${Date.now().toString(36)}`;
      await scriptModel(live.llm.url, key, [{ text: `Your list:\n\n${list}` }]);
      const id = await newConversationInBrowser(page);
      await sendChat(page, `My list ${marker(key)}`);
      await finals(page).first().waitFor({ timeout: 30_000 });
      await waitTurnEnded(page, id);
      expect(await checkboxNames(page, "[data-role=agent][data-phase=final] [data-testid=markdown]")).toEqual(names);
    });
  }
}, 120_000);
