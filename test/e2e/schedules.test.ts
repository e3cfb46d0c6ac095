// Scheduled runs through the real app: a schedule fires at its time in its own time zone and the open
// tab shows the labelled message and the turn's answer (on the shared fake-model app); a run missed
// while `wrangler dev` was down fires once after the restart (an app of the test's own, killed and
// started again on its storage).
import { afterAll, describe, expect, it } from "vitest";
import { wallTime } from "../../protocol/schedules";
import { startFakeOpenAI } from "../support/fake-openai";
import { marker, scriptModel } from "../support/fake-openai-client";
import { clientFor, signUp, waitIdle } from "./api-client";
import {
  apiFromPage,
  asNewUser,
  fakeModelEnv,
  newConversationInBrowser,
  startApp,
  useSharedFakeModelApp,
} from "./harness";

const shared = useSharedFakeModelApp();
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("schedules", () => {
  it("fires at its time in its zone, and the open tab shows the labelled message and the answer", async () => {
    await asNewUser(shared, "schedule-fires", {}, async (page) => {
      const id = await newConversationInBrowser(page);
      const key = `sched${Date.now().toString(36)}`;
      await scriptModel(shared.llm.url, key, [{ text: "Your scheduled answer is here." }]);
      // A zone 14 hours ahead of UTC, where it is already "tomorrow": the wall time there is honoured.
      const zone = "Pacific/Kiritimati";
      const due = new Date(Date.now() + 8_000);
      const local = `${wallTime(due.toISOString(), zone).replace(" ", "T")}:${String(due.getUTCSeconds()).padStart(2, "0")}`;
      const created = await apiFromPage<{ next_run_at: string }>(page, "POST", "/api/schedules", {
        conversation_id: id,
        name: "Zone check",
        text: `scheduled hello ${marker(key)}`,
        at: local,
        time_zone: zone,
      });
      expect(created.status).toBe(201);
      expect(Math.abs(Date.parse(created.body.next_run_at) - due.getTime())).toBeLessThan(1000);

      const label = page.locator("[data-testid=scheduled-label]");
      await label.waitFor({ timeout: 30_000 });
      expect(await label.textContent()).toContain("Scheduled · Zone check");
      expect(Date.now()).toBeGreaterThanOrEqual(due.getTime() - 1000);
      await page.getByText("Your scheduled answer is here.").waitFor({ timeout: 30_000 });

      // The Schedules page lists it as run.
      await page.goto("/schedules");
      const row = page.locator("[data-testid=schedule-item]");
      await row.waitFor();
      expect(await row.locator("[data-testid=schedule-rule]").textContent()).toContain("(Pacific/Kiritimati)");
      expect(await row.locator("[data-testid=schedule-next]").textContent()).toBe("No more runs");
    });
  });
});

describe("a run missed while the app was down", () => {
  const cleanup: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const step of cleanup.reverse()) await step();
  });

  it("fires once after the restart", async () => {
    const llm = await startFakeOpenAI();
    cleanup.push(() => llm.close());
    const env = fakeModelEnv(llm);
    let app = await startApp({ env, direct: true });
    cleanup.push(() => app.stop());
    const client = await signUp(app.url);
    const id = await client.createConversation();
    const key = `missed${Date.now().toString(36)}`;
    await scriptModel(llm.url, key, [{ text: "Caught up after the restart." }, { text: "ran twice" }]);
    const due = new Date(Date.now() + 3_000);
    const res = await fetch(`${app.url}/api/schedules`, {
      method: "POST",
      headers: client.headers,
      body: JSON.stringify({
        conversation_id: id,
        name: "Missed",
        text: `while down ${marker(key)}`,
        at: due.toISOString(),
      }),
    });
    expect(res.status).toBe(201);

    await app.kill();
    // Down until the run is due (the restart takes seconds more).
    await sleep(Math.max(0, due.getTime() - Date.now()) + 250);
    app = await startApp({ env, persistTo: app.persistDir, direct: true });
    const again = clientFor(app.url, client.cookie);

    const deadline = Date.now() + 30_000;
    let scheduled: unknown[] = [];
    while (Date.now() < deadline) {
      scheduled = (await again.messages(id)).filter((m) => m.role === "user" && m.origin);
      if (scheduled.length) break;
      await sleep(250);
    }
    expect(scheduled).toHaveLength(1);
    await waitIdle(again, id);
    await sleep(1_500);
    const messages = await again.messages(id);
    expect(messages.filter((m) => m.role === "user")).toHaveLength(1);
    expect(messages.filter((m) => m.role === "agent").at(-1)).toMatchObject({
      content: "Caught up after the restart.",
    });
  });
});
