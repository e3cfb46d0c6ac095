// What one can do with messages and how the chat behaves around them (issue 13): Regenerate and
// Edit & send make new versions (issue 27: the old ones stay, one ‹ › away), Copy puts a message on the
// clipboard, messages show their time, Esc stops a running turn, the composer gets the focus back
// after Stop and after an answer, a pending question survives a reload with its deadline, a dropped
// socket shows a reconnect banner with Send disabled, "Jump to latest" appears for a reader who
// scrolled up, and the home page's first message is sent once the chat connects. Fake OpenAI model.
import type { Page, WebSocketRoute } from "playwright-core";
import { expect, it } from "vitest";
import { marker, scriptModel } from "../support/fake-openai-client";
import {
  apiFromPage,
  asNewUser,
  newConversationInBrowser,
  type PageOptions,
  sendChat,
  signUpInBrowser,
  useSharedFakeModelApp,
  waitTurnEnded,
  withPage,
} from "./harness.ts";

const live = useSharedFakeModelApp();

const PAGE: PageOptions = { viewport: { width: 1200, height: 800 }, clipboard: true };

type Row = { role: string; content?: string; phase?: string };
/** The conversation's current path, or with `tree` every version's messages. */
async function messages(page: Page, id: string, view: "path" | "tree" = "path"): Promise<Row[]> {
  const res = await apiFromPage<{ messages: Row[] }>(page, "GET", `/api/conversations/${id}/messages?view=${view}`);
  expect(res.status).toBe(200);
  return res.body.messages;
}

const focusedTestId = (page: Page) => page.evaluate(() => document.activeElement?.getAttribute("data-testid") ?? "");
const finals = (page: Page) => page.locator("[data-role=agent][data-phase=final]");

it("regenerates the answer and edits-and-resends the question as new versions; copies; shows times", async () => {
  await asNewUser(live, "actions-regenerate", PAGE, async (page) => {
    const id = await newConversationInBrowser(page);
    // The chat opens with the composer focused.
    await expect.poll(() => focusedTestId(page)).toBe("composer-input");
    const key = `regen-${Date.now().toString(36)}`;
    await scriptModel(live.llm.url, key, [
      { text: "First answer." },
      { text: "Second answer." },
      { text: "Answer to the edit." },
    ]);
    const question = `Pick a number ${marker(key)}`;
    await sendChat(page, question);
    await finals(page).first().waitFor({ timeout: 30_000 });
    await waitTurnEnded(page, id);
    // After sending and after the answer, the focus is in the composer.
    await expect.poll(() => focusedTestId(page), { timeout: 5_000 }).toBe("composer-input");

    // Times: short on screen, the full date in the tooltip.
    const time = page.locator("[data-testid=message-time]").first();
    expect(await time.getAttribute("datetime")).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect((await time.getAttribute("title"))?.length).toBeGreaterThan((await time.textContent())?.length ?? 0);

    // Copy: the answer's text on the clipboard.
    await page.locator("[data-testid=copy-message]").last().click();
    await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe("First answer.");

    // Regenerate: a second version of the answer to the same question, shown in its place; the first
    // stays in the log, one ‹ away. The question is not repeated.
    await page.locator("[data-testid=regenerate]").click();
    await expect.poll(() => finals(page).textContent(), { timeout: 30_000 }).toContain("Second answer.");
    await waitTurnEnded(page, id);
    expect(await finals(page).count()).toBe(1);
    expect(await page.locator("[data-testid=version-count]").textContent()).toContain("Version 2 of 2");
    let log = await messages(page, id);
    expect(log.filter((m) => m.role === "user").map((m) => m.content)).toEqual([question]);
    expect(log.filter((m) => m.phase === "final").map((m) => m.content)).toEqual(["Second answer."]);
    log = await messages(page, id, "tree");
    expect(log.filter((m) => m.role === "user").map((m) => m.content)).toEqual([question]);
    expect(log.filter((m) => m.phase === "final").map((m) => m.content)).toEqual(["First answer.", "Second answer."]);

    // Edit & send the last question: an inline editor; Esc there cancels the edit (and stops nothing).
    await page.locator("[data-testid=edit-message]").click();
    const editor = page.locator("[data-testid=edit-input]");
    expect(await editor.inputValue()).toBe(question);
    await editor.press("Escape");
    await editor.waitFor({ state: "detached" });
    await page.locator("[data-testid=edit-message]").click();
    const edited = `Pick a bigger number ${marker(key)}`;
    await editor.fill(edited);
    await page.locator("[data-testid=edit-save]").click();
    // A second version of the question with its own answer, in the place of the first.
    await expect.poll(() => finals(page).textContent(), { timeout: 30_000 }).toContain("Answer to the edit.");
    await waitTurnEnded(page, id);
    log = await messages(page, id);
    expect(log.filter((m) => m.role === "user").map((m) => m.content)).toEqual([edited]);
    expect(await page.locator("[data-role=user]").count()).toBe(1);
    expect(await finals(page).count()).toBe(1);
    log = await messages(page, id, "tree");
    expect(log.filter((m) => m.role === "user").map((m) => m.content)).toEqual([question, edited]);

    // Copy on a user message.
    await page.locator("[data-testid=copy-message]").first().click();
    await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(edited);
  });
});

