// The operator's quota as a user meets it in the browser (docs/protocol.md "Quotas and usage"): an admin
// gives the user 5,000 tokens a day; the fake model reports 1,050 tokens a step, so the 4th step passes
// 80% and the 5th reaches the limit. The chat shows the warning as a System message before the answer
// stops with a note that says when the quota resets; a new message is refused in words before any model
// call and kept as not sent; Settings → Usage shows the day against the quota, used up, with its chart and
// the model's row. At 1280 and 390 px.
import { describe, expect, it } from "vitest";
import { marker, modelRequests, type Step, scriptModel } from "../support/fake-openai-client";
import { asAdmin } from "./api-client.ts";
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
const STEP = { prompt_tokens: 1000, completion_tokens: 50 };
const longTurn = (tag: string): Step[] => [
  ...Array.from({ length: 8 }, (_, i) => ({
    tool_calls: [{ name: "vault_search", arguments: { query: `${tag} ${i}` } }],
    usage: STEP,
  })),
  { text: "never reached", usage: STEP },
];

describe.each(DESKTOP_AND_PHONE)("a quota at $name", (viewport) => {
  it("warns before the limit, ends the answer in words at it, then refuses a new message before any model call", async () => {
    await asNewUser(live, `quota-${viewport.name}`, viewportOptions(viewport), async (page, username) => {
      const me = await apiFromPage<{ user: { id: string } }>(page, "GET", "/api/me");
      const admin = await asAdmin(live.app.url);
      const set = await fetch(`${live.app.url}/api/admin/users/${me.body.user.id}/quota`, {
        method: "PUT",
        headers: admin.headers,
        body: JSON.stringify({ daily_tokens: 5000 }),
      });
      expect(set.status, `quota for ${username}`).toBe(200);
      const key = `quota-${viewport.name}-${Date.now()}`;
      await scriptModel(live.llm.url, key, longTurn(viewport.name));
      const id = await newConversationInBrowser(page);
      await sendChat(page, `Search everything ${marker(key)}`);
      await waitTurnEnded(page, id);
      // The warning came first, as a System message, then the answer's note with the reset time.
      const warning = page.getByText(/80% of today's quota on this server's models is used/).first();
      const stopped = page.getByText(/You have used today's quota of 5,000 tokens on this server's models/).first();
      await expect.poll(() => warning.isVisible()).toBe(true);
      await expect.poll(() => stopped.isVisible()).toBe(true);
      expect(await stopped.textContent()).toMatch(/It resets at 00:00 UTC \(in /);
      const above = await page.evaluate(() => {
        const find = (pattern: RegExp) =>
          [...document.querySelectorAll("main *")].find(
            (el) => el.children.length === 0 && pattern.test(el.textContent ?? ""),
          );
        const a = find(/80% of today's quota/);
        const b = find(/You have used today's quota/);
        return !!a && !!b && (a.compareDocumentPosition(b) & Node.DOCUMENT_POSITION_FOLLOWING) !== 0;
      });
      expect(above).toBe(true);
      expect(await modelRequests(live.llm.url, key)).toHaveLength(5);
      // A new message: refused in words, never sent to the model, kept to send later.
      const refusedKey = `${key}-refused`;
      await scriptModel(live.llm.url, refusedKey, [{ text: "must never be asked" }]);
      await sendChat(page, `One more ${marker(refusedKey)}`);
      await expect
        .poll(
          () =>
            page
              .getByRole("alert")
              .filter({ hasText: /today's quota/ })
              .count(),
          { timeout: 10_000 },
        )
        .toBeGreaterThan(0);
      expect(await modelRequests(live.llm.url, refusedKey)).toHaveLength(0);
      await expect.poll(() => page.getByText(/One more/).count()).toBeGreaterThan(0);
      // Settings → Usage: today against the quota, used up, and the day's bar and row for the model.
      await page.goto("/settings/usage");
      const today = page.locator("[data-testid=usage-day]");
      await expect.poll(() => today.textContent(), { timeout: 10_000 }).toMatch(/5,250 of 5,000 tokens.*Quota used up/);
      await expect.poll(() => page.locator("[data-testid=usage-chart-canvas] canvas").count()).toBe(1);
      expect(await page.locator("[data-testid=usage-by-model] tbody tr").first().textContent()).toMatch(/^m5/);
      const overflow = await page.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      );
      expect(overflow).toBeLessThanOrEqual(0);
    });
  });
});
