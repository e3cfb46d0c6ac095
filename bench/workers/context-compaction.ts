// A 200-turn scripted conversation through the real loop (context building, compaction, tools,
// notifications), twice: with a context window, and with a window so large that nothing is compacted
// (every request is the whole history, as before issue 12). The scripted model counts each request with
// the o200k_base tokenizer over what a Chat Completions request carries (tool declarations, then the
// messages), and reports the part the previous request began with as cached, like a prefix cache.
// Bundled by bench/run.ts with esbuild and run in Node.
import type { LanguageModelV3, LanguageModelV3CallOptions, LanguageModelV3StreamPart } from "@ai-sdk/provider";
import { countTokens } from "gpt-tokenizer/encoding/o200k_base";
import { z } from "zod";
import { ContextMeter, contextBudget } from "../../agent/context/window";
import { findDecisionTree } from "../../agent/decision-trees";
import { fileBody } from "../../agent/files/file-body";
import { type ConversationContext, contextDraft } from "../../agent/projects/context-item";
import { reminderItem } from "../../agent/system-items/reminder";
import { fileTools, offeredTools } from "../../agent/tools/files";
import { memoryTool } from "../../agent/tools/memory";
import { defineTool } from "../../agent/tools/tool";
import { runTurn } from "../../agent/turn/run-turn";
import type { ExtractedText } from "../../core/file-text";
import { type Attachment, DEFAULT_AGENT_CONFIG, type Message } from "../../protocol";
import type { ConversationFigures } from "../context-figures";
import { memoryLog } from "./memory-log";
import { streamOf } from "./scripted-model";

const COMPACTION_TAG = "[Compaction request]";
const words = (seed: number, n: number) =>
  Array.from(
    { length: n },
    (_, i) => ["plan", "launch", "note", "task", "review", "draft", "ship", "May"][(seed * 7 + i * 3) % 8],
  ).join(" ");

const lookup = defineTool({
  name: "lookup",
  description: "Looks something up in the user's notes.",
  args: z.object({ query: z.string() }),
  execute: async ({ query }) => `Results for ${query}: ${words(query.length, 140)}`,
});
const flaky = defineTool({
  name: "flaky",
  description: "A tool that fails.",
  args: z.object({ id: z.number() }),
  execute: async ({ id }) => {
    throw new Error(`service unavailable for ${id}`);
  },
});

/**
 * With files: every 50th message carries an image (an image part), a short note (its text in the
 * request) and a 2,000-row CSV (its outline), as the conversation object sends them.
 */
const PNG = Uint8Array.from(
  atob("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=="),
  (c) => c.charCodeAt(0),
);
const IMAGES = new Map([["f_image", PNG]]);
const csv = ["day,plan,owner,status", ...Array.from({ length: 2000 }, (_, i) => `${i},${words(i, 4)},ann,open`)].join(
  "\n",
);
const note = `# Launch\n\n${words(9, 200)}`;
const FILES: { file: Attachment; text?: ExtractedText }[] = [
  { file: { id: "f_image", name: "chart.png", content_type: "image/png", kind: "image", size: PNG.length } },
  {
    file: { id: "f_note", name: "launch.md", content_type: "text/markdown", kind: "text", size: note.length, lines: 3 },
    text: { text: note },
  },
  {
    file: { id: "f_csv", name: "plan.csv", content_type: "text/csv", kind: "text", size: csv.length, lines: 2001 },
    text: { text: csv },
  },
];

/**
 * With a project (issue 47): before the first message, the context item a conversation in a project
 * starts with (the user's instructions, the project's instructions and its note, 20 memories), the
 * memory tool declared; at turn 100 the user changes their instructions, and the next message is
 * preceded by the update, as the conversation object writes them.
 */