it("stops a running turn with Esc and gives the composer the focus back; says so in plain words", async () => {
  await asNewUser(live, "actions-esc", PAGE, async (page) => {
    const id = await newConversationInBrowser(page);
    const key = `esc-${Date.now().toString(36)}`;
    await scriptModel(live.llm.url, key, [{ text: "This answer goes on and on and on", hang: true }]);
    await sendChat(page, `Talk forever ${marker(key)}`);
    await page.locator("[data-testid=streaming]", { hasText: "on and on" }).waitFor({ timeout: 15_000 });
    await expect.poll(() => focusedTestId(page)).toBe("composer-input");
    await page.locator("[data-testid=composer-input]").press("Escape");
    await page.locator("[data-testid=stop]").waitFor({ state: "detached", timeout: 15_000 });
    await waitTurnEnded(page, id);
    const note = page.locator("[data-testid=termination-note]");
    await note.waitFor({ timeout: 10_000 });
    expect(await note.textContent()).toBe("You stopped this answer");
    await expect.poll(() => focusedTestId(page)).toBe("composer-input");
  });
});

it("keeps a pending question and its deadline across a reload, and says it is waiting for the user", async () => {
  await asNewUser(live, "actions-pending", PAGE, async (page) => {
    const id = await newConversationInBrowser(page);
    const key = `ask-${Date.now().toString(36)}`;
    await scriptModel(live.llm.url, key, [
      { tool_calls: [{ name: "request_input", arguments: { question: "Which colour do you like?" } }] },
      { text: "Blue it is." },
    ]);
    await sendChat(page, `Choose for me ${marker(key)}`);
    const banner = page.locator("[data-testid=request-input]");
    await banner.waitFor({ timeout: 15_000 });
    expect(await banner.textContent()).toContain("Which colour do you like?");
    const deadline = banner.locator("[data-testid=request-input-deadline]");
    const before = Date.parse((await deadline.getAttribute("data-deadline")) ?? "");
    expect(before).toBeGreaterThan(Date.now());
    expect(await deadline.textContent()).toMatch(/answer by .+, (about )?\d+ minutes left/);
    await expect
      .poll(() => page.locator("[data-testid=working-indicator]").textContent(), { timeout: 5_000 })
      .toBe("Waiting for your answer");

    await page.reload();
    await banner.waitFor({ timeout: 15_000 });
    expect(await banner.textContent()).toContain("Which colour do you like?");
    const after = Date.parse((await deadline.getAttribute("data-deadline")) ?? "");
    expect(Math.abs(after - before)).toBeLessThan(5_000); // the server's deadline, not a new one
    expect(await page.locator("[data-testid=working-indicator]").textContent()).toBe("Waiting for your answer");

    await page.locator("[data-testid=request-input-answer]").fill("Blue");
    await page.locator("[data-testid=request-input-send]").click();
    await finals(page).first().waitFor({ timeout: 30_000 });
    await waitTurnEnded(page, id);
    expect(await finals(page).first().textContent()).toContain("Blue it is.");
  });
});

