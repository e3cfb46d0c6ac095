// Both ways the Worker talks to an OpenAI-compatible server (OPENAI_API_STYLE): Chat Completions and
// the Responses API, through the real app, with a tool call and a streamed answer.
import { afterAll, describe, expect, it } from "vitest";
import { startFakeOpenAI } from "../support/fake-openai";
import { marker, modelRequests, scriptModel } from "../support/fake-openai-client";
import { openSocket, signUp } from "./api-client";
import { fakeModelEnv, startApp } from "./harness";

describe("OPENAI_API_STYLE", async () => {
  const llm = await startFakeOpenAI();
  afterAll(() => llm.close());

  for (const style of ["chat", "responses"] as const) {
    it(`runs a turn with a tool call in ${style} style`, async () => {
      const app = await startApp({ env: fakeModelEnv(llm, { OPENAI_API_STYLE: style }) });
      try {
        const health = (await (await fetch(`${app.url}/api/health`)).json()) as {
          model: { provider: string; model: string };
        };
        expect(health.model).toEqual({ provider: "openai", model: "m", context_window: 128_000 });
        const client = await signUp(app.url);
        const id = await client.createConversation();
        const socket = await openSocket(client, id);
        const key = `style-${style}`;
        await scriptModel(llm.url, key, [
          { tool_calls: [{ name: "task_list", arguments: {} }] },
          { text: ["No tasks ", "yet."] },
        ]);
        socket.send({ type: "chat", content: `my tasks? ${marker(key)}` });
        const done = await socket.until((f) => f.type === "response_complete");
        expect(done.termination_reason).toBe("completed");
        const roles = (await client.messages(id)).map((m) => m.role).filter((r) => r !== "system");
        expect(roles).toEqual(["user", "tool", "agent"]);
        const requests = await modelRequests(llm.url, key);
        expect(requests.map((r) => r.path)).toEqual(
          style === "chat" ? ["/v1/chat/completions", "/v1/chat/completions"] : ["/v1/responses", "/v1/responses"],
        );
        socket.ws.close();
      } finally {
        await app.stop();
      }
    });
  }
});
