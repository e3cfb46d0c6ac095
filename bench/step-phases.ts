// Where a multi-step turn's time goes, phase by phase: the real Worker under `wrangler dev`, the fake
// OpenAI server scripted with tool steps (vault_list, as in the side-by-side benchmark against the
// Agents SDK) and a real WebSocket. Each phase is the gap between two moments one clock sees: the
// frames the socket receives and the fake's own record of when each model request arrived and ended.
import { openSocket, signUp } from "../test/e2e/api-client.ts";
import { startApp } from "../test/e2e/harness.ts";
import { startFakeOpenAI } from "../test/support/fake-openai.ts";
import { marker, modelRequests, resetModel, scriptModel } from "../test/support/fake-openai-client.ts";

export const PHASES = [
  ["start", "chat frame → the step's agent_turn_start (the user's message saved, settings read)"],
  ["request", "agent_turn_start → the model request arrives (context built from the log, sent)"],
  ["model", "the fake model's own time (request arrived → response ended)"],
  ["decide", "model response ended → tool_start (stream read, the tree's verdict, call checked)"],
  ["tool", "tool_start → tool_complete (vault_list: one D1 query, started while the model still streams)"],
  ["after tools", "tool_complete → next agent_turn_start (result saved, notifications, next step)"],
  ["finish", "last model response ended → response_complete (answer saved, turn end)"],
  ["overhead", "the whole turn minus the model's time"],
] as const;

export type PhaseName = (typeof PHASES)[number][0];
export type PhaseSamples = Record<PhaseName, number[]>;

/** `turns` turns of `tools` tool steps and an answer, in one conversation after a warm-up turn. */
export async function measureStepPhases(tools: number, turns: number): Promise<PhaseSamples> {
  const llm = await startFakeOpenAI();
  const app = await startApp({
    env: { OPENAI_API_KEY: "bench", OPENAI_BASE_URL: `${llm.url}/v1`, OPENAI_MODEL: "bench" },
  });
  const samples = Object.fromEntries(PHASES.map(([name]) => [name, [] as number[]])) as PhaseSamples;
  try {
    const client = await signUp(app.url);
    const socket = await openSocket(client, await client.createConversation());
    const epoch = (at: number) => performance.timeOrigin + at;
    // One script for every turn: a request's key is the first marker in its prompt, so a conversation
    // keeps one key; each turn takes the next tools + 1 steps.
    const key = "phases";
    const turn = [
      ...Array.from({ length: tools }, (_, i) => ({
        tool_calls: [{ name: "vault_list", arguments: { prefix: `s${i}` } }],
      })),
      { text: "There are no notes yet." },
    ];
    await resetModel(llm.url, key);
    await scriptModel(llm.url, key, Array.from({ length: turns + 1 }, () => turn).flat());
    for (let t = -1; t < turns; t++) {
      const from = socket.frames.length;
      const sent = epoch(performance.now());
      socket.send({ type: "chat", content: `please list my notes ${marker(key)}` });
      const done = await socket.until((f) => f.type === "response_complete", { from });
      if (t < 0) continue; // warm-up: JIT, first D1 use
      const frames = socket.frames.slice(from);
      const requests = (await modelRequests(llm.url, key)).filter((r) => !r.compaction).slice(-(tools + 1));
      const at = (pred: (f: (typeof frames)[number]) => boolean) => {
        const f = frames.find(pred);
        if (!f) throw new Error(`frame missing in ${frames.map((x) => x.type).join(",")}`);
        return epoch(f.at);
      };
      const stepStart = (step: number) =>
        at((f) => f.type === "agent_update" && f.update_type === "agent_turn_start" && f.step === step);
      samples.start.push(stepStart(1) - sent);
      let modelMs = 0;
      requests.forEach((r, i) => {
        const step = i + 1;
        const ended = r.finished_ms ?? r.received_ms;
        modelMs += ended - r.received_ms;
        samples.request.push(r.received_ms - stepStart(step));
        samples.model.push(ended - r.received_ms);
        if (step > tools) {
          samples.finish.push(epoch(done.at) - ended);
          return;
        }
        const started = at((f) => f.type === "tool_start" && f.step === step);
        const completed = at((f) => f.type === "tool_complete" && f.step === step);
        samples.decide.push(started - ended);
        samples.tool.push(completed - started);
        samples["after tools"].push(stepStart(step + 1) - completed);
      });
      samples.overhead.push(epoch(done.at) - sent - modelMs);
    }
    socket.ws.close();
    return samples;
  } finally {
    await app.stop();
    await llm.close();
  }
}
