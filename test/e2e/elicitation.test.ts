// MCP elicitation in a real browser (issue 40), on a desktop and on a phone: a real MCP server
// (test/support/mcp-elicit-server.ts) asks during its tool call. Form mode: the card shows the server's
// message (its forged reminder defused, as text) and the fields with their defaults; Send with a
// required field empty says so on the card; the filled form reaches the server with the defaults. URL
// mode: the card names the link's host, nothing opens until the user clicks, and the click opens the
// link in a new tab. Afterwards the tool's card says in words what was asked and answered.
import type { Page } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import { marker, scriptModel } from "../support/fake-openai-client";
import { DEFAULT_LINK, elicitAnswers } from "../support/mcp-elicit-calls";
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
let server: ElicitServer;

beforeAll(async () => {
  server = await startElicitServer();
});
afterAll(async () => {
  await server?.close();
});

const card = (page: Page, mode: "form" | "url") => page.locator(`[data-testid=elicitation-card][data-mode=${mode}]`);
const sideways = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);

async function addServer(page: Page): Promise<void> {
  const added = await apiFromPage<{ id: string }>(page, "POST", "/api/mcp-servers", { name: "trips", url: server.url });
  expect(added.status).toBe(201);
  const allowed = await apiFromPage(page, "PUT", "/api/tool-approvals", {
    tool: `mcp:${added.body.id}:*`,
    mode: "allow",
  });
  expect(allowed.status).toBe(200);
}

for (const viewport of DESKTOP_AND_PHONE) {
  it(`answers a server's form and opens its link only on a click (${viewport.name})`, async () => {
    await asNewUser(live, `elicitation-${viewport.name}`, viewportOptions(viewport), async (page) => {
      // The link's site, served here: the tests never reach the internet.
      await page
        .context()
        .route(`${new URL(DEFAULT_LINK).origin}/**`, (route) =>
          route.fulfill({ status: 200, contentType: "text/html", body: "<title>Calendar sign-in</title>signed in" }),
        );
      await addServer(page);
      const key = `elicit-${viewport.name}`;
      await scriptModel(live.llm.url, key, [
        { tool_calls: [{ name: "trips__ask_form", arguments: {} }] },
        { text: "Your trip to Lyon is planned." },
        { tool_calls: [{ name: "trips__ask_url", arguments: {} }] },
        { text: "Your calendar is connecting." },
      ]);
      const id = await newConversationInBrowser(page);
      const before = (await elicitAnswers(server.url)).length;

      await sendChat(page, `Plan a trip ${marker(key)}`);
      const form = card(page, "form");
      await form.waitFor({ timeout: 15_000 });
      expect(await form.getByTestId("elicitation-message").textContent()).toMatch(/^Where should the trip go\?/);
      expect(await form.textContent()).not.toContain("<system-reminder>");
      expect(await page.locator("[data-testid=working-indicator]").textContent()).toContain("Waiting for your answer");
      // The fields, with the server's defaults filled in.
      expect(await form.locator("[data-field=city]").inputValue()).toBe("");
      expect(await form.locator("[data-field=units]").inputValue()).toBe("metric");
      expect(await form.locator("[data-field=days]").inputValue()).toBe("3");
      expect(await form.locator("[data-field=alerts]").isChecked()).toBe(false);
      expect(await sideways(page)).toBe(false);

      await form.getByTestId("elicitation-accept").click();
      expect(await form.getByTestId("elicitation-problem").textContent()).toBe("City is required");
      await form.locator("[data-field=city]").fill("Lyon");
      await form.locator("[data-field=days]").fill("5");
      await form.getByTestId("elicitation-accept").click();
      await form.waitFor({ state: "detached" });
      await waitTurnEnded(page, id);
      await page.locator("[data-role=agent]", { hasText: "Your trip to Lyon is planned." }).waitFor();
      expect((await elicitAnswers(server.url)).slice(before)).toEqual([
        {
          tool: "ask_form",
          result: { action: "accept", content: { city: "Lyon", units: "metric", days: 5, alerts: false } },
        },
      ]);

      // URL mode: nothing opens by itself; the click opens the link in a new tab.
      const opened: string[] = [];
      page.context().on("page", (p) => opened.push(p.url()));
      await sendChat(page, `Connect my calendar ${marker(key)}`);
      const link = card(page, "url");
      await link.waitFor({ timeout: 15_000 });
      expect(await link.getByTestId("elicitation-url").textContent()).toBe(DEFAULT_LINK);
      expect(await link.textContent()).toContain("It asks you to open auth.example.com");
      expect(await link.getByTestId("elicitation-accept").textContent()).toBe("Open link");
      expect(opened).toEqual([]);
      const popup = page.context().waitForEvent("page");
      await link.getByTestId("elicitation-accept").click();
      const tab = await popup;
      await tab.waitForLoadState();
      expect(tab.url()).toBe(DEFAULT_LINK);
      // Opened without a way back to the app's window.
      expect(await tab.evaluate(() => window.opener)).toBeNull();
      await waitTurnEnded(page, id);
      expect((await elicitAnswers(server.url)).slice(before + 1)).toEqual([
        { tool: "ask_url", result: { action: "accept" } },
      ]);

      // Afterwards, in words: each tool card says what was asked and answered.
      const folded = page.locator("[data-testid=turn-group][data-expanded=false] > button");
      while ((await folded.count()) > 0) await folded.first().click();
      const asked = page.getByTestId("tool-elicitations");
      await asked.first().waitFor({ state: "attached" });
      // The cards start folded to one line, which says "asked you"; opened, they say what.
      expect(await page.getByTestId("tool-elicited").count()).toBe(2);
      for (const summary of await page.locator("details:has([data-testid=tool-elicited]) > summary").all())
        await summary.click();
      await asked.last().waitFor();
      const words = (await asked.allTextContents()).join("\n");
      expect(words).toContain("trips asked: “Where should the trip go?");
      expect(words).toContain("you answered: City: Lyon; Units: metric; Days: 5; Weather alerts: no");
      expect(words).toContain(`(${DEFAULT_LINK}) — you opened the link`);
      expect(await sideways(page)).toBe(false);
    });
  }, 120_000);
}
