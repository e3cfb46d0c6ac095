// Issue 41, plain words, on a desktop and a phone, with the offline demo model:
//   - a System card says what happened and why to the user (a task reminder names the task by its
//     title, never its id, and never the instruction the model got), and what the model read, byte for
//     byte, is one click away under Details; the demo answers a denied call in its own words instead of
//     echoing the instruction it was given;
//   - the agent's question (request_input) and the user's answer stay in the thread as the agent's and
//     the user's words, in order, after a reload too, not as JSON in the folded steps;
//   - tools go by readable labels and a subagent by its task (no `vault_list`, `subagent-<hex>`, "phase
//     final · ended: completed"), and the demo's help text ends with a paragraph of its own.
import type { Page } from "playwright-core";
import { expect, it } from "vitest";
import {
  apiFromPage,
  asNewUser,
  DESKTOP_AND_PHONE,
  newConversationInBrowser,
  sendChat,
  useSharedApp,
  viewportOptions,
  waitTurnEnded,
} from "./harness.ts";

const live = useSharedApp();

type Listed = { seq: number; role: string; item?: { kind: string; body: string } };

/** What is on show in the thread: rendered text, without what closed Details and folds hold. */
const shownText = (page: Page) => page.locator("[data-testid=message-list]").innerText();

/** Sends a message and waits for its turn's answer (the `n`th in the thread) and the turn's end. */
async function turn(page: Page, id: string, text: string, n: number): Promise<void> {
  await sendChat(page, text);
  await expect.poll(() => page.locator("[data-role=agent][data-phase=final]").count(), { timeout: 30_000 }).toBe(n);
  await waitTurnEnded(page, id);
}

const messages = async (page: Page, id: string) =>
  (await apiFromPage<{ messages: Listed[] }>(page, "GET", `/api/conversations/${encodeURIComponent(id)}/messages`)).body
    .messages;

/** Opens every folded group of steps (each once). */
async function openGroups(page: Page): Promise<void> {
  for (const toggle of await page.locator("[data-testid=turn-group-toggle][aria-expanded=false]").all())
    await toggle.click();
}

it("System cards speak to the user, keep what the model read under Details, and the demo never echoes its instructions", async () => {
  for (const viewport of DESKTOP_AND_PHONE) {
    await asNewUser(live, `plain-system-${viewport.name}`, viewportOptions(viewport), async (page) => {
      expect((await apiFromPage(page, "PUT", "/api/settings/agent", { taskReminderRequests: 1 })).status).toBe(200);
      const task = await apiFromPage<{ id: string }>(page, "POST", "/api/tasks", { title: "Write the report" });
      expect(task.status).toBe(201);
      await apiFromPage(page, "PUT", "/api/notes/plan.md", { content: "The plan: write the report by Friday." });
      expect((await apiFromPage(page, "PUT", "/api/tool-approvals", { tool: "task_create", mode: "ask" })).status).toBe(
        200,
      );

      // A task reminder: a sentence naming the task by its title; no id, no instruction to the model.
      const id = await newConversationInBrowser(page);
      await turn(page, id, "search my notes for plan", 1);
      const card = page.locator("[data-role=system][data-kind=task_reminder]").first();
      await card.waitFor({ timeout: 15_000 });
      const said = await card.innerText();
      expect(said).toContain("“Write the report”");
      for (const internal of [task.body.id, "Do not mention", "task_update", "system-reminder", "(id "])
        expect(said).not.toContain(internal);
      // Details: what the model read, byte for byte (the reminder's tags, the id, the instruction).
      await card.locator("[data-testid=system-details] > summary").click();
      const read = card.locator("[data-testid=system-model-text] pre");
      await read.waitFor();
      const reminder = (await messages(page, id)).find((m) => m.item?.kind === "task_reminder");
      expect(await read.textContent()).toBe(reminder?.item?.body);
      expect(reminder?.item?.body).toContain(`(id ${task.body.id})`);
      await card.locator("[data-testid=system-details] > summary").click();
      await read.waitFor({ state: "detached" });

      // A denied call: the demo says so in its own words, and no instruction reaches the thread.
      await sendChat(page, "add task buy milk");
      const approval = page.locator("[data-testid=approval-card]");
      await approval.waitFor({ timeout: 15_000 });
      expect(await approval.innerText()).toContain("Add a task");
      await approval.locator("[data-testid=approval-deny]").click();
      const answers = page.locator("[data-role=agent][data-phase=final]");
      await expect.poll(() => answers.count(), { timeout: 30_000 }).toBe(2);
      await waitTurnEnded(page, id);
      expect(await answers.last().innerText()).toBe(
        "OK, I won't run it. Here is what I would have done: add “buy milk” to your tasks.",
      );
      expect(await shownText(page)).not.toMatch(/Do not|denied this call|unless the user asks/);
    });
  }
}, 180_000);

