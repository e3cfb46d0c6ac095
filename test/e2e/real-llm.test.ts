// The real app against a real OpenAI-compatible server written by others: llama.cpp's llama-server with
// the tiny test model of ../shared/real-llm (test/support/real-llm.ts), in both API styles, one app per
// style. Each turn goes through the socket as the browser's would. The tiny model is reliable up to
// about 1,600 prompt tokens and the agent's system prompt with its tools is larger, so the checks are
// about the protocol (frames, usage, tool messages, how a turn ends), never the exact words.
// No ../shared/real-llm, or a setup.sh that fails: the file is skipped with one warning saying why.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type PacedLink, pacedLink } from "../support/paced-link";
import { type LlamaServer, prepareRealLlm, startLlamaServer } from "../support/real-llm";
import { type Client, openSocket, type Socket, signUp } from "./api-client";
import { type App, freePort, startApp } from "./harness";

const skipped = await prepareRealLlm();
if (skipped) console.warn(`real-llm.test.ts skipped: ${skipped}`);

type Saved = { role: string; content?: string; note?: string; [key: string]: unknown };
type Usage = { input_tokens: number; output_tokens: number; cached_input_tokens?: number };

/** Polls until `ok()` holds (10 s at most). */
async function until(ok: () => boolean) {
  for (const deadline = Date.now() + 10_000; !ok(); await new Promise((r) => setTimeout(r, 20)))
    if (Date.now() > deadline) throw new Error("timed out waiting");
}

