// The interrupt after a killed turn (seed 002, issue 5) with recovery turned off (TURN_RECOVERY=off, an
// operator's choice): `wrangler dev` is SIGKILLed while a turn streams, then restarted on the same
// state, and the turn ends there. (Recovery, the default, is test/e2e/recovery.test.ts; open tool calls
// getting a cancelled result is covered in test/workers/interrupt.test.ts.)
import { afterAll, describe, expect, it } from "vitest";
import { marker, scriptModel } from "../support/fake-openai-client";
import { openSocket } from "./api-client";
import { type KillableChat, startKillableChat } from "./killable-chat";

describe("a turn killed with the process, recovery off", () => {
  let chat: KillableChat | undefined;
  afterAll(() => chat?.close());

  it("comes back as an interrupt, never as a running turn, and the conversation goes on", async () => {
    chat = await startKillableChat({ TURN_RECOVERY: "off" });
    const { llm, id, client } = chat;
    // Step 1 lists the vault; step 2 streams a little and hangs: the process dies mid-stream.
    await scriptModel(llm.url, "kill", [
      { text: ["Let me ask."], tool_calls: [{ name: "vault_list", arguments: {} }] },
      { text: ["Thinking"], hang: true },
    ]);

    const first = await openSocket(client, id);
    first.send({ type: "chat", content: `do things ${marker("kill")}` });
    await first.until((f) => f.type === "text_delta" && f.delta === "Thinking");

    const restarted = await chat.killAndRestart();
    const second = await openSocket(restarted, id);
    expect(second.frames[0]).toMatchObject({ type: "hello", running: false });
    const messages = (await restarted.messages(id)) as { role: string; item?: { kind: string } }[];
    expect(messages[0]).toMatchObject({ role: "user" });
    expect(messages.filter((m) => m.role === "system" && m.item?.kind === "interrupt")).toHaveLength(1);

    // The next message is answered normally, with the interrupt in its history.
    await scriptModel(llm.url, "kill", [{ text: "Back again." }]);
    second.send({ type: "chat", content: `still there? ${marker("kill")}` });
    const done = await second.until((f) => f.type === "response_complete");
    expect(done).toMatchObject({ termination_reason: "completed" });
    second.ws.close();
    first.ws.close();
  });
});
