// Issue 29: how long a turn cut short by a restart takes to go on. The real Worker under `wrangler dev`
// streams a model answer that hangs; the process is SIGKILLed and started again on the same storage (as
// a deploy or a crash does); a client reconnects. Measured from the reconnecting socket's open (which
// wakes the object: it recovers the turn before `hello`) to the resumed turn's first frame, and to the
// model's first text after the restart. The process's own start (wrangler and workerd) is reported too.
import { clientFor, openSocket, signUp } from "../test/e2e/api-client.ts";
import { type App, startApp } from "../test/e2e/harness.ts";
import { startFakeOpenAI } from "../test/support/fake-openai.ts";
import { marker, scriptModel } from "../test/support/fake-openai-client.ts";

export interface ResumeFigures {
  /** SIGKILL to the restarted app answering HTTP (wrangler dev and workerd starting). */
  processStartMs: number[];
  /** Socket open after the restart → the resumed turn's first frame (agent_start / agent_resumed). */
  firstFrameMs: number[];
  /** Socket open after the restart → the first text the model streams again. */
  firstTextMs: number[];
}

export async function measureRestartResume(runs: number): Promise<ResumeFigures> {
  const llm = await startFakeOpenAI();
  const env = { OPENAI_API_KEY: "bench", OPENAI_BASE_URL: `${llm.url}/v1`, OPENAI_MODEL: "bench" };
  let app: App = await startApp({ env });
  const figures: ResumeFigures = { processStartMs: [], firstFrameMs: [], firstTextMs: [] };
  try {
    let user = await signUp(app.url);
    for (let i = 0; i < runs; i++) {
      const key = `resume-${i}`;
      await scriptModel(llm.url, key, [{ text: ["Half"], hang: true }, { text: ["Whole"] }]);
      const id = await user.createConversation();
      const socket = await openSocket(user, id);
      socket.send({ type: "chat", content: `go ${marker(key)}` });
      await socket.until((f) => f.type === "text_delta");
      const killed = performance.now();
      await app.kill();
      app = await startApp({ env, persistTo: app.persistDir });
      figures.processStartMs.push(performance.now() - killed);
      user = clientFor(app.url, user.cookie);
      const opened = performance.now();
      const again = await openSocket(user, id);
      const first = await again.until((f) => f.type === "agent_update");
      const text = await again.until((f) => f.type === "text_delta" && f.delta === "Whole");
      figures.firstFrameMs.push(first.at - opened);
      figures.firstTextMs.push(text.at - opened);
      await again.until((f) => f.type === "response_complete");
      again.ws.close();
    }
    return figures;
  } finally {
    await app.stop();
    await llm.close();
  }
}