const MEMORIES = Array.from({ length: 20 }, (_, i) => ({
  id: `m_${i}`,
  text: `The user ${words(i, 12)}.`,
  project: i % 2 === 0,
}));
function projectContext(turn: number): ConversationContext {
  return {
    instructions: {
      about: `I am a product manager. ${words(3, 60)}`,
      style: turn < 100 ? "Be brief." : "Be thorough.",
    },
    project: {
      id: "p_launch",
      name: "Launch",
      instructions: `Plan the launch. ${words(5, 80)}`,
      knowledge: [],
      notes: [],
    },
    files: [FILES[1]?.file as Attachment],
    memories: MEMORIES,
    memoryOn: true,
  };
}

/** What a request costs and shares: the serialised request, its tokens, the tokens of its cached prefix. */
interface Sent {
  text: string;
  tokens: number;
  cached: number;
  compaction: boolean;
  /** The first request after a branch point: it follows a request of another branch. */
  branched: boolean;
}

function commonPrefix(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return i;
}

function benchModel(turn: () => number, sent: Sent[], branchedAt: () => number): LanguageModelV3 {
  let inTurn = 0;
  let lastTurn = -1;
  return {
    specificationVersion: "v3",
    provider: "bench",
    modelId: "scripted",
    supportedUrls: {},
    doGenerate: () => Promise.reject(new Error("stream only")),
    async doStream(options: LanguageModelV3CallOptions) {
      const text = JSON.stringify(options.tools ?? []) + options.prompt.map((m) => JSON.stringify(m)).join("");
      const previous = sent.at(-1)?.text ?? "";
      const tokens = countTokens(text);
      const shared = commonPrefix(previous, text);
      const cached = shared ? countTokens(text.slice(0, shared)) : 0;
      const compaction = JSON.stringify(options.prompt.at(-1)).includes(COMPACTION_TAG);
      sent.push({ text, tokens, cached, compaction, branched: sent.length === branchedAt() });
      const i = turn();
      if (i !== lastTurn) {
        lastTurn = i;
        inTurn = 0;
      }
      let reply: { text: string } | { tool: string; args: unknown };
      if (compaction) reply = { text: `- Goal: ${words(i, 120)}\n- Open: ${words(i + 1, 60)}` };
      else {
        const call = inTurn++;
        if (i % 4 === 1 && call < 2) reply = { tool: "lookup", args: { query: `topic ${i}.${call}` } };
        else if (i % 10 === 7 && call === 0) reply = { tool: "flaky", args: { id: i } };
        else reply = { text: `Answer ${i}: ${words(i, 110)}` };
      }
      const parts: LanguageModelV3StreamPart[] = [{ type: "stream-start", warnings: [] }];
      if ("text" in reply)
        parts.push(
          { type: "text-start", id: "t" },
          { type: "text-delta", id: "t", delta: reply.text },
          { type: "text-end", id: "t" },
        );
      else
        parts.push({
          type: "tool-call",
          toolCallId: `c${sent.length}`,
          toolName: reply.tool,
          input: JSON.stringify(reply.args),
        });
      const out = countTokens("text" in reply ? reply.text : JSON.stringify(reply.args));
      parts.push({
        type: "finish",
        usage: {
          inputTokens: { total: tokens, noCache: tokens - cached, cacheRead: cached, cacheWrite: undefined },
          outputTokens: { total: out, text: out, reasoning: undefined },
        },
        finishReason: { unified: "text" in reply ? "stop" : "tool-calls", raw: undefined },
      });
      return { stream: streamOf(parts) };
    },
  };
}

/**
 * `limit`: the window the sizes are judged against (the baseline runs with no window at all). `edit`:
 * at turn `at`, the user edits their message of turn `from` and the rest of the turns run on that branch.
 */
