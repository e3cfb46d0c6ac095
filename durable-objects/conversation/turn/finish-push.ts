// A user's turn ended and no tab is open on the conversation (a scheduled run, or a long turn whose
// tab was closed): each of the user's browsers that subscribed to web push gets a notification
// (docs/protocol.md "Finish notifications"). With a tab open, that tab notifies its user itself when
// it is in the background (client/src/lib/finish-notice.ts), so nothing is pushed then. Sent after the
// turn's end in the background (waitUntil), never holding it back; a subscription the push service
// says is gone is forgotten. What a notification says holds no content unless that device chose it.
import { vapidKeys } from "../../../core/vapid";
import { database } from "../../../d1/client";
import { findOwnConversation } from "../../../d1/conversations";
import { forgetPushEndpoint, livePushSubscriptions } from "../../../d1/push-subscriptions";
import { ownerShard } from "../../../d1/shards";
import { guardedFetch, outboundPolicy } from "../../../outbound/policy";
import { sendWebPush } from "../../../outbound/web-push";
import type { Message, TerminationReason } from "../../../protocol";
import { answerText, finishNotice, noticeWorthy } from "../../../protocol/push";
import type { SocketMeta } from "../sockets/socket-hub";

export class FinishPush {
  constructor(
    private readonly ctx: DurableObjectState,
    private readonly env: Env,
    private readonly meta: SocketMeta,
    private readonly io: { messages(): readonly Message[] },
  ) {}

  /** A user's turn ended this way (undefined: it failed outside the loop). */
  afterTurn(reason: TerminationReason | undefined): void {
    // A tab open on it tells its user itself.
    if (!reason || !noticeWorthy(reason) || this.ctx.getWebSockets().length > 0) return;
    const answer = lastAnswer(this.io.messages());
    this.ctx.waitUntil(
      this.send(reason, answer).catch((error) =>
        console.error("ConversationObject", this.ctx.id.toString(), "finish push", error),
      ),
    );
  }

  private async send(reason: TerminationReason, answer: string): Promise<void> {
    const keys = await vapidKeys(this.env);
    if (!keys) return;
    const { userId, conversationId } = this.meta;
    const targets = await livePushSubscriptions(ownerShard(this.env, this.meta), userId);
    if (!targets.length) return;
    const title = targets.some((t) => t.showContent)
      ? (await findOwnConversation(database(ownerShard(this.env, this.meta)), userId, conversationId))?.title
      : undefined;
    const fetcher = guardedFetch(outboundPolicy(this.env));
    const turn = { conversation_id: conversationId, reason, title, answer };
    const topic = conversationId.replaceAll("-", "");
    await Promise.all(
      targets.map(async (target) => {
        const message = JSON.stringify(finishNotice(turn, target.showContent));
        if ((await sendWebPush(fetcher, target, message, keys, topic)) === "gone")
          await forgetPushEndpoint(ownerShard(this.env, this.meta), userId, target.endpoint);
      }),
    );
  }
}

/** The turn's final answer on the current path, without its note. */
function lastAnswer(messages: readonly Message[]): string {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i];
    if (m?.role === "agent" && m.phase === "final") return answerText(m);
    if (m?.role === "user") break;
  }
  return "";
}
