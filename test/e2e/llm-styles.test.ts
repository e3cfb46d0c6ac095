// Both ways the Worker talks to an OpenAI-compatible server (OPENAI_API_STYLE): Chat Completions and
// the Responses API, through the real app, with a tool call and a streamed answer. "chat" runs on the
// run's shared fake-model app (which sets OPENAI_API_STYLE=chat), "responses" on an app of its own that
// talks to the same fake OpenAI server.
import { describe, expect, it } from "vitest";
import { marker, modelRequests, scriptModel } from "../support/fake-openai-client";
import { openSocket, signUp } from "./api-client";
import { fakeModelEnv, startApp, useSharedFakeModelApp } from "./harness";

const shared = useSharedFakeModelApp({ browser: false });

/** The app of `style`, for the duration of `run`. */
async function withStyleApp(style: "chat" | "responses", run: (url: string) => Promise<void>): Promise<void> {
  if (style === "chat") return run(shared.app.url);
  const app = await startApp({ env: fakeModelEnv(shared.llm, { OPENAI_API_STYLE: style }), direct: true });
  try {
    await run(app.url);
  } finally {
    await app.stop();
  }
}

describe("OPENAI_API_STYLE", () => {
  for (const style of ["chat", "responses"] as const) {
    it(`runs a turn with a tool call in ${style} style`, async () => {
      await withStyleApp(style, async (url) => {
        const health = (await (await fetch(`${url}/api/health`)).json()) as {
          model: { provider: string; model: string };
        };
        expect(health.model).toMatchObject({ provider: "openai", model: "m", context_window: 128_000 });
        const client = await signUp(url);
        const id = await client.createConversation();
        const socket = await openSocket(client, id);
        const key = `style-${style}-${Date.now().toString(36)}`;
        await scriptModel(shared.llm.url, key, [
          { tool_calls: [{ name: "task_list", arguments: {} }] },
          { text: ["No tasks ", "yet."] },
        ]);
        socket.send({ type: "chat", content: `my tasks? ${marker(key)}` });
        const done = await socket.until((f) => f.type === "response_complete");
        expect(done.termination_reason).toBe("completed");
        const roles = (await client.messages(id)).map((m) => m.role).filter((r) => r !== "system");
        expect(roles).toEqual(["user", "tool", "agent"]);
        const requests = await modelRequests(shared.llm.url, key);
        expect(requests.map((r) => r.path)).toEqual(
          style === "chat" ? ["/v1/chat/completions", "/v1/chat/completions"] : ["/v1/responses", "/v1/responses"],
        );
        socket.ws.close();
      });
    });
  }
});