/** What no saved message may hold: the provider's validation dump or a raw JSON body in the text. */
function expectNoDump(messages: Saved[]) {
  const all = JSON.stringify(messages);
  expect(all).not.toContain("Type validation failed");
  expect(all).not.toContain("invalid_union");
  for (const m of messages.filter((m) => m.role !== "tool")) {
    expect(`${m.content ?? ""} ${m.note ?? ""}`).not.toMatch(/[{[]\s*"[\w-]+"\s*:/);
  }
}

describe.skipIf(skipped !== undefined)("a real OpenAI-compatible server (llama.cpp's llama-server)", () => {
  let llama: LlamaServer;
  /** The apps reach llama-server through it: the Stop test slows the answer down. */
  let link: PacedLink;
  beforeAll(async () => {
    llama = await startLlamaServer(await freePort());
    link = await pacedLink(llama.url);
  });
  afterAll(async () => {
    await link?.close();
    await llama?.stop();
  });

  for (const style of ["chat", "responses"] as const) {
    describe(`${style} style`, () => {
      let app: App;
      let client: Client;
      beforeAll(async () => {
        app = await startApp({
          env: {
            OPENAI_API_KEY: "none",
            OPENAI_BASE_URL: `${link.url}/v1`,
            OPENAI_MODEL: "tiny",
            OPENAI_CONTEXT_WINDOW: "4096",
            // After a failed tool call the tiny model rambles to the cap (1,024 tokens by default here: 5 s
            // of both cores and a thousand frames); every answer it is trained on fits in far fewer.
            OPENAI_MAX_OUTPUT_TOKENS: "256",
            // The operator's switch for the web tools, as for a small local model: web_fetch's schema in every
            // request took the tiny model past what it handles (it wrote no story, only its reasoning).
            WEB_FETCH: "off",
            // The same for the memory tool (and its instructions in the context item).
            MEMORY: "off",
            OPENAI_API_STYLE: style,
          },
          direct: true,
        });
        client = await signUp(app.url);
      });
      afterAll(() => app?.stop());

      /** A socket on a new conversation of the style's user. */
      async function conversation(): Promise<{ id: string; socket: Socket }> {
        const id = await client.createConversation();
        return { id, socket: await openSocket(client, id) };
      }

      /** Sends `content` and waits for the turn's end: its frames and response_complete. */
      async function turn(socket: Socket, content: string, during?: (from: number) => Promise<void>) {
        const from = socket.frames.length;
        socket.send({ type: "chat", content });
        await during?.(from);
        const done = await socket.until((f) => f.type === "response_complete", { from, timeoutMs: 60_000 });
        return { frames: socket.frames.slice(from), done };
      }

      const answer = async (id: string) => {
        const saved = (await client.messages(id)) as Saved[];
        expectNoDump(saved);
        return { saved, last: saved.filter((m) => m.role === "agent").at(-1) };
      };

      it("streams a hello: turn with usage, and a second turn reports cached input tokens", async () => {
        const { id, socket } = await conversation();
        const first = await turn(socket, "hello: who are you?");
        expect(first.done.termination_reason).toBe("completed");
        expect(first.frames.filter((f) => f.type === "text_delta").length).toBeGreaterThan(1);
        const { last } = await answer(id);
        expect(last?.content).not.toBe("");
        const usage = last?.usage as Usage;
        expect(usage.input_tokens).toBeGreaterThan(100);
        expect(usage.output_tokens).toBeGreaterThan(0);
        // The prompt the Worker sends (system prompt + tool declarations + the message), as the server counted it.
        console.info(`[real-llm ${style}] first turn: ${usage.input_tokens} prompt tokens`);

        const second = await turn(socket, "hello: again");
        expect(second.done.termination_reason).toBe("completed");
        const again = (await answer(id)).last?.usage as Usage;
        expect(again.cached_input_tokens).toBeGreaterThan(0);
        console.info(
          `[real-llm ${style}] second turn: ${again.input_tokens} prompt, ${again.cached_input_tokens} cached`,
        );
        socket.ws.close();
      });

      it("runs a tool: turn through the real loop", async () => {
        const { id, socket } = await conversation();
        const { frames, done } = await turn(socket, "tool: look this up");
        expect(done.termination_reason).toBe("completed");
        const started = frames.filter((f) => f.type === "tool_start");
        expect(started.length).toBeGreaterThan(0);
        expect(frames.some((f) => f.type === "tool_complete" || f.type === "tool_error")).toBe(true);
        const { saved, last } = await answer(id);
        expect(saved.filter((m) => m.role === "tool").map((m) => m.tool)).toContain(started[0]?.tool);
        expect(last?.content).not.toBe("");
        socket.ws.close();
      });

      it("keeps the partial text of a story: turn stopped mid-stream", async () => {
        const { id, socket } = await conversation();
        // The story's 50-odd tokens at 100 ms each: the Stop lands mid-stream however fast the model is.
        // The pace holds until the app has let go: dropped at the turn's end, the rest of the answer
        // could reach a loaded machine's link before the app's closed connection did.
        link.delayMs = 100;
        try {
          const at = link.requests.length;
          const { frames, done } = await turn(socket, "story: a short one", async (from) => {
            await socket.until((f) => f.type === "text_delta", { from });
            socket.send({ type: "agent_control", action: "stop" });
          });
          expect(done.termination_reason).toBe("user_cancelled");
          const streamed = frames
            .filter((f) => f.type === "text_delta")
            .map((f) => f.delta)
            .join("");
          expect(streamed).not.toBe("");
          const { last } = await answer(id);
          expect(last?.content).toContain(streamed.trim().slice(0, 20));
          // The app let go of the request: the link saw its connection close before the answer's end.
          // The turn's steps and, now that a stopped first answer gets one, the title's request all carry
          // the story's words: the one cut off is the request that was streaming when Stop came.
          const cutOff = () =>
            link.requests
              .slice(at)
              .find((r) => r.body.includes("story: a short one") && r.closed_ms !== undefined && !r.completed);
          await until(() => cutOff() !== undefined);
          expect(cutOff()?.completed).toBe(false);
        } finally {
          link.delayMs = 0;
        }
        socket.ws.close();
      });

      it("fails a turn in plain words while the server is down, and the next turn works", async () => {
        const { id, socket } = await conversation();
        await llama.stop();
        try {
          const failed = await turn(socket, "hello: are you there?");
          expect(failed.done.termination_reason).toBe("llm_error");
          const { last } = await answer(id);
          expect(last?.note ?? last?.content).toBeTruthy();
        } finally {
          llama = await startLlamaServer(llama.port);
        }
        const next = await turn(socket, "hello: and now?");
        expect(next.done.termination_reason).toBe("completed");
        expect(next.frames.some((f) => f.type === "text_delta")).toBe(true);
        await answer(id);
        socket.ws.close();
      });

      // The engine's reasoning (reasoning_delta frames, `reasoning` on the agent message): the model
      // thinks before every answer (llama-server streams it as reasoning_content / reasoning_text).
      it("streams the model's reasoning and keeps it on the answer", async () => {
        const { id, socket } = await conversation();
        const { frames, done } = await turn(socket, "count: to five");
        expect(done.termination_reason).toBe("completed");
        const reasoning = frames.filter((f) => f.type === "reasoning_delta");
        expect(reasoning.length).toBeGreaterThan(0);
        const firstReasoning = frames.findIndex((f) => f.type === "reasoning_delta");
        expect(firstReasoning).toBeLessThan(frames.findIndex((f) => f.type === "text_delta"));
        const { last } = await answer(id);
        const kept = last?.reasoning as { text: string; duration_ms: number } | undefined;
        expect(kept?.text).toBe(reasoning.map((f) => f.delta).join(""));
        expect(kept?.text.trim()).not.toBe("");
        expect(kept?.duration_ms).toBeGreaterThanOrEqual(0);
        socket.ws.close();
      });
    });
  }
});
