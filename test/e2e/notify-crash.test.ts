// A notify answered 202 survives the process dying (PROTOCOL.md "Conversations"): `wrangler dev` is
// SIGKILLed while a turn runs, right after a notify was accepted and before any injection point
// could deliver it; after a restart on the same state it is delivered exactly once.
import { afterAll, describe, expect, it } from "vitest";
import { startFakeOpenAI } from "../support/fake-openai";
import { marker, modelRequests, scriptModel } from "../support/fake-openai-client";
import { openSocket, signUp } from "./api-client";
import { type App, startApp } from "./harness";

describe("a notify accepted just before the process dies", () => {
  const cleanup: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const c of cleanup.reverse()) await c();
  });

  it("is delivered once after the restart, and the model reads it once", async () => {
    const llm = await startFakeOpenAI();
    cleanup.push(() => llm.close());
    const env = { OPENAI_API_KEY: "test", OPENAI_BASE_URL: `${llm.url}/v1`, OPENAI_MODEL: "fake" };
    let app: App = await startApp({ env });
    const client = await signUp(app.url);
    const id = await client.createConversation();
    await scriptModel(llm.url, "crash", [{ text: ["Working on it"], hang: true }]);

    const socket = await openSocket(client, id);
    socket.send({ type: "chat", content: `long job ${marker("crash")}` });
    await socket.until((f) => f.type === "text_delta");
    const accepted = await fetch(`${app.url}/api/conversations/${id}/notify`, {
      method: "POST",
      headers: client.headers,
      body: JSON.stringify({ message: "Deploy 9 was rolled back" }),
    });
    expect(accepted.status).toBe(202);
    await app.kill();

    app = await startApp({ env, persistTo: app.persistDir });
    cleanup.push(() => app.stop());
    const restarted = { origin: app.url, headers: { ...client.headers, origin: app.url } };
    const again = await openSocket(restarted, id);
    expect(again.frames[0]).toMatchObject({ type: "hello", running: false });
    const externals = async () => {
      const res = await fetch(`${app.url}/api/conversations/${id}/messages`, { headers: { cookie: client.cookie } });
      const { messages } = (await res.json()) as {
        messages: { role: string; source?: string; item?: { body: string } }[];
      };
      return messages.filter((m) => m.role === "system" && m.source === "External");
    };
    const delivered = await externals();
    expect(delivered).toHaveLength(1);
    expect(delivered[0]?.item?.body).toContain("Deploy 9 was rolled back");

    await scriptModel(llm.url, "crash", [{ text: "I saw the rollback." }]);
    again.send({ type: "chat", content: `anything new? ${marker("crash")}` });
    const done = await again.until((f) => f.type === "response_complete");
    expect(done).toMatchObject({ termination_reason: "completed" });
    const last = (await modelRequests(llm.url, "crash")).at(-1);
    const sent = (last?.body.messages ?? []) as { role: string; content: unknown }[];
    expect(sent.filter((m) => JSON.stringify(m.content).includes("Deploy 9 was rolled back"))).toHaveLength(1);
    expect(await externals()).toHaveLength(1);
    again.ws.close();
    socket.ws.close();
  });
});
