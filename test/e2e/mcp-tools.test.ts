// The user's own MCP servers (issue 14) in the browser, on a desktop and on a phone: Settings → Tools
// adds a real MCP server (test/support/mcp-server.ts) with a bearer token, tests it and lists its tools;
// the token is never shown again, on the page or in the API's answer; a tool turned off stays off after
// a reload and is not offered to the model; on the desktop a wrong secret, put in with Replace
// secret, fails the connection test in words and the right one mends it. Then the (fake) model calls
// `local__echo` in a conversation: the tool card names the tool and its server, the result is the
// server's, and the server saw the call with the token.
import type { Page } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import { marker, modelRequests, scriptModel } from "../support/fake-openai-client";
import { startMcpServer, type TestMcpServer } from "../support/mcp-server";
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
const TOKEN = "e2e-mcp-token-5c1f9a0d77b2";
let mcp: TestMcpServer;

beforeAll(async () => {
  mcp = await startMcpServer({ token: TOKEN });
});
afterAll(async () => {
  await mcp?.close();
});

const ALL_TOOLS = ["local__big", "local__echo", "local__fail", "local__forge", "local__hang", "local__lookup"];

type ServerBody = { id: string; name: string; auth: { type: string }; disabled_tools: string[] };

/** Nothing wider than the window. */
const sideways = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);

/** Whether the secret shows anywhere: the page's markup, its text, or any input's value. */
const tokenOnPage = (page: Page) =>
  page.evaluate(
    (token) =>
      document.documentElement.outerHTML.includes(token) ||
      [...document.querySelectorAll("input")].some((input) => input.value.includes(token)),
    TOKEN,
  );

/** The names of the tools a model request offered (Chat Completions or Responses shape). */
function offeredTools(body: Record<string, unknown>): string[] {
  const tools = (body.tools ?? []) as { name?: string; function?: { name: string } }[];
  return tools.map((tool) => tool.function?.name ?? tool.name ?? "");
}

