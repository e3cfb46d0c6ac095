// The forms of issue 41 (items 7 and 9) in the browser, on a desktop and on a phone, on the shared
// demo-model app (the offline demo model answers the chats):
//   - Schedules: the empty list points at the form where it is (below); the conversation defaults to "A
//     new conversation", never silently to an existing one, and the server makes one named after the
//     schedule; the time zone suggests IANA zones and takes a city ("Paris" → Europe/Paris); the demo
//     model understands "remind me on Friday at 9 to …" and schedules it with its tool, saying when.
//   - Settings → Tools and Models: "My Docs" is saved as my-docs (said before saving); a server whose
//     connection test fails is saved switched off, the form says why, and a chat shows no warning card
//     for it; a model added to a provider is saved by Add, without "Save models".
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { type Schedule, wallTime } from "../../protocol/schedules";
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
} from "./harness";

const shared = useSharedApp();
/** Not the machine's zone nor UTC: what the browser says is what the schedules are read in. */
const ZONE = "America/New_York";

const plain = (text: string | null) => (text ?? "").replace(/\s+/g, " ").trim();
const schedules = async (page: Page) =>
  (await apiFromPage<{ schedules: Schedule[] }>(page, "GET", "/api/schedules")).body.schedules;
const conversations = async (page: Page) =>
  (await apiFromPage<{ id: string; title: string }[]>(page, "GET", "/api/conversations")).body;