it("keeps the agent's question and the user's answer in the thread, in order, across a reload", async () => {
  for (const viewport of DESKTOP_AND_PHONE) {
    await asNewUser(live, `plain-question-${viewport.name}`, viewportOptions(viewport), async (page) => {
      const id = await newConversationInBrowser(page);
      await sendChat(page, "ask me a question");
      await page.locator("[data-testid=request-input-answer]").fill("Ada Lovelace");
      await page.locator("[data-testid=request-input-send]").click();
      await page.locator("[data-role=agent][data-phase=final]").waitFor({ timeout: 30_000 });
      await waitTurnEnded(page, id);

      // The thread, top to bottom, outside the folded steps: the message, the question, the answer,
      // the final answer; the question and the answer in plain words, not the call's JSON.
      const thread = () =>
        page
          .locator("[role=log] [data-role]:not([data-testid=turn-group-steps] *)")
          .evaluateAll((els) =>
            els.map(
              (e) =>
                `${e.getAttribute("data-role")}:${e.getAttribute("data-kind") ?? e.getAttribute("data-phase") ?? ""}`,
            ),
          );
      const expected = ["user:", "agent:question", "user:answer", "agent:final"];
      expect(await thread()).toEqual(expected);
      const question = page.locator("[data-role=agent][data-kind=question]");
      expect(await question.innerText()).toMatch(/^What should I call you\?/);
      expect(await page.locator("[data-role=user][data-kind=answer]").innerText()).toBe("Ada Lovelace");
      expect(await shownText(page)).not.toMatch(/request_input|"answer"|\{/);

      await page.reload();
      await question.waitFor({ timeout: 15_000 });
      await expect.poll(thread, { timeout: 15_000 }).toEqual(expected);
      expect(await page.locator("[data-role=user][data-kind=answer]").innerText()).toBe("Ada Lovelace");
    });
  }
}, 120_000);

it("names tools and subagents in words, keeps the codes out of the answer's Details, and ends the help text with its own paragraph", async () => {
  for (const viewport of DESKTOP_AND_PHONE) {
    await asNewUser(live, `plain-names-${viewport.name}`, viewportOptions(viewport), async (page) => {
      await apiFromPage(page, "PUT", "/api/notes/plan.md", { content: "The plan." });
      const id = await newConversationInBrowser(page);

      // The help text: its closing line is a paragraph after the list, not inside the last bullet.
      await turn(page, id, "hello", 1);
      const help = page.locator("[data-role=agent][data-phase=final]").first();
      const closing = help.locator("p", { hasText: "Pick the “roa” tree" });
      expect(await closing.count()).toBe(1);
      expect(await closing.evaluate((p) => p.closest("li") === null && p.previousElementSibling?.tagName)).toBe("UL");

      // A subagent's turn, its steps opened: readable labels, the subagent by its task.
      await turn(page, id, "delegate listing my notes to a subagent", 2);
      await openGroups(page);
      const card = page.locator("[data-role=tool][data-tool=delegate]");
      await card.waitFor();
      await card.locator("[data-testid=subagent-toggle]").click();
      const listed = card.locator("[data-testid=subagent-tool][data-tool=vault_list]");
      expect(await listed.innerText()).toMatch(/^List notes/);
      const event = page.locator("[data-testid=pod-event]");
      expect(await event.innerText()).toMatch(
        /^\s*The subagent finished “Look through the vault and list the notes\.”$/,
      );
      // The answer's Details: how it ended in words, not its codes.
      await page.locator("[data-testid=message-details-toggle]").last().click();
      expect(await page.locator("[data-testid=message-details]").last().innerText()).toMatch(/Answered · 2 steps/);

      const shown = await shownText(page);
      expect(shown).toContain("Subagent");
      expect(shown).not.toMatch(/vault_|task_list|subagent-[0-9a-f]{8}|phase final|ended: |request_input/);
    });
  }
}, 120_000);
