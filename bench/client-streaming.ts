// Issue 39: what a streamed answer costs the browser in a long conversation. The real app under
// `wrangler dev` on the fake OpenAI server; conversations of ~100 and ~1,000 messages seeded through the
// real socket (turns of tool calls and Markdown answers, as a user's would be); then headless Chromium
// opens one and the model streams a ~4 s Markdown answer into it. Per-frame times come from
// requestAnimationFrame deltas in the page while the answer streams (from its first visible text to its
// last); script time from the DevTools Performance domain over the same window; long tasks from a
// PerformanceObserver; and the time from the fake server's last byte of the stream to the answer's last
// words in the DOM (checked at every frame). Desktop (1280×800) and a phone (390×844, touch) with the
// CPU throttled 4× (Emulation.setCPUThrottlingRate).
//
// `node bench/client-streaming.ts` alone (it builds client/dist unless E2E_ASSETS_DIR points at a build)
// prints the table; `npm run bench` writes it into bench/README.md between the client-streaming markers.
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { type Browser, chromium, type Page } from "playwright-core";
import { type Client, openSocket, signUp } from "../test/e2e/api-client.ts";
import { chromiumLaunchOptions, fakeModelEnv, ROOT, startApp } from "../test/e2e/app.ts";
import { startFakeOpenAI } from "../test/support/fake-openai.ts";
import { marker, modelRequests, type Step, scriptModel } from "../test/support/fake-openai-client.ts";
import { median, quantile } from "./stats.ts";

export interface StreamFigures {
  messages: number;
  device: "desktop" | "phone";
  frames: number[];
  scriptMs: number;
  longTasks: number;
  tasksOver100: number;
  /** The stream's last byte left the fake model → the answer's last words in the DOM. */
  endToScreenMs: number;
  /** From the first streamed text on screen to the last. */
  streamMs: number;
  /** Opening the conversation: navigation → every seeded message in the DOM. */
  openMs: number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A finished answer as models write them: a heading, paragraphs with inline code and bold, a list, a table, code. */
function answerText(i: number): string {
  const code = i % 3 === 0 ? `\n\n\`\`\`ts\nconst total${i} = items.reduce((n, x) => n + x.price, 0);\n\`\`\`` : "";
  const table = i % 4 === 1 ? `\n\n| item | qty |\n| --- | --- |\n| apples ${i} | ${i % 9} |\n| pears | 2 |` : "";
  return (
    `### Answer ${i}\n\nHere is what I found in your notes for question ${i}: the **budget** for the trip ` +
    `is in \`plan-${i}.md\`, and the dates are settled. See [the plan](https://example.com/plan/${i}).\n\n` +
    `- first point of answer ${i}\n- second point, with *emphasis*\n- third point${table}${code}\n\nfindable-${i}-words`
  );
}

/** One seeded turn: a step that lists notes, a step that reads a missing one (a tool failure), the answer. */
function turnSteps(i: number): Step[] {
  return [
    {
      text: `Let me look at the notes for ${i}.`,
      tool_calls: [{ name: "vault_list", arguments: { prefix: `t${i}` } }],
    },
    { tool_calls: [{ name: "vault_read", arguments: { path: `missing-${i}.md` } }] },
    { text: answerText(i) },
  ];
}

/** The answer that streams while frames are measured: ~4 s of Markdown in small deltas. */
function streamingChunks(end: string): string[] {
  const paragraph =
    "The **quarterly budget** looks fine: spending on `travel` stayed under plan, the garden costs were " +
    "moved to next month, and the Lisbon trip is booked. ";
  const text =
    `## Summary\n\n${paragraph.repeat(3)}\n\n- travel: on plan\n- garden: moved\n- trip: booked\n\n` +
    `| month | spent |\n| --- | --- |\n| May | 1,200 |\n| June | 900 |\n\n${paragraph.repeat(3)}\n\n` +
    `\`\`\`ts\nconst left = budget - spent;\n\`\`\`\n\n${paragraph.repeat(2)} ${end}`;
  const chunks = text.match(/\s*\S+\s*/g) ?? [];
  return chunks;
}
const STREAM_CHUNK_DELAY_MS = 16;

/** Runs turns through the real socket until the conversation holds at least `messages` messages. */
async function seed(client: Client, llmUrl: string, messages: number): Promise<{ id: string; count: number }> {
  const id = await client.createConversation();
  const key = `seed-${id}`;
  const socket = await openSocket(client, id);
  let count = 0;
  for (let i = 0; count < messages - 8; i++) {
    await scriptModel(llmUrl, key, turnSteps(i));
    const from = socket.frames.length;
    socket.send({ type: "chat", content: `Question ${i}: what do my notes say? ${marker(key)}` });
    await socket.until((f) => f.type === "response_complete", { from, timeoutMs: 60_000 });
    count = socket.frames.filter((f) => f.type === "message").length;
    if (i % 20 === 19) console.error(`seeding ${id}: ${count} of ${messages} messages`);
  }
  socket.ws.close();
  return { id, count: (await client.messages(id)).length };
}

/** In the page: rAF deltas, long tasks, and when `end` first shows in the message list. */
function installProbe(page: Page, end: string): Promise<void> {
  return page.evaluate((end) => {
    type Probe = {
      frames: [number, number][];
      firstText: number | null;
      endSeen: number | null;
      endSeenEpoch: number | null;
      longTasks: number[];
      stop: boolean;
    };
    const probe: Probe = { frames: [], firstText: null, endSeen: null, endSeenEpoch: null, longTasks: [], stop: false };
    (window as unknown as { __probe: Probe }).__probe = probe;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) probe.longTasks.push(entry.duration);
    }).observe({ type: "longtask" });
    // Cheap checks at each frame: the streaming bubble, or the last row once the answer is persisted.
    // Every 30th frame the whole list is read too (slower, but it cannot miss the answer wherever it is).
    let ticks = 0;
    const shows = () => {
      if (document.querySelector("[data-testid=streaming]")?.textContent?.includes(end)) return true;
      for (const log of document.querySelectorAll("[role=log]"))
        if (log.lastElementChild?.textContent?.includes(end)) return true;
      if (++ticks % 30 !== 0) return false;
      return document.querySelector("[data-testid=message-list]")?.textContent?.includes(end) ?? false;
    };
    let last = performance.now();
    const tick = (now: number) => {
      probe.frames.push([now, now - last]);
      last = now;
      if (probe.firstText === null && document.querySelector("[data-testid=streaming]")) probe.firstText = now;
      if (probe.endSeen === null && shows()) {
        probe.endSeen = now;
        probe.endSeenEpoch = Date.now();
      }
      if (!probe.stop) requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  }, end);
}

