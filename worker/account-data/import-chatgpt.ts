// A ChatGPT data export brought in (docs/protocol.md "Export and import"): its `conversations.json`, sent
// as it is or inside the zip ChatGPT mails. The file is read one conversation at a time
// (json-array.ts), twice: first each is checked (a file that is not a JSON array of conversations is a
// 400 and nothing changes; a conversation that cannot be read, or holds nothing to show, is left out
// and named in the answer), then each is imported as a new conversation with its branches (chatgpt.ts).
import type { Placement } from "../../d1/shards";
import { ChatGptConversationSchema, fieldErrors, firstFieldError, type ImportSummary } from "../../protocol";
import { ApiError, invalid } from "../errors";
import { chatGptConversation } from "./chatgpt";
import type { ImportedConversation } from "./conversation-tree";
import { emptySummary } from "./import-archive";
import { importConversation } from "./import-conversation";
import { jsonArrayElements } from "./json-array";
import type { Progress } from "./progress";
import { isZip, ZipProblem, zipEntries } from "./zip-reader";

const FILE = "conversations.json";
const NAMED = 5;
const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false });

type Read = { conversation: ImportedConversation } | { left: string };

export interface CheckedChatGpt {
  source: Uint8Array;
  /** The conversations that will be imported. */
  total: number;
  /** What is left out, in words. */
  leftOut: string[];
  now: Date;
}

export function checkChatGpt(body: Uint8Array, now = new Date()): CheckedChatGpt {
  const source = isZip(body) ? fromZip(body) : body;
  let total = 0;
  let items = 0;
  const unreadable: string[] = [];
  let empty = 0;
  for (const read of conversations(source, now)) {
    items++;
    if ("conversation" in read) total++;
    else if (read.left) unreadable.push(read.left);
    else empty++;
  }
  if (!items) throw invalid(`${FILE} holds no conversations`);
  if (!total)
    throw invalid(
      unreadable.length
        ? `None of the ${items} conversations in ${FILE} could be read: ${unreadable[0]}`
        : `The conversations in ${FILE} hold no messages`,
    );
  const leftOut: string[] = [];
  if (unreadable.length)
    leftOut.push(
      `${unreadable.length} conversation${unreadable.length === 1 ? "" : "s"} that could not be read: ${unreadable.slice(0, NAMED).join("; ")}${unreadable.length > NAMED ? "; …" : ""}`,
    );
  if (empty) leftOut.push(`${empty} conversation${empty === 1 ? "" : "s"} with no messages`);
  return { source, total, leftOut, now };
}

export async function importChatGpt(
  env: Env,
  owner: Placement,
  checked: CheckedChatGpt,
  progress: Progress,
): Promise<ImportSummary> {
  const summary = { ...emptySummary(), left_out: checked.leftOut };
  progress(0, checked.total);
  for (const read of conversations(checked.source, checked.now)) {
    if (!("conversation" in read)) continue;
    await importConversation(env, owner, read.conversation, null);
    summary.conversations++;
    summary.messages += read.conversation.messages.length;
    progress(summary.conversations, checked.total);
  }
  return summary;
}

/** Each conversation of the file, mapped, or why it is left out ("" when it holds no message). */
function* conversations(source: Uint8Array, now: Date): Generator<Read> {
  let index = 0;
  try {
    for (const bytes of jsonArrayElements(source)) {
      index++;
      const raw = parse(bytes, index);
      const parsed = ChatGptConversationSchema.safeParse(raw);
      if (!parsed.success) {
        yield { left: `${nameOf(raw, index)} (${firstFieldError(fieldErrors(parsed.error), "the conversation")})` };
        continue;
      }
      const conversation = chatGptConversation(parsed.data, now);
      yield conversation ? { conversation } : { left: "" };
    }
  } catch (error) {
    // The scan's words on a file that is not one JSON array (json-array.ts).
    if (error instanceof Error && !(error instanceof ApiError)) throw invalid(`${FILE}: ${error.message}`);
    throw error;
  }
}

function parse(bytes: Uint8Array, index: number): unknown {
  try {
    return JSON.parse(utf8.decode(bytes));
  } catch {
    throw invalid(`${FILE}: conversation ${index} is not valid JSON (is the file whole?)`);
  }
}

function nameOf(raw: unknown, index: number): string {
  const title = raw && typeof raw === "object" ? (raw as { title?: unknown }).title : undefined;
  return typeof title === "string" && title.trim() ? `“${title.trim().slice(0, 80)}”` : `conversation ${index}`;
}

/** The zip ChatGPT sends: its conversations.json (at its root, or in the folder it was unpacked into). */
function fromZip(body: Uint8Array): Uint8Array {
  try {
    const entry = zipEntries(body)
      .filter((e) => e.name === FILE || e.name.endsWith(`/${FILE}`))
      .sort((a, b) => a.name.length - b.name.length)[0];
    if (!entry)
      throw invalid(
        `This zip holds no ${FILE}: send the zip ChatGPT's "Export data" mails you, or the ${FILE} inside it`,
      );
    return entry.read();
  } catch (error) {
    if (error instanceof ZipProblem) throw invalid(`This file is not a ChatGPT export: ${error.message}`);
    throw error;
  }
}
