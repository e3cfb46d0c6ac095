// Stop latency end to end: the real Worker under `wrangler dev`, a model request hanging mid-stream
// at the fake OpenAI server, a real WebSocket; time from sending the stop frame to response_complete.
import { openSocket, signUp } from "../test/e2e/api-client.ts";
import { startApp } from "../test/e2e/harness.ts";
import { startFakeOpenAI } from "../test/support/fake-openai.ts";
import { marker, scriptModel } from "../test/support/fake-openai-client.ts";

export async function measureStopLatency(runs: number): Promise<number[]> {
  const llm = await startFakeOpenAI();
  const app = await startApp({
    env: { OPENAI_API_KEY: "bench", OPENAI_BASE_URL: `${llm.url}/v1`, OPENAI_MODEL: "bench" },
  });
  try {
    const client = await signUp(app.url);
    const socket = await openSocket(client, await client.createConversation());
    await scriptModel(llm.url, "stop", [{ text: ["thinking ", "hard"], hang: true }]);
    const latencies: number[] = [];
    for (let i = 0; i < runs; i++) {
      const from = socket.frames.length;
      socket.send({ type: "chat", content: `run ${i} ${marker("stop")}` });
      await socket.until((f) => f.type === "text_delta", { from });
      const sent = performance.now();
      socket.send({ type: "agent_control", action: "stop" });
      const done = await socket.until((f) => f.type === "response_complete", { from });
      latencies.push(done.at - sent);
    }
    socket.ws.close();
    return latencies;
  } finally {
    await app.stop();
    await llm.close();
  }
}