async function measureOne(
  browser: Browser,
  app: { url: string },
  client: Client,
  llmUrl: string,
  conversation: { id: string; count: number },
  device: "desktop" | "phone",
  run: number,
): Promise<StreamFigures> {
  const phone = device === "phone";
  const context = await browser.newContext({
    baseURL: app.url,
    viewport: phone ? { width: 390, height: 844 } : { width: 1280, height: 800 },
    ...(phone ? { isMobile: true, hasTouch: true, deviceScaleFactor: 3 } : {}),
  });
  const [name, value] = client.cookie.split("=");
  await context.addCookies([{ name: name ?? "", value: value ?? "", url: app.url }]);
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send("Performance.enable");
  if (phone) await cdp.send("Emulation.setCPUThrottlingRate", { rate: 4 });
  try {
    const opened = performance.now();
    await page.goto(`/c/${conversation.id}`);
    const last = await client.messages(conversation.id);
    const lastSeq = Math.max(...last.map((m) => Number(m.seq)));
    await page.locator(`[data-testid=message-list] [data-seq="${lastSeq}"]`).waitFor({ timeout: 600_000 });
    const openMs = performance.now() - opened;
    await page.locator("[data-testid=connection-status][data-status=connected]").waitFor({ state: "attached" });
    await sleep(1500); // the highlighter and the rest settle

    // The fake model answers a request by the first key in its prompt: the seeded conversation's.
    const key = `seed-${conversation.id}`;
    const end = `END-${device}-${run}-${Date.now().toString(36)}`;
    await scriptModel(llmUrl, key, [{ text: streamingChunks(end), chunk_delay_ms: STREAM_CHUNK_DELAY_MS }]);
    await installProbe(page, end);
    const before = (await cdp.send("Performance.getMetrics")).metrics;
    const socket = await openSocket(client, conversation.id);
    socket.send({ type: "chat", content: `Summarise the budget ${marker(key)}` });
    await page
      .waitForFunction(
        () => (window as unknown as { __probe: { endSeen: number | null } }).__probe.endSeen !== null,
        undefined,
        { timeout: 180_000, polling: 250 },
      )
      .catch(async (error) => {
        const state = await page.evaluate(() => ({
          probe: JSON.stringify((window as unknown as { __probe: unknown }).__probe).slice(0, 300),
          text: document.querySelector("[data-testid=message-list]")?.textContent?.slice(-300),
        }));
        throw new Error(`${error}\n${JSON.stringify(state)}\n${JSON.stringify(socket.frames.map((f) => f.type))}`);
      });
    const after = (await cdp.send("Performance.getMetrics")).metrics;
    await socket.until((f) => f.type === "response_complete", { timeoutMs: 60_000 });
    socket.ws.close();
    const probe = await page.evaluate(() => {
      const p = (
        window as unknown as {
          __probe: {
            frames: [number, number][];
            firstText: number;
            endSeen: number;
            endSeenEpoch: number;
            longTasks: number[];
            stop: boolean;
          };
        }
      ).__probe;
      p.stop = true;
      return p;
    });
    const request = (await modelRequests(llmUrl, key)).filter((r) => !r.compaction).at(-1);
    const script = (ms: typeof before) => ms.find((m) => m.name === "ScriptDuration")?.value ?? 0;
    const frames = probe.frames.filter(([t]) => t > probe.firstText && t <= probe.endSeen).map(([, d]) => d);
    return {
      messages: conversation.count,
      device,
      frames,
      scriptMs: (script(after) - script(before)) * 1000,
      longTasks: probe.longTasks.length,
      tasksOver100: probe.longTasks.filter((d) => d > 100).length,
      endToScreenMs: probe.endSeenEpoch - (request?.finished_ms ?? Number.NaN),
      streamMs: probe.endSeen - probe.firstText,
      openMs,
    };
  } finally {
    await context.close();
  }
}

