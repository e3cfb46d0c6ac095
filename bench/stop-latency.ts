// Stop end to end: the real Worker under `wrangler dev`, a real WebSocket, and a model answer the server
// paces (the fake OpenAI server: a word every 20 ms, 4 s in all). For each Stop, the time from the stop
// frame to response_complete, and what became of the model request: the server records when its
// connection closed and whether its answer had been sent to the end first (a request read on in the
// background after a Stop would finish its 4 s; a real provider would go on generating and billing).
// `node bench/stop-latency.ts [runs]` alone measures both API styles against the fake and, where
// llama.cpp's llama-server can run (test/support/real-llm.ts), against it through a paced link.
import { openSocket, signUp } from "../test/e2e/api-client.ts";
import { freePort, startApp } from "../test/e2e/harness.ts";
import { startFakeOpenAI } from "../test/support/fake-openai.ts";
import { marker, modelRequests, scriptModel } from "../test/support/fake-openai-client.ts";
import { pacedLink } from "../test/support/paced-link.ts";
import { prepareRealLlm, startLlamaServer } from "../test/support/real-llm.ts";
import { fmt, median, quantile } from "./stats.ts";

type Style = "chat" | "responses";

export interface StopRun {
  /** Stop frame sent → response_complete received. */
  endMs: number;
  /** Stop frame sent → the request's connection closed; undefined when it was still open 6 s later. */
  closedMs: number | undefined;
  /** The server sent its whole answer before the connection closed: the request outlived the Stop. */
  readToEnd: boolean;
}

/** How a model server is reached and how it tells what became of a turn's request. */
interface Upstream {
  /** The OpenAI base URL (…/v1). */
  baseUrl: string;
  /** The i-th turn's message, and a reader of its request: when it closed (epoch ms), and whether whole. */
  turn(
    i: number,
  ): Promise<{ content: string; request(): Promise<{ closedMs?: number; completed: boolean } | undefined> }>;
  env?: Record<string, string>;
}

const now = () => performance.timeOrigin + performance.now();

async function measureStops(runs: number, style: Style, upstream: Upstream): Promise<StopRun[]> {
  const app = await startApp({
    env: { OPENAI_API_KEY: "bench", OPENAI_BASE_URL: upstream.baseUrl, OPENAI_API_STYLE: style, ...upstream.env },
  });
  try {
    const client = await signUp(app.url);
    const out: StopRun[] = [];
    for (let i = 0; i < runs; i++) {
      // A conversation per Stop: the tiny real model loses its way in a long one.
      const socket = await openSocket(client, await client.createConversation());
      const { content, request } = await upstream.turn(i);
      const from = socket.frames.length;
      socket.send({ type: "chat", content });
      await socket.until((f) => f.type === "text_delta", { from, timeoutMs: 60_000 });
      const sent = performance.now();
      const sentAt = now();
      socket.send({ type: "agent_control", action: "stop" });
      const done = await socket.until((f) => f.type === "response_complete", { from, timeoutMs: 60_000 });
      // Longer than the rest of any answer here: a request read on to its end has finished by then.
      let seen = await request();
      for (const until = now() + 6_000; seen?.closedMs === undefined && now() < until; seen = await request())
        await new Promise((r) => setTimeout(r, 10));
      const closed = seen?.closedMs;
      out.push({
        endMs: done.at - sent,
        closedMs: closed === undefined || seen?.completed ? undefined : closed - sentAt,
        readToEnd: seen?.completed === true,
      });
      socket.ws.close();
    }
    return out;
  } finally {
    await app.stop();
  }
}

/** 20 Stops on Chat Completions against the fake (`npm run bench`). */
export async function measureStopLatency(runs: number): Promise<StopRun[]> {
  const llm = await startFakeOpenAI();
  try {
    return await measureStops(runs, "chat", fakeUpstream(llm.url));
  } finally {
    await llm.close();
  }
}

function fakeUpstream(url: string): Upstream {
  const words = Array.from({ length: 200 }, (_, i) => `word${i} `);
  return {
    baseUrl: `${url}/v1`,
    env: { OPENAI_MODEL: "bench" },
    async turn(i) {
      const key = `stop-${i}-${Date.now()}`;
      await scriptModel(url, key, [{ text: words, chunk_delay_ms: 20 }]);
      const request = async () => {
        const [r] = await modelRequests(url, key);
        return r && { closedMs: r.closed_ms, completed: r.completed };
      };
      return { content: `run ${i} ${marker(key)}`, request };
    },
  };
}

/** The rows `npm run bench` prints (and the standalone run, per style and server). */
export function stopRows(runs: StopRun[], what = "real Worker + socket, fake server"): string[] {
  const ends = runs.map((r) => r.endMs);
  const closes = runs.flatMap((r) => (r.closedMs === undefined ? [] : [r.closedMs]));
  const read = runs.filter((r) => r.readToEnd).length;
  const open = runs.length - closes.length - read;
  return [
    `| stop frame → response_complete, ${what} (${runs.length} stops, paced answer) | ${fmt(median(ends), 1)} | p95 ${fmt(quantile(ends, 0.95), 1)}, max ${fmt(Math.max(...ends), 1)} |`,
    `| stop frame → the model request's connection closed, ${what}: ${closes.length} of ${runs.length} closed, ${read} read to the end, ${open} left open | ${fmt(median(closes), 1)} | max ${fmt(Math.max(...closes), 1)} |`,
  ];
}

/** Both styles against the fake, then against llama-server through a paced link (if it can run here). */
async function main(runs: number) {
  // Each row as it is measured: a failure further on keeps what was.
  const print = (rows: string[]) => console.log(rows.join("\n"));
  print(["| measure | median | tail |", "| --- | --- | --- |"]);
  const llm = await startFakeOpenAI();
  try {
    for (const style of ["chat", "responses"] as const)
      print(stopRows(await measureStops(runs, style, fakeUpstream(llm.url)), `fake server, ${style}`));
  } finally {
    await llm.close();
  }
  const skipped = await prepareRealLlm();
  if (skipped) print([`llama-server not measured: ${skipped}`]);
  else {
    const llama = await startLlamaServer(await freePort());
    // Each event of the answer held 100 ms on its way to the app: the Stop lands mid-answer.
    const link = await pacedLink(llama.url);
    link.delayMs = 100;
    try {
      const real: Upstream = {
        baseUrl: `${link.url}/v1`,
        env: { OPENAI_MODEL: "tiny", OPENAI_CONTEXT_WINDOW: "4096", OPENAI_MAX_OUTPUT_TOKENS: "256" },
        async turn() {
          const at = link.requests.length;
          const request = async () => {
            const r = link.carrying("story: a short one", at);
            return r && { closedMs: r.closed_ms, completed: r.completed };
          };
          return { content: "story: a short one", request };
        },
      };
      for (const style of ["chat", "responses"] as const)
        print(stopRows(await measureStops(runs, style, real), `llama-server, ${style}`));
    } finally {
      await link.close();
      await llama.stop();
    }
  }
}

if (import.meta.main) await main(Number(process.argv[2]) || 20);
