// What the Worker's isolate keeps after conversations and sockets are done: the real Worker under
// `wrangler dev` on the fake OpenAI server, its V8 heap read over the inspector after a full collection
// (bench/inspector.ts). N conversations, CONCURRENCY at a time, each a socket, one turn with a tool step
// over non-ASCII text (most of the world writes it; it takes the token estimate's cached path), then the
// socket closed; then SOCKETS sockets opened and closed on one conversation. The heap is read once the
// objects are idle and evicted, against a baseline taken the same way after a warm-up.
import { readdirSync, readFileSync } from "node:fs";
import { openSocket, signUp } from "../test/e2e/api-client.ts";
import { startApp } from "../test/e2e/harness.ts";
import { startFakeOpenAI } from "../test/support/fake-openai.ts";
import { marker, scriptModel } from "../test/support/fake-openai-client.ts";
import { connectInspector, type Inspector } from "./inspector.ts";

export interface MemoryFigures {
  conversations: number;
  sockets: number;
  baselineBytes: number;
  /** Right after the last conversation ended, its objects still in memory. */
  liveBytes: number;
  /** Once the objects were idle and evicted. */
  afterBytes: number;
  afterSocketsBytes: number;
  /** The resident memory of the workerd that runs the Worker, before and after (MiB). */
  rssBeforeMiB: number;
  rssAfterMiB: number;
}

/** A user's message of ~4,000 characters in several scripts, as people write them. */
const MESSAGE = "Résumé der Woche — Grüße aus Zürich, 東京の天気は晴れ, привет! ".repeat(70);
const ANSWER = "Voilà : la tâche est notée, les détails suivent — à bientôt. ".repeat(20);

/** The RSS of the workerd that runs the Worker (the one with an inspector, in the app's process group), in MiB. */
function workerdRssMiB(processGroup: number): number {
  for (const pid of readdirSync("/proc").filter((p) => /^\d+$/.test(p))) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      const group = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[2]);
      const cmd = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0");
      if (group !== processGroup || !cmd[0]?.endsWith("/workerd") || !cmd.some((a) => a.startsWith("--inspector-addr")))
        continue;
      return Math.round(Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1]) / 1024);
    } catch {
      // gone, or not ours
    }
  }
  return Number.NaN;
}

/** The heap once it stops falling: the objects' eviction comes some seconds after they go idle. */
async function settledHeap(inspector: Inspector, maxWaitMs = 60_000): Promise<number> {
  const deadline = Date.now() + maxWaitMs;
  let last = await inspector.heapAfterGc();
  for (;;) {
    await new Promise((r) => setTimeout(r, 5000));
    const now = await inspector.heapAfterGc();
    if (now >= last - 16 * 1024 || Date.now() > deadline) return Math.min(now, last);
    last = now;
  }
}

export async function measureMemory(conversations = 300, concurrency = 30, sockets = 500): Promise<MemoryFigures> {
  const llm = await startFakeOpenAI();
  const app = await startApp({
    env: { OPENAI_API_KEY: "bench", OPENAI_BASE_URL: `${llm.url}/v1`, OPENAI_MODEL: "bench" },
  });
  try {
    const inspector = await connectInspector(app.inspectorPort);
    const client = await signUp(app.url);
    let n = 0;
    const conversation = async () => {
      const key = `memory-${n++}`;
      await scriptModel(llm.url, key, [{ tool_calls: [{ name: "task_list", arguments: {} }] }, { text: ANSWER }]);
      const socket = await openSocket(client, await client.createConversation());
      socket.send({ type: "chat", content: `${MESSAGE} ${n} ${marker(key)}` });
      const done = await socket.until((f) => f.type === "response_complete", { timeoutMs: 60_000 });
      socket.ws.close();
      if (done.termination_reason !== "completed") throw new Error(`turn ended ${String(done.termination_reason)}`);
    };
    const batch = (size: number) => Promise.all(Array.from({ length: size }, conversation));
    await batch(concurrency); // warm-up: modules, JIT, the first objects
    const baselineBytes = await settledHeap(inspector);
    const rssBeforeMiB = workerdRssMiB(app.processGroup);
    for (let done = 0; done < conversations; done += concurrency)
      await batch(Math.min(concurrency, conversations - done));
    const liveBytes = await inspector.heapAfterGc();
    const rssAfterMiB = workerdRssMiB(app.processGroup);
    const afterBytes = await settledHeap(inspector);

    const id = await client.createConversation();
    const keep = await openSocket(client, id);
    for (let i = 0; i < sockets; i++) (await openSocket(client, id)).ws.close();
    keep.ws.close();
    const afterSocketsBytes = await settledHeap(inspector);
    inspector.close();
    return {
      conversations,
      sockets,
      baselineBytes,
      liveBytes,
      afterBytes,
      afterSocketsBytes,
      rssBeforeMiB,
      rssAfterMiB,
    };
  } finally {
    await app.stop();
    await llm.close();
  }
}

/** The figures as bench/README.md rows. */
export function memoryRows(f: MemoryFigures): string[] {
  const kib = (b: number) => `${(b / 1024).toLocaleString("en-US", { maximumFractionDigits: 0 })} KiB`;
  const perConversation = (f.afterBytes - f.baselineBytes) / f.conversations;
  const perSocket = (f.afterSocketsBytes - f.afterBytes) / f.sockets;
  return [
    `| heap retained per finished conversation (${f.conversations} conversations, socket closed, objects evicted) | ${Math.round(perConversation).toLocaleString("en-US")} B | heap ${kib(f.baselineBytes)} before, ${kib(f.afterBytes)} after |`,
    `| heap per conversation just finished, its object still live | ${Math.round((f.liveBytes - f.baselineBytes) / f.conversations).toLocaleString("en-US")} B | heap ${kib(f.liveBytes)} |`,
    `| heap retained per socket opened and closed (${f.sockets} on one conversation) | ${Math.round(perSocket).toLocaleString("en-US")} B | heap ${kib(f.afterSocketsBytes)} |`,
    `| workerd resident memory across the ${f.conversations} conversations | ${f.rssBeforeMiB} → ${f.rssAfterMiB} MiB | native memory of the local runtime, not the isolate's heap |`,
  ];
}
