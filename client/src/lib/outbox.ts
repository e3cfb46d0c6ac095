// A first message typed on the home page, before its conversation exists: home creates (or reuses) the
// conversation, queues the text here and navigates; the chat sends it once its socket is connected.
const queued = new Map<string, string>();

export function queueFirstMessage(conversationId: string, content: string): void {
  queued.set(conversationId, content);
}

/** The queued text for this conversation, removed as it is taken (so it is sent once). */
export function takeQueuedMessage(conversationId: string): string | undefined {
  const content = queued.get(conversationId);
  queued.delete(conversationId);
  return content;
}
