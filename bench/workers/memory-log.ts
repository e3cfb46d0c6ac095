// An in-memory conversation log for benchmarks that run the loop in Node: seq, id and time as the
// object gives them, and the notifier the object would attach (every subscriber on).
import { BusNotifier } from "../../agent/notifications/notifier";
import type { Message, MessageDraft } from "../../protocol";

export function memoryLog() {
  const log: Message[] = [];
  const append = async (draft: MessageDraft) => {
    const message = {
      ...draft,
      seq: log.length + 1,
      id: String(log.length + 1),
      created_at: new Date().toISOString(),
    } as Message;
    log.push(message);
    return message;
  };
  return { log, append, notifier: new BusNotifier({ append, enabledFilter: async () => () => true }) };
}