it("shows a reconnect banner when the socket drops, keeps typing possible, and Retry now reconnects", async () => {
  await withPage(live, "actions-offline", PAGE, async (page) => {
    let refuse = false;
    const open: WebSocketRoute[] = [];
    await page.routeWebSocket(/\/ws$/, (ws) => {
      if (refuse) {
        void ws.close({ code: 1012, reason: "test restart" });
        return;
      }
      ws.connectToServer();
      open.push(ws);
    });
    await signUpInBrowser(page);
    const id = await newConversationInBrowser(page);
    const key = `offline-${Date.now().toString(36)}`;
    await scriptModel(live.llm.url, key, [{ text: "Connected again." }]);

    refuse = true;
    for (const ws of open.splice(0)) await ws.close({ code: 1012, reason: "test restart" });
    const banner = page.locator("[data-testid=reconnect-banner]");
    await banner.waitFor({ timeout: 10_000 });
    expect(await banner.textContent()).toContain(
      "Messages you send wait here and go out by themselves when it is back",
    );
    expect(await banner.locator("[data-testid=reconnect-reason]").textContent()).toContain("test restart");
    // Retries go on (the attempt count grows) while the server refuses.
    await expect
      .poll(async () => Number(/attempt (\d+)/.exec((await banner.textContent()) ?? "")?.[1] ?? 0), {
        timeout: 10_000,
      })
      .toBeGreaterThan(1);
    // One can type (sending while down: offline-send.test.ts).
    const text = `Are you back? ${marker(key)}`;
    await page.locator("[data-testid=composer-input]").fill(text);
    const send = page.locator("[data-testid=send]");

    refuse = false;
    await banner.locator("[data-testid=reconnect-now]").click();
    await page
      .locator("[data-testid=connection-status][data-status=connected]")
      .waitFor({ state: "attached", timeout: 10_000 });
    await banner.waitFor({ state: "detached", timeout: 5_000 });
    await expect.poll(() => send.isEnabled()).toBe(true);
    await send.click();
    await finals(page).first().waitFor({ timeout: 30_000 });
    await waitTurnEnded(page, id);
    expect(await finals(page).first().textContent()).toContain("Connected again.");
  });
});

it("offers Jump to latest to a reader who scrolls up while an answer comes in", async () => {
  await asNewUser(live, "actions-jump", PAGE, async (page) => {
    const id = await newConversationInBrowser(page);
    const key = `jump-${Date.now().toString(36)}`;
    const long = Array.from({ length: 80 }, (_, i) => `Paragraph ${i + 1} of a long answer.`).join("\n\n");
    await scriptModel(live.llm.url, key, [{ text: long }, { text: "Short second answer.", delay_ms: 1500 }]);
    await sendChat(page, `Write a lot ${marker(key)}`);
    await finals(page).first().waitFor({ timeout: 30_000 });
    await waitTurnEnded(page, id);
    const list = page.locator("[data-testid=message-list]");
    const jump = page.locator("[data-testid=jump-to-latest]");
    expect(await jump.count()).toBe(0);
    // Sending brings the reader to the bottom (chat-view.test.ts); scrolling up while the answer is on
    // its way leaves them there, with the button.
    await sendChat(page, `And more ${marker(key)}`);
    await page.locator("[data-testid=working-indicator]").waitFor({ timeout: 10_000 });
    await list.evaluate((el) => {
      el.scrollTop = 0;
      el.dispatchEvent(new Event("scroll"));
    });
    await jump.waitFor({ timeout: 10_000 });
    expect(await list.evaluate((el) => el.scrollTop)).toBeLessThan(50); // left where the reader was
    await jump.click();
    await expect
      .poll(() => list.evaluate((el) => el.scrollHeight - el.scrollTop - el.clientHeight), { timeout: 5_000 })
      .toBeLessThan(80);
    await expect.poll(() => jump.count()).toBe(0);
    await waitTurnEnded(page, id);
  });
});

it("sends the home page's first message once the new chat connects", async () => {
  await asNewUser(live, "actions-home", PAGE, async (page) => {
    const key = `home-${Date.now().toString(36)}`;
    await scriptModel(live.llm.url, key, [{ text: "Hello from the new chat." }]);
    await page.goto("/");
    const text = `First words ${marker(key)}`;
    await page.locator("[data-testid=home] [data-testid=composer-input]").fill(text);
    await page.locator("[data-testid=home] [data-testid=composer-input]").press("Enter");
    await page.waitForURL((url) => url.pathname.startsWith("/c/"), { timeout: 15_000 });
    const id = decodeURIComponent(new URL(page.url()).pathname.slice("/c/".length));
    await page.locator("[data-role=user]", { hasText: "First words" }).waitFor({ timeout: 15_000 });
    await finals(page).first().waitFor({ timeout: 30_000 });
    await waitTurnEnded(page, id);
    expect((await messages(page, id)).filter((m) => m.role === "user").map((m) => m.content)).toEqual([text]);
  });
});
