// The conversation's files as its turns use them (docs/protocol.md "Files"): a message's files claimed
// for the conversation, the System messages its documents bring, the images a request carries (loaded
// before each request and kept, since a file never changes), and the file tools' access.

import type { ImageSource } from "../../../agent/context/model-messages";
import type { ContextBudget } from "../../../agent/context/window";
import type { ConversationFiles } from "../../../agent/files/conversation-files";
import { fileBody } from "../../../agent/files/file-body";
import { FILE_READ_MAX_CHARS } from "../../../core/file-text";
import {
  claimFiles,
  fileLimits,
  readableFiles,
  readFileBytes,
  readFileText,
  storeFile,
  toAttachment,
} from "../../../d1/files";
import { ownerShard } from "../../../d1/shards";
import type { Attachment, Message, MessageDraft } from "../../../protocol";
import type { SocketMeta } from "../sockets/socket-hub";

type SystemDraft = Extract<MessageDraft, { role: "system" }>;

/** A document's text goes whole into the request up to a quarter of the window, at most this. */
const MAX_INLINE_TOKENS = 8_000;
/** Images kept in memory for the requests: past this, the oldest are read again from R2 when needed. */
const MAX_CACHED_IMAGE_BYTES = 48 * 1024 * 1024;

export const inlineTokens = (window: number) => Math.min(MAX_INLINE_TOKENS, Math.floor(window / 4));

export class ConversationFileStore {
  private readonly images = new Map<string, Uint8Array>();
  private cachedBytes = 0;

  constructor(
    private readonly env: Env,
    private readonly meta: SocketMeta,
  ) {}

  private get db() {
    return ownerShard(this.env, this.meta);
  }

  /** Gives the message's files to this conversation; a refusal names the first that is not the user's to attach. */
  async claim(ids: readonly string[]): Promise<Attachment[] | { code: string; message: string }> {
    const claimed = await claimFiles(this.db, this.meta.userId, this.meta.conversationId, ids);
    if ("missing" in claimed) return { code: "invalid_frame", message: `attachments.${claimed.missing}: no such file` };
    return claimed.rows.map(toAttachment);
  }

  /**
   * The System messages documents bring, in their order: their text or their outline. `source`: a user
   * message's ("Files") or the conversation's project's ("Project").
   */
  async documentDrafts(files: readonly Attachment[], window: number, source = "Files"): Promise<SystemDraft[]> {
    const drafts: SystemDraft[] = [];
    for (const file of files) {
      if (file.kind === "image") continue;
      const text = await readFileText(this.env.FILES, this.meta.userId, file.id);
      if (!text) continue;
      const { body, inline } = fileBody(file, text, inlineTokens(window));
      drafts.push({
        role: "system",
        source,
        severity: "info",
        item: { kind: "file_attachment", path: file.name, body, file, inline },
      });
    }
    return drafts;
  }

  /** Reads the images the path's messages carry that are not in memory yet (before each model request). */
  async loadImages(messages: readonly Message[]): Promise<void> {
    const wanted = messages.flatMap((m) =>
      m.role === "user" ? (m.attachments ?? []).filter((a) => a.kind === "image" && !this.images.has(a.id)) : [],
    );
    await Promise.all(
      wanted.map(async (file) => {
        const object = await readFileBytes(this.env.FILES, this.meta.userId, file.id);
        if (object) this.keep(file.id, new Uint8Array(await object.arrayBuffer()));
      }),
    );
  }

  private keep(id: string, bytes: Uint8Array): void {
    this.images.set(id, bytes);
    this.cachedBytes += bytes.length;
    for (const [old, kept] of this.images) {
      if (this.cachedBytes <= MAX_CACHED_IMAGE_BYTES || old === id) break;
      this.images.delete(old);
      this.cachedBytes -= kept.length;
    }
  }

  imageSource(see: boolean): ImageSource {
    return { see, bytes: (id) => this.images.get(id) };
  }

  /** What the file tools reach: this conversation's files and its project's; a read fits one message of `budget`. */
  access(budget: ContextBudget): ConversationFiles {
    const { env, meta } = this;
    const list = async () => (await readableFiles(this.db, meta.userId, meta.conversationId)).map(toAttachment);
    return {
      // A token of the estimate is 3 bytes at most; most text is 1 byte a character.
      readChars: Math.min(FILE_READ_MAX_CHARS, Math.floor(budget.message * 2.5)),
      list,
      text: async (ref) => {
        const files = await list();
        const file = files.find((f) => f.id === ref) ?? files.findLast((f) => f.name === ref);
        if (!file || file.kind === "image") return undefined;
        const text = await readFileText(env.FILES, meta.userId, file.id);
        return text && { file, text };
      },
      create: async (name, text) => {
        const sniffed = { kind: "text" as const, content_type: "text/markdown" };
        const file = { userId: meta.userId, conversationId: meta.conversationId, name, sniffed, text: { text } };
        const bytes = new TextEncoder().encode(text);
        const row = await storeFile(this.db, env.FILES, { ...file, bytes }, fileLimits(env).maxTotalBytes);
        if (!row) throw new Error("The user's files are full: there is no room for another file");
        return toAttachment(row);
      },
    };
  }
}