export async function runConversation(
  turns: number,
  window: number,
  limit = window,
  edit?: { at: number; from: number },
  files = false,
  project = false,
): Promise<ConversationFigures> {
  const { append, notifier, path, moveLeaf } = memoryLog();
  const sent: Sent[] = [];
  const questions: Message[] = [];
  let turn = 0;
  let requests = 0;
  let branchedAt = -1;
  const model = benchModel(
    () => turn,
    sent,
    () => branchedAt,
  );
  const meter = new ContextMeter();
  const tree = findDecisionTree("default");
  if (!tree) throw new Error("default tree missing");
  let completed = 0;
  const appendDocument = async (file: Attachment, text: ExtractedText, source: string) => {
    const { body, inline } = fileBody(file, text, Math.min(8_000, window / 4));
    await append({
      role: "system",
      source,
      severity: "info",
      item: { kind: "file_attachment", path: file.name, body, file, inline },
    });
  };
  for (turn = 0; turn < turns; turn++) {
    const edited = edit?.at === turn ? questions[edit.from] : undefined;
    if (edited) {
      moveLeaf(edited.parent_seq ?? 0);
      branchedAt = sent.length;
    }
    const attached = files && turn % 50 === 0 ? FILES : [];
    if (project) {
      const lastKey = path().findLast((m) => m.role === "system" && m.item.kind === "context");
      const last = lastKey?.role === "system" && lastKey.item.kind === "context" ? lastKey.item : undefined;
      const draft = contextDraft(projectContext(turn), last, turn === 0);
      if (draft) await append(draft);
      const noteFile = FILES[1];
      if (turn === 0 && noteFile?.text) await appendDocument(noteFile.file, noteFile.text, "Context");
    }
    questions.push(
      await append({
        role: "user",
        content: `Question ${turn}: ${words(turn + 3, 60)}?`,
        ...(attached.length ? { attachments: attached.map((f) => f.file) } : {}),
      }),
    );
    // A document's System message right after its message, as the conversation object writes it.
    for (const { file, text } of attached) if (text) await appendDocument(file, text, "Files");
    const outcome = await runTurn(
      {
        messages: path,
        append,
        frames: { send: () => {} },
        emit: (e) => notifier.emit(e),
        flush: (p) => notifier.flush(p),
        askUser: async () => ({ type: "aborted" }),
        // A task reminder committed to the log every 6th request, as task-reminders.ts does.
        beforeModelRequest: async () => {
          if (++requests % 6 === 0)
            await append({
              role: "system",
              source: "Task Reminders",
              severity: "info",
              item: reminderItem("1 open task: Write the launch post"),
            });
        },
      },
      {
        model,
        config: { ...DEFAULT_AGENT_CONFIG, maxIterations: 10, tokenBudget: 200_000, timeoutSeconds: 600 },
        tree,
        // With files, the file tools are declared too, as a conversation with files offers them.
        // With a project, the memory tool too.
        tools: offeredTools(
          [lookup, flaky, ...(files || project ? fileTools : []), ...(project ? [memoryTool] : [])],
          path(),
        ),
        toolContext: { db: undefined as unknown as D1Database, userId: "bench", conversationId: "bench" },
        signal: new AbortController().signal,
        context: { budget: contextBudget(window), meter, images: { see: true, bytes: (id) => IMAGES.get(id) } },
      },
    );
    if (outcome.reason === "completed") completed++;
  }
  // Within a branch: the request after the branch point follows another branch's, so it is left out.
  const pairs = sent.slice(1).flatMap((s, i) => (s.branched ? [] : [[sent[i] as Sent, s] as const]));
  const shares = pairs.map(([before, s]) => commonPrefix(before.text, s.text) / s.text.length);
  return {
    requests: sent.length,
    compactions: sent.filter((s) => s.compaction).length,
    inputTokens: sent.reduce((n, s) => n + s.tokens, 0),
    cachedTokens: sent.reduce((n, s) => n + (s.branched ? 0 : s.cached), 0),
    largest: Math.max(...sent.map((s) => s.tokens)),
    overWindow: sent.filter((s) => s.tokens > limit).length,
    prefixShares: shares,
    wholePrefix: pairs.filter(([before, s]) => s.text.startsWith(before.text)).length,
    pairs: pairs.length,
    turnsCompleted: completed,
  };
}