describe.each(DESKTOP_AND_PHONE)("issue 41's forms on $name", (viewport) => {
  const options = { ...viewportOptions(viewport), locale: "en-US", timezoneId: ZONE };

  it("Schedules: the form's place, a new conversation by default, a city as the zone, and the demo's “remind me on Friday at 9”", async () => {
    await asNewUser(shared, `forms-schedules-${viewport.name}`, options, async (page) => {
      const old = await apiFromPage<{ id: string }>(page, "POST", "/api/conversations", { title: "Old chat" });
      await page.goto("/schedules");
      const form = page.locator("[data-testid=schedule-form]");
      await form.waitFor({ timeout: 15_000 });

      // The empty list says where the form is, and it is there.
      const empty = page.locator("[data-testid=schedules-empty]");
      await empty.waitFor();
      expect(plain(await empty.textContent())).toMatch(/below/);
      expect(plain(await empty.textContent())).not.toMatch(/above/);
      const [emptyBox, formBox] = [await empty.boundingBox(), await form.boundingBox()];
      expect((emptyBox?.y ?? 0) < (formBox?.y ?? 0)).toBe(true);

      // The conversation: a new one unless the user picks one (the existing chat is listed, not chosen).
      const picker = page.locator("[data-testid=schedule-conversation]");
      await picker.locator("option", { hasText: "Old chat" }).waitFor({ state: "attached" });
      expect(await picker.evaluate((s: HTMLSelectElement) => s.selectedOptions[0]?.textContent)).toBe(
        "A new conversation",
      );

      // The time zone: the browser's by default, IANA zones suggested, a city read as its zone.
      const zone = page.locator("[data-testid=schedule-time-zone]");
      expect(await zone.inputValue()).toBe(ZONE);
      const list = await zone.getAttribute("list");
      expect(await page.locator(`datalist[id="${list}"] option[value="Europe/Paris"]`).count()).toBe(1);
      await page.locator("[data-testid=schedule-name]").fill("Plant care");
      await page.locator("[data-testid=schedule-text]").fill("Water the plants");
      await page.locator("[data-testid=schedule-kind-cron]").check();
      await page.locator("[data-testid=schedule-repeat]").fill("every day at 08:00");
      await zone.fill("Paris");
      expect(plain(await page.locator("[data-testid=schedule-time-zone-resolved]").textContent())).toBe(
        "Saved as Europe/Paris",
      );
      await page.locator("[data-testid=schedule-create]").click();
      const row = page.locator("[data-testid=schedule-item]", { hasText: "Plant care" });
      await row.waitFor({ timeout: 15_000 });
      expect(plain(await page.locator("[data-testid=schedules-status]").textContent())).toBe(
        "✓ Scheduled “Plant care” in a new conversation",
      );
      expect(plain(await row.locator("[data-testid=schedule-rule]").textContent())).toBe(
        "Every day at 08:00 (Europe/Paris)",
      );
      const [plants] = await schedules(page);
      expect(plants).toMatchObject({ time_zone: "Europe/Paris", conversation_title: "Plant care" });
      expect(plants?.conversation_id).not.toBe(old.body.id);
      expect((await conversations(page)).map((c) => c.title).sort()).toEqual(["Old chat", "Plant care"]);
      // The new conversation is offered for the next schedule; the choice stays "A new conversation".
      await picker.locator("option", { hasText: "Plant care" }).waitFor({ state: "attached" });

      // The demo model schedules a reminder with its tool, in the browser's zone, and says when.
      await expect
        .poll(async () => (await apiFromPage(page, "GET", "/api/settings/time-zone")).body)
        .toEqual({ time_zone: ZONE });
      const chat = await newConversationInBrowser(page);
      await sendChat(page, "remind me on Friday at 9 to call the bank");
      const answer = page.locator("[data-role=agent][data-phase=final]");
      await answer.waitFor({ timeout: 30_000 });
      await waitTurnEnded(page, chat);
      const bank = (await schedules(page)).find((s) => s.conversation_id === chat);
      expect(bank).toMatchObject({ kind: "once", time_zone: ZONE, text: "Reminder: call the bank" });
      const wall = wallTime(bank?.at ?? "", ZONE);
      expect(wall).toMatch(/ 09:00$/);
      expect(new Date(`${wall.slice(0, 10)}T00:00:00Z`).getUTCDay()).toBe(5);
      expect(plain(await answer.textContent())).toContain(
        `Scheduled: I will post “Reminder: call the bank” in this conversation on Friday ${wall.slice(0, 10)} at 09:00 (${ZONE})`,
      );
    });
  }, 90_000);

  it("Tools and Models: “My Docs” saved as my-docs, a failing server saved off (no warning in chats), Add saves a model", async () => {
    await asNewUser(shared, `forms-settings-${viewport.name}`, options, async (page) => {
      await page.goto("/settings/tools");
      const form = page.locator("[data-testid=mcp-add-form]");
      await form.waitFor({ timeout: 15_000 });
      const name = form.getByLabel("Name", { exact: true });
      await name.fill("My Docs");
      expect(plain(await form.locator("#mcp-add-name-hint").textContent())).toBe("Will be saved as my-docs");
      // Nothing listens there: the connection test fails.
      await form.getByLabel("URL", { exact: true }).fill(`http://127.0.0.1:${await freePort()}/mcp`);
      await form.locator("[data-testid=mcp-add-submit]").click();
      const added = form.locator("[data-testid=mcp-added]", { hasText: "switched off" });
      await added.waitFor({ timeout: 20_000 });
      expect(plain(await added.textContent())).toMatch(
        /^Added my-docs, switched off: the connection test failed \(.+\)\. It is switched on once Test connection works\.$/,
      );
      const row = page.locator("[data-testid=mcp-server][data-name=my-docs]");
      expect(await row.getAttribute("data-enabled")).toBe("false");
      expect(await row.locator("[data-testid=mcp-enabled]").isChecked()).toBe(false);
      expect(await row.locator("[data-testid=mcp-status]").getAttribute("data-state")).toBe("error");
      const servers = await apiFromPage<{ servers: { name: string; enabled: boolean }[] }>(
        page,
        "GET",
        "/api/mcp-servers",
      );
      expect(servers.body.servers).toEqual([expect.objectContaining({ name: "my-docs", enabled: false })]);

      // A chat: the server that does not work is off, so no card warns about it.
      const chat = await newConversationInBrowser(page);
      await sendChat(page, "hello");
      await page.locator("[data-role=agent][data-phase=final]").waitFor({ timeout: 30_000 });
      await waitTurnEnded(page, chat);
      expect(await page.locator("[data-role=system]").count()).toBe(0);

      // Models: Add saves the model; there is nothing left for "Save models" to do.
      const provider = await apiFromPage<{ id: string }>(page, "POST", "/api/providers", {
        name: "Local LLM",
        base_url: `http://127.0.0.1:${await freePort()}/v1`,
        style: "chat",
        models: [{ id: "first-model", context_window: 8192 }],
      });
      expect(provider.status).toBe(201);
      await page.goto("/settings/models");
      const models = page.locator(`[data-testid=provider][data-name="Local LLM"]`);
      await models.waitFor({ timeout: 15_000 });
      await models.locator("[data-testid=provider-add-model]").fill("second-model");
      await models.locator("[data-testid=provider-add-model-button]").click();
      await models.locator("[data-testid=provider-models-status]", { hasText: "Saved." }).waitFor({ timeout: 10_000 });
      expect(await models.locator("[data-testid=provider-models-save]").isDisabled()).toBe(true);
      const saved = await apiFromPage<{ models: { id: string }[] }>(page, "GET", `/api/providers/${provider.body.id}`);
      expect(saved.body.models.map((m) => m.id)).toEqual(["first-model", "second-model"]);
      await page.reload();
      await models.locator("[data-testid=provider-model][data-model=second-model]").waitFor({ timeout: 15_000 });
    });
  }, 90_000);
});