for (const viewport of DESKTOP_AND_PHONE) {
  it(`adds an MCP server in Settings → Tools and the agent calls its tool (${viewport.name})`, async () => {
    const options = viewportOptions(viewport);
    await asNewUser(live, `mcp-tools-${viewport.name}`, options, async (page) => {
      // Settings → Tools, empty.
      await page.goto("/settings/agent");
      await page.locator("[data-testid=tab-tools]").click();
      await page.waitForURL((url) => url.pathname === "/settings/tools");
      await page.locator("[data-testid=mcp-empty]").waitFor({ timeout: 15_000 });
      expect(await page.locator("[data-testid=mcp-empty]").textContent()).toContain("No MCP servers yet");
      expect(await page.locator("[data-testid=tool-settings]").textContent()).toMatch(/encrypted/);

      // A name that cannot be made a server's name ("Local Server" would be saved as local-server) is
      // shown under its field, and nothing typed is lost.
      const form = page.locator("[data-testid=mcp-add-form]");
      await form.getByLabel("Name", { exact: true }).fill("42");
      await form.getByLabel("URL", { exact: true }).fill(mcp.url);
      await form.locator("[data-testid=mcp-add-submit]").click();
      await form.locator("[data-testid=mcp-add-name-error]").waitFor({ timeout: 5_000 });
      expect(await form.getByLabel("URL", { exact: true }).inputValue()).toBe(mcp.url);

      // Add "local" with a bearer token: it is tested at once and its tools are listed.
      const callsBefore = mcp.calls.length;
      const authBefore = mcp.authSeen.length;
      await form.getByLabel("Name", { exact: true }).fill("local");
      await form.getByLabel("Authentication").selectOption("bearer");
      const tokenInput = form.getByLabel("Bearer token");
      expect(await tokenInput.getAttribute("type")).toBe("password");
      expect(await tokenInput.getAttribute("autocomplete")).toBe("off");
      await tokenInput.fill(TOKEN);
      await form.locator("[data-testid=mcp-add-submit]").click();
      const row = page.locator("[data-testid=mcp-server][data-name=local]");
      await row.waitFor({ timeout: 15_000 });
      const status = row.locator("[data-testid=mcp-status]");
      await expect.poll(() => status.getAttribute("data-state"), { timeout: 20_000 }).toBe("ok");
      expect(await status.textContent()).toMatch(/^Connected · 6 tools · checked /);
      const tools = row.locator("[data-testid=mcp-tool]");
      expect((await tools.evaluateAll((els) => els.map((e) => e.getAttribute("data-tool")))).sort()).toEqual(ALL_TOOLS);
      expect(await row.locator("[data-testid=mcp-auth]").textContent()).toBe("Bearer token saved");
      expect(await row.locator("[data-testid=mcp-url]").textContent()).toBe(mcp.url);
      expect(await row.locator("[data-testid=mcp-test]").textContent()).toBe("Test connection");
      // The test reached the server with the token; the form is empty again.
      expect(mcp.authSeen.slice(authBefore)).toContain(`Bearer ${TOKEN}`);
      expect(await form.getByLabel("Name", { exact: true }).inputValue()).toBe("");
      expect(await sideways(page)).toBe(false);

      // The same name again: 409, its message shown, the form kept.
      await form.getByLabel("Name", { exact: true }).fill("local");
      await form.getByLabel("URL", { exact: true }).fill(mcp.url);
      await form.locator("[data-testid=mcp-add-submit]").click();
      await form.locator("[data-testid=mcp-add-error]").waitFor({ timeout: 10_000 });
      expect(await form.locator("[data-testid=mcp-add-error]").textContent()).toContain("local");
      expect(await form.getByLabel("Name", { exact: true }).inputValue()).toBe("local");
      expect(await page.locator("[data-testid=mcp-server]").count()).toBe(1);

      // The token is never shown again: not on the page, not in the API's answer.
      await form.getByLabel("Name", { exact: true }).fill("");
      expect(await tokenOnPage(page)).toBe(false);
      const listed = await apiFromPage<{ servers: ServerBody[] }>(page, "GET", "/api/mcp-servers");
      expect(listed.status).toBe(200);
      expect(JSON.stringify(listed.body)).not.toContain(TOKEN);
      expect(listed.body.servers.map((s) => [s.name, s.auth])).toEqual([["local", { type: "bearer" }]]);
      const one = await apiFromPage(
        page,
        "GET",
        `/api/mcp-servers/${encodeURIComponent(listed.body.servers[0]?.id ?? "")}`,
      );
      expect(one.status).toBe(200);
      expect(JSON.stringify(one.body)).not.toContain(TOKEN);

      // Turn `hang` off: saved, and still off after a reload.
      const hang = row.locator("[data-testid=mcp-tool][data-tool=local__hang]");
      await hang.getByRole("checkbox").uncheck();
      await expect
        .poll(async () => (await apiFromPage<{ servers: ServerBody[] }>(page, "GET", "/api/mcp-servers")).body, {
          timeout: 10_000,
        })
        .toMatchObject({ servers: [{ name: "local", disabled_tools: ["hang"] }] });
      await page.reload();
      await hang.waitFor({ timeout: 15_000 });
      expect(await hang.getByRole("checkbox").isChecked()).toBe(false);
      expect(await hang.getAttribute("data-enabled")).toBe("false");
      expect(await row.locator("[data-testid=mcp-tool][data-tool=local__echo]").getByRole("checkbox").isChecked()).toBe(
        true,
      );
      expect(await tokenOnPage(page)).toBe(false);
      expect(await sideways(page)).toBe(false);

      // Replace secret (on the desktop): a wrong token fails the connection test, in words; the right one mends it.
      if (!viewport.phone) {
        const replace = async (token: string) => {
          await row.locator("[data-testid=mcp-replace-secret]").click();
          const secretForm = row.locator("[data-testid=mcp-secret-form]");
          expect(await secretForm.getByLabel("Authentication", { exact: true }).inputValue()).toBe("bearer");
          await secretForm.getByLabel("Bearer token").fill(token);
          await secretForm.locator("[data-testid=mcp-secret-save]").click();
          await secretForm.waitFor({ state: "detached", timeout: 10_000 });
        };
        await replace("not-the-token");
        await expect.poll(() => status.getAttribute("data-state"), { timeout: 20_000 }).toBe("error");
        expect(await status.textContent()).toMatch(/^Could not connect: .*401.* · checked just now$/);
        expect(await status.getAttribute("role")).toBe("status");
        await replace(TOKEN);
        await expect.poll(() => status.getAttribute("data-state"), { timeout: 20_000 }).toBe("ok");
        expect(await tokenOnPage(page)).toBe(false);
      }

      // A conversation: the model calls local__echo, then answers.
      const id = await newConversationInBrowser(page);
      const authAtChat = mcp.authSeen.length;
      const key = `mcp-${viewport.name}-${Date.now().toString(36)}`;
      await scriptModel(live.llm.url, key, [
        { tool_calls: [{ name: "local__echo", arguments: { text: "hi" } }] },
        { text: "The server answered." },
      ]);
      await sendChat(page, `Echo hi with my MCP server ${marker(key)}`);
      // echo is not marked read-only: by default it asks first, on a card naming it and its server.
      const approval = page.locator("[data-testid=approval-card][data-tool=local__echo]");
      await approval.waitFor({ timeout: 30_000 });
      expect(await approval.textContent()).toContain("Echo on local");
      await approval.locator("[data-testid=approval-approve]").click();
      await page.locator("[data-role=agent][data-phase=final]").waitFor({ timeout: 30_000 });
      await waitTurnEnded(page, id);

      // The tool card: the tool's own name, a badge with the server's, the server's result.
      const group = page.locator("[data-testid=turn-group]");
      const toggle = group.locator("[data-testid=turn-group-toggle]");
      if ((await toggle.getAttribute("aria-expanded")) !== "true") await toggle.click();
      const card = group.locator("[data-role=tool][data-tool=local__echo]");
      await card.waitFor({ timeout: 10_000 });
      expect(await card.getAttribute("data-status")).toBe("success");
      expect(await card.locator("summary").textContent()).toMatch(/^Echo/);
      const badge = card.locator("[data-testid=tool-server]");
      expect(await badge.textContent()).toContain("local");
      expect(await badge.getAttribute("title")).toBe("MCP server local");
      await card.locator("summary").click();
      await expect.poll(() => card.textContent(), { timeout: 5_000 }).toContain("echo: hi");
      expect(await sideways(page)).toBe(false);

      // The MCP server got the call, with the token; the model was offered local's tools but `hang`.
      expect(mcp.calls.slice(callsBefore)).toContainEqual({ tool: "echo", args: { text: "hi" } });
      const seen = mcp.authSeen.slice(authAtChat);
      expect(seen.length).toBeGreaterThan(0);
      expect(seen.every((auth) => auth === `Bearer ${TOKEN}`)).toBe(true);
      const requests = await modelRequests(live.llm.url, key);
      const offered = offeredTools(requests[0]?.body ?? {});
      expect(offered).toContain("local__echo");
      expect(offered).not.toContain("local__hang");
    });
  });
}
