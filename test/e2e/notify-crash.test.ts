// A notify answered 202 survives the process dying (docs/protocol.md "Conversations"): `wrangler dev` is
// SIGKILLed while a turn runs, right after a notify was accepted and before any injection point
// could deliver it; after a restart on the same state it is delivered exactly once.
import { afterAll, describe, expect, it } from "vitest";
import { marker, modelRequests, scriptModel, waitForModelRequests } from "../support/fake-openai-client";
import { openSocket, waitIdle } from "./api-client";
import { type KillableChat, startKillableChat } from "./killable-chat";

describe("a notify accepted just before the process dies", () => {
  let chat: KillableChat | undefined;
  afterAll(() => chat?.close());

  it("is delivered once after the restart, and the model reads it once", async () => {
    chat = await startKillableChat();
    const { llm, id, client } = chat;
    // The turn resumes after the restart and answers with the second step.
    await scriptModel(llm.url, "crash", [{ text: ["Working on it"], hang: true }, { text: "I saw the rollback." }]);

    const socket = await openSocket(client, id);
    socket.send({ type: "chat", content: `long job ${marker("crash")}` });
    await socket.until((f) => f.type === "text_delta");
    const accepted = await fetch(`${client.origin}/api/conversations/${id}/notify`, {
      method: "POST",
      headers: client.headers,
      body: JSON.stringify({ message: "Deploy 9 was rolled back" }),
    });
    expect(accepted.status).toBe(202);

    const restarted = await chat.killAndRestart();
    const again = await openSocket(restarted, id);
    // The resumed turn's next request carries the trigger; it ends normally.
    await waitForModelRequests(llm.url, "crash", (r) => r.length >= 2 && r.at(-1)?.completed === true, 20_000);
    const externals = async () =>
      ((await restarted.messages(id)) as { role: string; source?: string; item?: { body: string } }[]).filter(
        (m) => m.role === "system" && m.source === "External",
      );
    const delivered = await externals();
    expect(delivered).toHaveLength(1);
    expect(delivered[0]?.item?.body).toContain("Deploy 9 was rolled back");

    await scriptModel(llm.url, "crash", [{ text: "Nothing else." }]);
    await waitIdle(restarted, id);
    const from = again.frames.length;
    again.send({ type: "chat", content: `anything new? ${marker("crash")}` });
    const done = await again.until((f) => f.type === "response_complete", { from });
    expect(done).toMatchObject({ termination_reason: "completed" });
    const last = (await modelRequests(llm.url, "crash")).at(-1);
    const sent = (last?.body.messages ?? []) as { role: string; content: unknown }[];
    expect(sent.filter((m) => JSON.stringify(m.content).includes("Deploy 9 was rolled back"))).toHaveLength(1);
    expect(await externals()).toHaveLength(1);
    again.ws.close();
    socket.ws.close();
  });
});