/** Seeds the conversations once, then measures each (size, device) `runs` times. */
export async function measureClientStreaming(sizes = [100, 1000], runs = 1): Promise<StreamFigures[]> {
  if (!process.env.E2E_ASSETS_DIR) {
    const r = spawnSync("npm", ["run", "build"], { cwd: ROOT, stdio: "inherit" });
    if (r.status !== 0) throw new Error("npm run build failed");
  } else if (!existsSync(path.join(process.env.E2E_ASSETS_DIR, "index.html"))) {
    throw new Error(`E2E_ASSETS_DIR=${process.env.E2E_ASSETS_DIR} holds no build`);
  }
  const llm = await startFakeOpenAI();
  const app = await startApp({ env: fakeModelEnv(llm) });
  const browser = await chromium.launch(await chromiumLaunchOptions());
  try {
    const client = await signUp(app.url);
    const conversations = [];
    for (const size of sizes) conversations.push(await seed(client, llm.url, size));
    const out: StreamFigures[] = [];
    for (const conversation of conversations)
      for (const device of ["desktop", "phone"] as const)
        for (let run = 0; run < runs; run++) {
          out.push(await measureOne(browser, app, client, llm.url, conversation, device, run));
          console.error(streamingRows(out.slice(-1)).at(-1));
        }
    return out;
  } finally {
    await browser.close();
    await app.stop();
    await llm.close();
  }
}

export function streamingRows(figures: StreamFigures[]): string[] {
  const ms = (x: number) => `${Math.round(x).toLocaleString("en-US")} ms`;
  return [
    "| messages | device | frames while streaming | p50 frame | p95 frame | frames over 34 ms | script time | long tasks (over 100 ms) | stream's end → answer on screen | open |",
    "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |",
    ...figures.map(
      (f) =>
        `| ${f.messages.toLocaleString("en-US")} | ${f.device === "phone" ? "phone 390×844, CPU 4×" : "desktop 1280×800"} | ${f.frames.length} in ${ms(f.streamMs)} | ${f.frames.length ? f.frames.length && median(f.frames).toFixed(1) : "–"} ms | ${quantile(f.frames, 0.95).toFixed(1)} ms | ${f.frames.filter((d) => d > 34).length} | ${ms(f.scriptMs)} | ${f.longTasks} (${f.tasksOver100}) | ${ms(f.endToScreenMs)} | ${ms(f.openMs)} |`,
    ),
  ];
}

const MARKERS = /<!-- client-streaming:begin -->[\s\S]*<!-- client-streaming:end -->/;

export function writeStreamingSection(rows: string[], stamp: string): void {
  const readme = readFileSync("bench/README.md", "utf8");
  if (!MARKERS.test(readme)) return;
  writeFileSync(
    "bench/README.md",
    readme.replace(
      MARKERS,
      `<!-- client-streaming:begin -->\n${stamp}\n\n${rows.join("\n")}\n<!-- client-streaming:end -->`,
    ),
  );
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const sizes = (process.env.BENCH_SIZES ?? "100,1000").split(",").map(Number);
  const figures = await measureClientStreaming(sizes, Number(process.env.BENCH_RUNS ?? 1));
  const rows = streamingRows(figures);
  console.log(rows.join("\n"));
  if (process.env.BENCH_WRITE !== "0") {
    writeStreamingSection(rows, `Run on ${new Date().toISOString().slice(0, 10)}, headless Chromium, 2 cores shared.`);
    spawnSync("npx", ["biome", "format", "--write", "bench/README.md"], { stdio: "inherit" });
  }
}
