// What the user sees of a restart during a turn (issue 29), in a real browser on a phone: `wrangler dev`
// is SIGKILLed while the answer streams and started again on the same port and storage, as a deploy
// does. The open page reconnects by itself, says "Resuming after a restart…", and the answer arrives
// once; what the user typed while the app was down is still in the box.
import { expect, it } from "vitest";
import { marker, scriptModel } from "../support/fake-openai-client";
import {
  fakeModelAppForFile,
  fakeModelEnv,
  leaveEvidence,
  newConversationInBrowser,
  sendChat,
  signUpInBrowser,
  startApp,
  waitTurnEnded,
} from "./harness.ts";

// The file's own app: the test kills it.
// On wrangler's port: the restart takes the same port, so the open page's origin is the app again.
const live = fakeModelAppForFile({}, { direct: false });

it("reconnects by itself, says it is resuming, shows the answer once and keeps the draft", async () => {
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
    const id = await newConversationInBrowser(page);
    // The resumed call waits 10 s before its first byte: the page reconnects with backoff (0.5, 1, 2,
    // 4 s…), and the resuming status must still be there to be seen.
    await scriptModel(live.llm.url, "r-browser", [
      { text: ["Half an answer"], hang: true },
      { text: "The whole answer, once.", delay_ms: 10_000 },
    ]);
    await sendChat(page, `Tell me ${marker("r-browser")}`);
    await page.locator("[data-testid=streaming]", { hasText: "Half an answer" }).waitFor({ timeout: 15_000 });

    const port = Number(new URL(live.app.url).port);
    await live.app.kill();
    const chat = page.locator(`[data-testid=chat][data-conversation-id=${JSON.stringify(id)}]`);
    await chat
      .locator("[data-testid=connection-status]:not([data-status=connected])")
      .waitFor({ state: "attached", timeout: 15_000 });
    // Typed while the app is down: kept.
    await page.locator("[data-testid=composer-input]").fill("and one more thing");

    live.app = await startApp({ env: fakeModelEnv(live.llm), persistTo: live.app.persistDir, port });
    const status = page.locator("[data-testid=working-indicator][data-kind=resuming]");
    await status.waitFor({ timeout: 30_000 });
    expect(await status.textContent()).toContain("Resuming after a restart…");

    await waitTurnEnded(page, id, 30_000);
    const answers = page.locator("[data-role=agent]", { hasText: "The whole answer, once." });
    await answers.first().waitFor({ timeout: 15_000 });
    expect(await answers.count()).toBe(1);
    expect(await page.locator("[data-role=user]", { hasText: "Tell me" }).count()).toBe(1);
    expect(await page.locator("[data-testid=interrupt-banner]").count()).toBe(1);
    expect(await page.locator("[data-testid=composer-input]").inputValue()).toBe("and one more thing");
    expect(errors).toEqual([]);
  } catch (error) {
    await leaveEvidence(page, live.app, "recovery-browser", errors);
    throw error;
  } finally {
    await context.close();
  }
}, 120_000);
