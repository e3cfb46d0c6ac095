// What a conversation starts from (docs/protocol.md "Projects, instructions and memory"): the user's
// custom instructions, the project it is in with its instructions and files, and the memories of its
// scope, as one `context` System item. The item is written once before the first message and replayed
// byte-identical, so the request's prefix never changes under the conversation; a change of the
// instructions or the project is a new item before the next message (an update), never an edit.
// Everything in it is the user's own text (or the agent's memory of it): reminder tags are defused.
import type { Attachment, Message, MessageDraft } from "../../protocol";
import { MAX_APPLIED_MEMORIES } from "../../protocol/projects";
import { fileHeader } from "../files/file-body";
import { neutralizeReminders } from "../system-items/forgery";

type SystemDraft = Extract<MessageDraft, { role: "system" }>;

export const CONTEXT_SOURCE = "Context";
/** The source of the System messages of what a project includes (files, library entries, note folders), after the context item. */
export const PROJECT_FILES_SOURCE = "Project";

/**
 * What the user told the agent about themselves and their project (the context item, the project's
 * documents): theirs, so a share link never shows it.
 */
export const isPersonalContext = (m: Message): boolean =>
  m.role === "system" && (m.item.kind === "context" || m.source === PROJECT_FILES_SOURCE);

export interface ContextMemory {
  id: string;
  text: string;
  /** Belongs to the project rather than to every conversation of the user's. */
  project: boolean;
}

export interface ConversationContext {
  instructions: { about: string; style: string };
  /** `knowledge` and `notes`: the library entries and note folders it includes (their text follows the item). */
  project?: { id: string; name: string; instructions: string; knowledge: string[]; notes: string[] };
  /** The project's files. */
  files: readonly Attachment[];
  /** Newest first; more than MAX_APPLIED_MEMORIES are cut (and said so). */
  memories: readonly ContextMemory[];
  /** The memory tool is on here (the user's and the project's switches). */
  memoryOn: boolean;
}

/**
 * What a later turn compares against: the instructions, the project and its files. Memories are not in
 * it: a conversation keeps the memories it started with (what it saves itself, it already knows).
 */
export function contextKey(context: ConversationContext): string {
  const { instructions, project, files } = context;
  if (!instructions.about && !instructions.style && !project) return "";
  return JSON.stringify([instructions.about, instructions.style, project ?? null, files.map((f) => f.id)]);
}

function section(title: string, text: string): string[] {
  return text ? [title, text, ""] : [];
}

function memoryLines(context: ConversationContext): string[] {
  if (!context.memoryOn) return [];
  const shown = context.memories.slice(0, MAX_APPLIED_MEMORIES);
  const lines = [
    "[Memory: what you remembered of the user before this conversation]",
    ...shown.map((m) => `- ${m.id}${m.project ? " (project)" : ""}: ${m.text}`),
  ];
  if (!shown.length) lines.push("(nothing yet)");
  if (context.memories.length > shown.length) lines.push("(older memories are left out)");
  lines.push(
    "When the user tells you something about themselves or their work worth keeping for later conversations, save it with the memory tool; update or forget a memory that is no longer true. Never save secrets.",
    "",
  );
  return lines;
}

/** The body the model reads: fixed when written, replayed as it is. */
export function contextBody(context: ConversationContext, update: boolean): string {
  const { instructions, project, files } = context;
  const lines: string[] = [
    update
      ? "[Context changed: from this message on, this replaces the context given earlier]"
      : "[Context: what the user asked you to keep in mind; follow it unless they say otherwise in this conversation]",
    "",
    ...section("About the user:", instructions.about),
    ...section("How the user wants you to answer:", instructions.style),
  ];
  if (project) {
    lines.push(`[Project: ${project.name}] This conversation belongs to the user's project "${project.name}".`);
    lines.push(...section("The project's instructions:", project.instructions));
    if (files.length)
      lines.push(
        "The project's files (read them with file_read, search them with file_search):",
        ...files.map((f) => `- ${fileHeader(f)}`),
        "",
      );
    const included = [...project.knowledge.map((slug) => `#${slug}`), ...project.notes.map((path) => `@${path}/`)];
    if (included.length)
      lines.push(`It includes, from the user's library and notes (each follows): ${included.join(", ")}`, "");
  }
  lines.push(...memoryLines(context));
  return neutralizeReminders(lines.join("\n").trimEnd());
}

/**
 * The context item a turn writes before its message: none when nothing changed since the last one on
 * the path (or, at the start, when there is nothing to tell).
 */
export function contextDraft(
  context: ConversationContext,
  last: { key: string } | undefined,
  firstMessage: boolean,
): SystemDraft | undefined {
  const key = contextKey(context);
  if (last ? last.key === key : key === "" && !(firstMessage && context.memoryOn && context.memories.length))
    return undefined;
  // Where there is no earlier item, a conversation that already has messages hears of it as a change.
  const update = !firstMessage;
  const { instructions, project, files } = context;
  const memories = context.memoryOn ? Math.min(context.memories.length, MAX_APPLIED_MEMORIES) : 0;
  return {
    role: "system",
    source: CONTEXT_SOURCE,
    severity: "info",
    item: {
      kind: "context",
      body: contextBody(context, update),
      key,
      ...(update ? { update } : {}),
      ...(instructions.about || instructions.style ? { instructions: true } : {}),
      ...(project ? { project: { id: project.id, name: project.name } } : {}),
      ...(memories ? { memories } : {}),
      ...(project && files.length ? { files: files.length } : {}),
    },
  };
}
