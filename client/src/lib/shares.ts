// Share links over the routes of docs/protocol.md "Share links" (protocol/share.ts): create, list and
// revoke the user's links, read a shared snapshot (no account needed) and fork it. Also the words the
// UI uses for a link: its absolute address, what it includes, and a failure a person can act on.
import {
  type Conversation,
  ConversationSchema,
  type Share,
  type SharedConversation,
  SharedConversationSchema,
  ShareSchema,
  SharesResponseSchema,
} from "../../../protocol";
import { type ApiError, type ApiResult, requestEmpty, requestJson } from "./api";
import { durationInWords } from "./time-left";

export type { Share, SharedConversation };

export type ShareOptions = { include_system: boolean; include_tools: boolean; include_files?: boolean };

export function createShare(conversationId: string, options: ShareOptions): Promise<ApiResult<Share>> {
  return requestJson(`/api/conversations/${encodeURIComponent(conversationId)}/shares`, ShareSchema, "POST", options);
}

export async function listShares(): Promise<ApiResult<Share[]>> {
  const result = await requestJson("/api/shares", SharesResponseSchema);
  return result.ok ? { ok: true, data: result.data.shares } : result;
}

export function revokeShare(id: string): Promise<ApiResult<null>> {
  return requestEmpty(`/api/shares/${encodeURIComponent(id)}`, "DELETE");
}

export function loadShared(id: string): Promise<ApiResult<SharedConversation>> {
  return requestJson(`/api/shared/${encodeURIComponent(id)}`, SharedConversationSchema);
}

export function forkShared(id: string): Promise<ApiResult<Conversation>> {
  return requestJson(`/api/shared/${encodeURIComponent(id)}/fork`, ConversationSchema, "POST");
}

/** The link as it is pasted elsewhere: this origin and the share's path. */
export function shareAddress(share: Pick<Share, "url">): string {
  return new URL(share.url, location.origin).href;
}

/** The page of a share id: `/s/<id>`. */
export function sharedPath(id: string): string {
  return `/s/${encodeURIComponent(id)}`;
}

/** What a link shows besides the conversation's messages, in a few words. */
export function shareIncludes({ include_system, include_tools, include_files }: ShareOptions): string {
  const parts = [include_system && "system messages", include_tools && "tool details", include_files && "files"].filter(
    (part): part is string => !!part,
  );
  if (parts.length === 0) return "Messages only";
  const last = parts.pop();
  return `With ${parts.length ? `${parts.join(", ")} and ${last}` : last}`;
}

/** A day and time the reader's locale writes: "12 Mar 2026, 14:05". */
export function shareDate(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime())
    ? iso
    : date.toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });
}

/** A share route's failure in words a person can act on; a 429 says when to try again. */
export function explainShareError(error: ApiError, doing: string): string {
  if (error.status === 0) return `Could not ${doing}: the server cannot be reached. Check your connection.`;
  if (error.status === 401) return `Could not ${doing}: you are signed out. Sign in again.`;
  if (error.status === 404) return `Could not ${doing}: it no longer exists.`;
  if (error.status === 429) {
    const wait = error.retryAfterSeconds;
    return `Could not ${doing}: too many at once. Try again ${wait ? `in ${durationInWords(wait)}` : "later"}.`;
  }
  if (error.status >= 500) return `Could not ${doing}: something went wrong on the server. Try again.`;
  return `Could not ${doing}: ${error.message}`;
}
