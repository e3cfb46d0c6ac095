// Stop latency end to end: the real Worker under `wrangler dev`, a model request hanging mid-stream
// at the fake OpenAI server, a real WebSocket; time from sending the stop frame to response_complete.
import { startApp } from "../test/e2e/harness.ts";
import { startFakeOpenAI } from "../test/support/fake-openai.ts";
import { marker, scriptModel } from "../test/support/fake-openai-client.ts";

export async function measureStopLatency(runs: number): Promise<number[]> {
  const llm = await startFakeOpenAI();
  const app = await startApp({
    env: { OPENAI_API_KEY: "bench", OPENAI_BASE_URL: `${llm.url}/v1`, OPENAI_MODEL: "bench" },
  });
  try {
    const origin = app.url;
    const signup = await fetch(`${origin}/api/auth/signup`, {
      method: "POST",
      headers: { "content-type": "application/json", origin },
      body: JSON.stringify({ username: `bench_${Date.now()}`, password: "benchmark-password" }),
    });
    const cookie = (signup.headers.get("set-cookie") ?? "").split(";")[0] ?? "";
    const headers = { cookie, origin, "content-type": "application/json" };
    const conversation = (await (
      await fetch(`${origin}/api/conversations`, { method: "POST", headers, body: "{}" })
    ).json()) as { id: string };
    await scriptModel(llm.url, "stop", [{ text: ["thinking ", "hard"], hang: true }]);
    // Node's WebSocket (undici) takes headers in its init; the DOM typing does not know that.
    const init = { headers } as unknown as string[];
    const ws = new WebSocket(`${origin.replace("http", "ws")}/api/conversations/${conversation.id}/ws`, init);
    const frames: { type: string; at: number; delta?: string }[] = [];
    const waiters: (() => void)[] = [];
    ws.addEventListener("message", (event) => {
      frames.push({ ...(JSON.parse(String(event.data)) as { type: string }), at: performance.now() });
      for (const w of waiters.splice(0)) w();
    });
    const waitFor = async (type: string, from: number) => {
      for (;;) {
        const found = frames.slice(from).find((f) => f.type === type);
        if (found) return found;
        await new Promise<void>((resolve) => waiters.push(resolve));
      }
    };
    await waitFor("hello", 0);
    const latencies: number[] = [];
    for (let i = 0; i < runs; i++) {
      const from = frames.length;
      ws.send(JSON.stringify({ type: "chat", content: `run ${i} ${marker("stop")}` }));
      await waitFor("text_delta", from);
      const sent = performance.now();
      ws.send(JSON.stringify({ type: "agent_control", action: "stop" }));
      const done = await waitFor("response_complete", from);
      latencies.push(done.at - sent);
    }
    ws.close();
    return latencies;
  } finally {
    await app.stop();
    await llm.close();
  }
}
