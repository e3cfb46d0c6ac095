// Names the conversation once, after its first answer: the model writes a short title
// (agent/conversation-title.ts) that replaces the first message's, unless the user renamed it (the
// rules: d1/titles.ts). It runs after the turn has ended (its `response_complete` already sent), in the
// background the object keeps alive with waitUntil, so it never delays a turn's frames or its end. A
// failed call changes nothing and is not shown; the open tabs learn of a new title by a
// `conversation_title` frame.
import { firstExchange, generateTitle, TITLE_TIMEOUT_MS } from "../../../agent/conversation-title";
import { type LlmSettings, llmSettings } from "../../../agent/llm/config";
import { languageModel } from "../../../agent/llm/model";
import { deadline } from "../../../core/deadline";
import { ownerShard } from "../../../d1/shards";
import { titleSourceOf, writeModelTitle } from "../../../d1/titles";
import type { Message } from "../../../protocol";
import { readState, writeState } from "../log/local-tables";
import type { ConversationFrames } from "../sockets/frame-port";
import type { SocketMeta } from "../sockets/socket-hub";

/** Set once the title was asked for: it is asked for once per conversation. */
const TITLE_ASKED = "title_asked";

export class ConversationTitles {
  constructor(
    private readonly ctx: DurableObjectState,
    private readonly env: Env,
    private readonly meta: SocketMeta,
    private readonly io: { messages(): readonly Message[]; frames: ConversationFrames },
  ) {}

  /** A user's turn ended: after the conversation's first answer, the model names it (once, in the background). */
  afterTurn(llm: LlmSettings | undefined): void {
    const sql = this.ctx.storage.sql;
    if (readState(sql, TITLE_ASKED)) return;
    const exchange = firstExchange(this.io.messages());
    if (!exchange) return; // no answer yet (the model call failed): a later turn asks
    writeState(sql, TITLE_ASKED, new Date().toISOString());
    this.ctx.waitUntil(
      this.write(exchange.question, exchange.answer, llm ?? llmSettings(this.env)).catch((error) => {
        console.warn("conversation title: not written", this.meta.conversationId, error);
      }),
    );
  }

  private async write(question: string, answer: string, llm: LlmSettings): Promise<void> {
    const { conversationId, userId } = this.meta;
    const source = await titleSourceOf(ownerShard(this.env, this.meta), conversationId, userId);
    // Renamed by the user (or gone): no request at all.
    if (source !== "default" && source !== "first_message") return;
    // The conversation's own model (the demo model answers with a summary of the first message).
    const model = languageModel(llm);
    const limit = deadline(TITLE_TIMEOUT_MS, "the title took too long");
    const title = await generateTitle(model, question, answer, limit.signal).finally(() => {
      limit.clear();
      // The title's use of the operator's model counts like any call.
      void llm.meter?.flush();
    });
    if (!title) return;
    if (await writeModelTitle(ownerShard(this.env, this.meta), conversationId, userId, title))
      this.io.frames.send({ type: "conversation_title", conversation_id: conversationId, title });
  }
}
