// One ChatGPT conversation (protocol/chatgpt.ts) as an Oracle conversation (docs/protocol.md "Export and
// import"). Its tree of versions becomes branches: every node keeps its place after the node it followed,
// so an edited question and a regenerated answer are siblings as in ChatGPT, and `current_node` is the
// version shown. The user's messages are the user's, the assistant's answers are answers; what the
// assistant did on the way (a call to a tool, its thoughts) and a tool's output are the turn's steps,
// as plain text. System messages and hidden nodes (custom instructions, the empty root) are left out,
// and their children follow the nearest message kept. Content other than text is reduced to its text.
// Pure: nothing here reaches the account, and text never becomes a System item.
import { DEFAULT_TITLE } from "../../core/title-text";
import type { ChatGptContent, ChatGptConversation, ChatGptMessage, Message } from "../../protocol";
import type { ImportedConversation } from "./conversation-tree";

type Draft = { role: "user"; content: string } | { role: "agent"; content: string; phase?: "final" };

/** An assistant's message of these kinds is a step of its turn, not its answer. */
const STEP_TYPES = new Set(["code", "thoughts", "reasoning_recap"]);

export function chatGptConversation(source: ChatGptConversation, now: Date): ImportedConversation | undefined {
  const fallback = isoOf(source.create_time) ?? now.toISOString();
  const { messages, seqOf } = walk(source, fallback);
  if (!messages.length) return undefined;
  const created = isoOf(source.create_time) ?? messages[0]?.created_at ?? fallback;
  const title = source.title?.trim().slice(0, 200);
  return {
    title: title || DEFAULT_TITLE,
    // ChatGPT's model named it (or the user renamed it): the first message or Oracle's model never renames it again.
    title_source: title ? "model" : "default",
    created_at: created,
    updated_at: isoOf(source.update_time) ?? messages.at(-1)?.created_at ?? created,
    pinned: false,
    messages,
    leaf_seq: (source.current_node && seqOf.get(source.current_node)) || messages.length,
  };
}

/**
 * The nodes in tree order (each after the one it follows; siblings in ChatGPT's order, so the newest
 * version comes last), numbered from 1; `seqOf` maps every node reached to its message's seq, or to the
 * nearest earlier message kept when it was left out.
 */
function walk(source: ChatGptConversation, fallbackTime: string) {
  const { mapping } = source;
  const ids = Object.keys(mapping);
  const children = new Map<string, string[]>();
  const roots: string[] = [];
  for (const id of ids) {
    const parent = mapping[id]?.parent;
    if (parent && parent !== id && mapping[parent]) children.set(parent, [...(children.get(parent) ?? []), id]);
    else roots.push(id);
  }
  const messages: Message[] = [];
  const seqOf = new Map<string, number>();
  // Depth first without recursion (a long conversation is a deep tree); a cycle's nodes are never reached.
  const stack = roots.reverse().map((id) => ({ id, parentSeq: 0 }));
  for (let next = stack.pop(); next; next = stack.pop()) {
    const { id, parentSeq } = next;
    if (seqOf.has(id)) continue;
    const message = mapping[id]?.message;
    const draft = message ? toDraft(message) : undefined;
    let seq = parentSeq;
    if (draft && message) {
      seq = messages.length + 1;
      const created_at = isoOf(message.create_time) ?? messages.at(-1)?.created_at ?? fallbackTime;
      messages.push(toMessage(draft, { seq, id, created_at, parent_seq: parentSeq }));
    }
    seqOf.set(id, seq);
    const order = mapping[id]?.children ?? [];
    const below = [...(children.get(id) ?? [])].sort((a, b) => rank(order, a) - rank(order, b));
    for (const child of below.reverse()) stack.push({ id: child, parentSeq: seq });
  }
  return { messages, seqOf };
}

const rank = (order: readonly string[], id: string) => {
  const at = order.indexOf(id);
  return at < 0 ? order.length : at;
};

function toMessage(draft: Draft, envelope: Pick<Message, "seq" | "id" | "created_at" | "parent_seq">): Message {
  if (draft.role === "user") return { ...envelope, role: "user", content: draft.content };
  return draft.phase
    ? { ...envelope, role: "agent", content: draft.content, phase: "final", termination_reason: "completed" }
    : { ...envelope, role: "agent", content: draft.content };
}

/** What a node becomes: a user message, an answer, a step's text, or nothing. */
export function toDraft(message: ChatGptMessage): Draft | undefined {
  if (message.metadata?.is_visually_hidden_from_conversation) return undefined;
  const text = wellFormed(contentText(message.content)).trim();
  if (!text) return undefined;
  const { role, name } = message.author;
  const type = message.content.content_type;
  if (role === "user") return type === "user_editable_context" ? undefined : { role: "user", content: text };
  if (role === "assistant") {
    const step = (message.recipient && message.recipient !== "all") || STEP_TYPES.has(type);
    return step ? { role: "agent", content: text } : { role: "agent", content: text, phase: "final" };
  }
  if (role === "tool") return { role: "agent", content: name ? `${name}:\n\n${text}` : text };
  return undefined;
}

/** The text of a message's content, whatever its type. */
export function contentText(content: ChatGptContent): string {
  const c = content as Record<string, unknown>;
  switch (content.content_type) {
    case "code":
      return fenced(str(c.text), c.language === "unknown" ? "" : str(c.language));
    case "execution_output":
      return fenced(str(c.text));
    case "thoughts":
      return list(c.thoughts)
        .map((t) => [str(t.summary), str(t.content)].filter(Boolean).join("\n\n"))
        .join("\n\n");
    case "tether_browsing_display":
      return str(c.result) || str(c.summary);
    case "tether_quote":
      return [str(c.title), str(c.text), str(c.url)].filter(Boolean).join("\n\n");
    case "user_editable_context":
      return "";
  }
  const parts = Array.isArray(c.parts) ? c.parts.map(partText).filter(Boolean) : [];
  return parts.length ? parts.join("\n\n") : str(c.text) || str(c.result) || str(c.content);
}

/** A part of a message: text, or what stands for an image or a file that did not come along. */
function partText(part: unknown): string {
  if (typeof part === "string") return part;
  if (!part || typeof part !== "object") return "";
  const p = part as Record<string, unknown>;
  if (typeof p.text === "string") return p.text;
  if (p.content_type === "image_asset_pointer") return "[image]";
  return typeof p.content_type === "string" ? "[attachment]" : "";
}

const str = (value: unknown): string => (typeof value === "string" ? value : "");
const list = (value: unknown): Record<string, unknown>[] =>
  Array.isArray(value) ? value.filter((v): v is Record<string, unknown> => !!v && typeof v === "object") : [];

/** A fenced block that no backtick run inside `text` can close early. */
function fenced(text: string, lang = ""): string {
  if (!text) return "";
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = "`".repeat(longest + 1);
  return `${fence}${lang}\n${text}\n${fence}`;
}

/** A half of a surrogate pair alone (a cut export) becomes U+FFFD rather than text D1 cannot keep. */
const wellFormed = (text: string) =>
  text.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, "\uFFFD");

/** Seconds since the epoch (ChatGPT's times) as ISO; undefined for none or nonsense. */
function isoOf(seconds: number | null | undefined): string | undefined {
  if (typeof seconds !== "number" || !Number.isFinite(seconds)) return undefined;
  const date = new Date(seconds * 1000);
  return date.getUTCFullYear() >= 2000 && date.getUTCFullYear() < 10000 ? date.toISOString() : undefined;
}
