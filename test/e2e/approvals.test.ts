// Approval before risky tools (issue 30), in a real browser: a tool set to "Ask first" in Settings →
// Tools pauses the turn on a card with its arguments in readable rows; parallel calls get a card each
// and are decided one by one; a reload keeps the card; Deny reaches the model as the call's result;
// "Always allow" saves the rule. On a phone, the Workers runtime is killed while a card waits and comes
// back on the same storage: the card is back, and Approve runs the call once.
import type { Page } from "playwright-core";
import { expect, it } from "vitest";
import type { ToolApprovals } from "../../protocol";

type Task = { title: string };

import { marker, modelRequests, scriptModel } from "../support/fake-openai-client";
import {
  apiFromPage,
  fakeModelAppForFile,
  leaveEvidence,
  newConversationInBrowser,
  sendChat,
  signUpInBrowser,
  waitTurnEnded,
} from "./harness.ts";

// The file's own app: the second test kills its runtime.
const live = fakeModelAppForFile();

const create = (title: string) => ({ name: "task_create", arguments: { title } });
const card = (page: Page, title: string) => page.locator("[data-testid=approval-card]", { hasText: title });
const taskTitles = async (page: Page) =>
  (await apiFromPage<{ tasks: Task[] }>(page, "GET", "/api/tasks")).body.tasks.map((t) => t.title).sort();

it("asks on a card per call, keeps it across a reload, and runs only what was approved", async () => {
  const context = await live.browser.newContext({
    reducedMotion: "reduce",
    baseURL: live.app.url,
    viewport: { width: 1280, height: 800 },
  });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  try {
    await signUpInBrowser(page);
    // Settings → Tools: task_create asks first (the built-in tools do not by default).
    await page.goto("/settings/tools");
    const select = page.locator("[data-testid=builtin-approval][data-tool=task_create] [data-testid=approval-mode]");
    expect(await select.inputValue()).toBe("allow");
    const saved = page.waitForResponse(
      (r) => r.url().endsWith("/api/tool-approvals") && r.request().method() === "PUT",
    );
    await select.selectOption("ask");
    expect((await saved).status()).toBe(200);

    const id = await newConversationInBrowser(page);
    await scriptModel(live.llm.url, "ap-1", [
      { tool_calls: [create("Buy milk"), create("Sell the car")] },
      { tool_calls: [create("Water the plants")] },
      { text: "Milk and plants are on your list; I left the car alone." },
    ]);
    await sendChat(page, `Plan my week ${marker("ap-1")}`);
    const milk = card(page, "Buy milk");
    const car = card(page, "Sell the car");
    await milk.waitFor({ timeout: 15_000 });
    await car.waitFor();
    // Readable arguments: a "Title" row with the text as written.
    expect(await milk.locator("[data-testid=approval-args] dt").allTextContents()).toEqual(["Title"]);
    expect(await milk.locator("[data-testid=approval-args] dd").allTextContents()).toEqual(["Buy milk"]);
    expect(await page.locator("[data-testid=working-indicator]").textContent()).toContain("Waiting for your approval");

    await car.locator("[data-testid=approval-deny]").click();
    await car.waitFor({ state: "detached" });
    // A reload while the other card waits: it is still there, from hello.
    await page.reload();
    await milk.waitFor({ timeout: 15_000 });
    expect(await page.locator("[data-testid=approval-card]").count()).toBe(1);
    await milk.locator("[data-testid=approval-always]").check();
    await milk.locator("[data-testid=approval-approve]").click();

    await waitTurnEnded(page, id);
    await page.locator("[data-role=agent]", { hasText: "I left the car alone" }).waitFor();
    // "Always allow" held for the next step's call: no third card.
    expect(await taskTitles(page)).toEqual(["Buy milk", "Water the plants"]);
    // The folded steps, opened: each card says how its call was decided.
    await page.locator("[data-testid=turn-group][data-expanded=false] > button").click();
    await page.locator("[data-testid=tool-approval]").first().waitFor();
    expect(await page.locator("[data-testid=tool-approval][data-approval=denied]").count()).toBe(1);
    expect(await page.locator("[data-testid=tool-approval][data-approval=approved]").count()).toBe(1);
    const requests = await modelRequests(live.llm.url, "ap-1");
    expect(JSON.stringify(requests[1]?.body.messages)).toContain("The user denied this call of task_create");
    const rules = await apiFromPage<ToolApprovals>(page, "GET", "/api/tool-approvals");
    expect(rules.body.rules).toContainEqual({ tool: "task_create", mode: "allow" });
    expect(errors).toEqual([]);
  } catch (error) {
    await leaveEvidence(page, live.app, "approvals-desktop", errors);
    throw error;
  } finally {
    await context.close();
  }
}, 120_000);

it("on a phone, keeps the card through a restart of the app and runs the call once when approved", async () => {
  const context = await live.browser.newContext({
    reducedMotion: "reduce",
    baseURL: live.app.url,
    viewport: { width: 390, height: 844 },
    isMobile: true,
    hasTouch: true,
  });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  try {
    await signUpInBrowser(page);
    expect((await apiFromPage(page, "PUT", "/api/tool-approvals", { tool: "task_create", mode: "ask" })).status).toBe(
      200,
    );
    const id = await newConversationInBrowser(page);
    await scriptModel(live.llm.url, "ap-2", [
      { tool_calls: [create("Call the bank")] },
      { text: "Added after the restart." },
    ]);
    await sendChat(page, `Remind me ${marker("ap-2")}`);
    const bank = card(page, "Call the bank");
    await bank.waitFor({ timeout: 15_000 });
    // The card and its buttons fit the phone's screen.
    const box = await bank.locator("[data-testid=approval-approve]").boundingBox();
    expect(box && box.y + box.height <= 844 && box.x >= 0 && box.x + box.width <= 390).toBe(true);

    // The page sees the connection drop while the runtime is down.
    await Promise.all([
      page
        .locator("[data-testid=connection-status]:not([data-status=connected])")
        .waitFor({ state: "attached", timeout: 15_000 }),
      live.app.crash(),
    ]);
    await page
      .locator("[data-testid=connection-status][data-status=connected]")
      .waitFor({ state: "attached", timeout: 30_000 });
    await bank.waitFor({ timeout: 30_000 });
    await bank.locator("[data-testid=approval-approve]").click();
    await waitTurnEnded(page, id, 30_000);
    await page.locator("[data-role=agent]", { hasText: "Added after the restart." }).waitFor();
    expect(await taskTitles(page)).toEqual(["Call the bank"]);
    expect(errors).toEqual([]);
  } catch (error) {
    await leaveEvidence(page, live.app, "approvals-phone", errors);
    throw error;
  } finally {
    await context.close();
  }
}, 120_000);
