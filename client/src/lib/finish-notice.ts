// A turn ended while this tab was in the background (use-conversation-socket.ts loads this module then,
// and only where the user turned notifications on): one notification, saying only that an answer is
// ready unless the user chose to see its text (docs/protocol.md "Finish notifications"). A tab that is
// closed gets a web push instead, from the server (durable-objects/conversation/turn/finish-push.ts).
import { z } from "zod";
import { ConversationSchema, MessageSchema, type TerminationReason } from "../../../protocol";
import { answerText, finishNotice, noticeWorthy } from "../../../protocol/push";
import { requestJson } from "./api";
import { notifyChoices, notifyPermission, showNotice } from "./device-notifications";

const MessagesSchema = z.object({ messages: z.array(MessageSchema) });

/** The title and the final answer, read only where the user chose to see them. */
async function content(conversationId: string, lastSeq: number): Promise<{ title?: string; answer?: string }> {
  const path = `/api/conversations/${encodeURIComponent(conversationId)}`;
  const [detail, recent] = await Promise.all([
    requestJson(path, ConversationSchema),
    // The final answer is among the turn's last messages (notifications at its end may follow it).
    requestJson(`${path}/messages?after=${Math.max(0, lastSeq - 50)}&limit=1000`, MessagesSchema),
  ]);
  const answer = recent.ok
    ? recent.data.messages.findLast((m) => m.role === "agent" && m.phase === "final")
    : undefined;
  return {
    title: detail.ok ? detail.data.title : undefined,
    answer: answer?.role === "agent" ? answerText(answer) : undefined,
  };
}

export async function noticeTurnEnded(
  conversationId: string,
  reason: TerminationReason,
  lastSeq: number,
): Promise<void> {
  const choices = notifyChoices();
  if (!choices.on || !noticeWorthy(reason) || notifyPermission() !== "granted") return;
  const shown = choices.content ? await content(conversationId, lastSeq) : {};
  await showNotice(finishNotice({ conversation_id: conversationId, reason, ...shown }, choices.content));
}
