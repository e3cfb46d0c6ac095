// What a conversation starts from, as its object writes it (docs/protocol.md "Projects, instructions and
// memory"): before a message, the `context` item when there is none yet or the user's instructions or
// the project changed (agent/projects/context-item.ts), then the project's documents the path has not
// had yet, like a message's attachments, and the library entries and note folders it includes. Read with
// the turn's settings (one D1 round trip); what the project includes, when a context item is written.
import { contextDraft, PROJECT_FILES_SOURCE } from "../../../agent/projects/context-item";
import type { MemoryScope } from "../../../agent/projects/memory-scope";
import { resolveIncluded } from "../../../agent/references/resolve";
import { toAttachment } from "../../../d1/files";
import { includesOf } from "../../../d1/projects";
import type { TurnContextRead } from "../../../d1/user-settings";
import type { Message, MessageDraft } from "../../../protocol";
import type { ConversationFileStore } from "../files/conversation-file-store";

type SystemDraft = Extract<MessageDraft, { role: "system" }>;

/** Memory is on: the operator's MEMORY, the user's switch and the project's. */
export const memoryOn = (env: Pick<Env, "MEMORY">, context: TurnContextRead): boolean =>
  env.MEMORY !== "off" && context.instructions.memory && (context.project?.memory ?? true);

/** The memory tool's scope in a conversation: its project, and the message the turn answers. */
export function memoryScope(projectId: string | null, messages: () => readonly Message[]): MemoryScope {
  return { projectId, sourceSeq: () => messages().findLast((m) => m.role === "user")?.seq ?? null };
}

const lastContext = (path: readonly Message[]) => {
  const found = path.findLast((m) => m.role === "system" && m.item.kind === "context");
  return found?.role === "system" && found.item.kind === "context" ? found.item : undefined;
};

/** The files the path already reads (a document's System message): the project's are added once. */
const filesRead = (path: readonly Message[]) =>
  new Set(
    path.flatMap((m) =>
      m.role === "system" && m.item.kind === "file_attachment" && m.item.file ? [m.item.file.id] : [],
    ),
  );

/**
 * The System messages to write before a user's message: the context item and the project's new documents,
 * or nothing when the context is as the path last had it.
 */
export async function contextDrafts(
  env: Pick<Env, "MEMORY">,
  owner: { db: D1Database; userId: string },
  read: TurnContextRead,
  path: readonly Message[],
  window: () => Promise<number>,
  files: ConversationFileStore,
): Promise<SystemDraft[]> {
  const { instructions, project } = read;
  const on = memoryOn(env, read);
  const projectFiles = project ? read.projectFiles.map(toAttachment) : [];
  const includes = includesOf(project?.includes);
  const context = {
    instructions: { about: instructions.about, style: instructions.style },
    ...(project
      ? { project: { id: project.id, name: project.name, instructions: project.instructions, ...includes } }
      : {}),
    files: projectFiles,
    memories: on ? read.memories.map((m) => ({ id: m.id, text: m.text, project: m.projectId !== null })) : [],
    memoryOn: on,
  };
  const firstMessage = !path.some((m) => m.role === "user");
  const draft = contextDraft(context, lastContext(path), firstMessage);
  if (!draft) return [];
  const known = filesRead(path);
  const fresh = projectFiles.filter((f) => !known.has(f.id));
  const documents = fresh.length ? await files.documentDrafts(fresh, await window(), PROJECT_FILES_SOURCE) : [];
  // The library entries and note folders it includes, as the user's `#slug` and `@folder/` would bring them.
  const included = project ? await resolveIncluded(owner.db, owner.userId, includes) : [];
  return [draft, ...documents, ...included.map((d) => ({ ...d, source: PROJECT_FILES_SOURCE }))];
}
