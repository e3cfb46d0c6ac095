// Issue 41, item 1: a message sent while the connection is down is never lost and never sent twice. With
// the browser offline and the socket dropped, Send shows the message at once as the user's bubble marked
// "Not sent yet" (Edit takes one back into the box); it survives a reload; when the socket is back it
// goes out by itself, once, and the banner says the connection is back. Then a message whose reply is
// lost with the socket (the server has it, the page never heard) is sent again after a reload (Retry)
// and the server answers `chat_duplicate`: the conversation holds it once, answered once. One test per
// viewport: 1280×800, and 390×844 with touch.
import type { Page, WebSocketRoute } from "playwright-core";
import { describe, expect, it } from "vitest";
import type { Message } from "../../protocol";
import {
  apiFromPage,
  DESKTOP_AND_PHONE,
  newConversationInBrowser,
  signUpInBrowser,
  useSharedApp,
  viewportOptions,
  withPage,
} from "./harness.ts";

const live = useSharedApp();

/** The page's sockets as the test holds them: cut (refused), or replies swallowed; what went each way. */
type Network = {
  down: boolean;
  swallow: boolean;
  sockets: WebSocketRoute[];
  chats: { content: string; client_id?: string }[];
  received: { type: string; client_id?: string }[];
};

async function routeSockets(page: Page): Promise<Network> {
  const net: Network = { down: false, swallow: false, sockets: [], chats: [], received: [] };
  await page.routeWebSocket(/\/ws$/, (ws) => {
    if (net.down) return void ws.close({ code: 1012, reason: "network cut" });
    const server = ws.connectToServer();
    net.sockets.push(ws);
    ws.onMessage((message) => {
      const frame = JSON.parse(String(message));
      if (frame.type === "chat") net.chats.push(frame);
      server.send(message);
    });
    server.onMessage((message) => {
      if (net.swallow) return;
      net.received.push(JSON.parse(String(message)));
      ws.send(message);
    });
  });
  return net;
}

async function cut(net: Network): Promise<void> {
  net.down = true;
  for (const ws of net.sockets.splice(0)) await ws.close({ code: 1012, reason: "network cut" });
}

/** The conversation as the server holds it (every branch): the user messages with `text`, and the answers. */
async function stored(page: Page, id: string, text: string) {
  const { body } = await apiFromPage<{ messages: Message[] }>(
    page,
    "GET",
    `/api/conversations/${encodeURIComponent(id)}/messages?view=tree&limit=1000`,
  );
  return {
    sent: body.messages.filter((m) => m.role === "user" && m.content === text).length,
    answers: body.messages.filter((m) => m.role === "agent" && m.phase === "final").length,
  };
}

describe.each(DESKTOP_AND_PHONE)("at $width×$height", (viewport) => {
  it("shows a message sent offline as not sent yet, keeps it across reloads, sends it once when back", async () => {
    await withPage(live, `offline-send-${viewport.name}`, viewportOptions(viewport), async (page) => {
      const net = await routeSockets(page);
      await signUpInBrowser(page);
      const id = await newConversationInBrowser(page);
      const input = page.locator("[data-testid=composer-input]");
      const send = page.locator("[data-testid=send]");
      const pending = page.locator("[data-testid=pending-message]");
      const banner = page.locator("[data-testid=reconnect-banner]");

      // The network goes: the browser is offline and the socket drops.
      await page.context().setOffline(true);
      await cut(net);
      await banner.waitFor({ timeout: 10_000 });
      expect(await banner.textContent()).toContain("Connection lost.");
      expect(await banner.textContent()).toContain("go out by themselves when it is back");

      const first = `Sent while offline ${viewport.name}`;
      await input.fill(first);
      expect(await send.isEnabled()).toBe(true);
      await send.click();
      // At once, in the thread: the user's bubble, marked, the box empty for the next one.
      await pending.waitFor({ timeout: 2_000 });
      expect(await pending.textContent()).toContain(first);
      expect(await pending.locator("[data-testid=pending-note]").textContent()).toBe("Not sent yet");
      expect(await input.inputValue()).toBe("");

      // A reload while it waits (the page loads again, the socket is still cut): it is still there.
      await page.context().setOffline(false);
      await page.reload();
      await pending.waitFor({ timeout: 15_000 });
      expect(await pending.textContent()).toContain(first);
      await banner.waitFor({ timeout: 10_000 });
      expect(await pending.locator("[data-testid=pending-note]").textContent()).toBe("Not sent yet");
      // A second thought, taken back: Edit puts it back in the box and out of the thread.
      await input.fill("Second thought");
      await send.click();
      const second = pending.filter({ hasText: "Second thought" });
      await second.locator("[data-testid=pending-edit]").click();
      await second.waitFor({ state: "detached", timeout: 2_000 });
      expect(await input.inputValue()).toBe("Second thought");
      await input.fill("");

      // The socket is back: it goes out by itself, and the banner says the connection is back.
      net.down = false;
      await page.locator("[data-testid=back-online]").waitFor({ timeout: 15_000 });
      const sent = page.locator("[data-role=user]", { hasText: first });
      await sent.waitFor({ timeout: 15_000 });
      await pending.waitFor({ state: "detached", timeout: 5_000 });
      await expect.poll(() => stored(page, id, first), { timeout: 30_000 }).toEqual({ sent: 1, answers: 1 });
      expect(await sent.count()).toBe(1);
      expect(net.chats.filter((c) => c.content === first)).toHaveLength(1);
      expect(net.chats.some((c) => c.content === "Second thought")).toBe(false);

      // A message whose reply is lost: the server gets it, the page never hears back, the socket drops.
      const text = `Reply lost ${viewport.name}`;
      net.swallow = true;
      await input.fill(text);
      await send.click();
      await expect.poll(() => net.chats.some((c) => c.content === text)).toBe(true);
      await cut(net);
      await expect.poll(async () => (await stored(page, id, text)).sent, { timeout: 15_000 }).toBe(1);
      expect(await pending.locator("[data-testid=pending-note]").textContent()).toBe("Not sent yet");

      // After a reload it is still waiting. Once the page waits seconds between attempts, the socket
      // comes back and Retry sends it again at once: the server has it already (its turn may still run).
      net.swallow = false;
      await page.reload();
      await pending.waitFor({ timeout: 15_000 });
      const reason = page.locator("[data-testid=reconnect-reason]");
      await expect
        .poll(async () => Number(/attempt (\d+)/.exec((await reason.textContent()) ?? "")?.[1] ?? 0), {
          timeout: 10_000,
        })
        .toBeGreaterThanOrEqual(3);
      net.down = false;
      await pending.locator("[data-testid=pending-retry]").click();
      const clientId = net.chats.find((c) => c.content === text)?.client_id;
      expect(clientId).toBeTruthy();
      await expect
        .poll(() => net.received.some((f) => f.type === "chat_duplicate" && f.client_id === clientId), {
          timeout: 15_000,
        })
        .toBe(true);
      expect(net.chats.filter((c) => c.client_id === clientId)).toHaveLength(2);
      await pending.waitFor({ state: "detached", timeout: 5_000 });
      expect(await page.locator("[data-role=user]", { hasText: text }).count()).toBe(1);
      await expect.poll(() => stored(page, id, text), { timeout: 30_000 }).toEqual({ sent: 1, answers: 2 });
    });
  });
});
