// An in-memory conversation log for benchmarks that run the loop in Node: seq, id, time and parent as
// the object gives them, and the notifier the object would attach (every subscriber on). Like the
// object's log it is a tree: `path()` is what the model reads, and `moveLeaf` starts a branch (an edit
// or a regenerate) from an earlier message.
import { BusNotifier } from "../../agent/notifications/notifier";
import type { Message, MessageDraft } from "../../protocol";

export function memoryLog() {
  const log: Message[] = [];
  let leaf = 0;
  let path: Message[] = [];
  const append = async (draft: MessageDraft) => {
    const seq = log.length + 1;
    const message = {
      ...draft,
      seq,
      id: String(seq),
      created_at: new Date().toISOString(),
      parent_seq: leaf,
    } as Message;
    log.push(message);
    path.push(message);
    leaf = seq;
    return message;
  };
  const moveLeaf = (seq: number) => {
    leaf = seq;
    path = [];
    for (let at = log[seq - 1]; at; at = log[(at.parent_seq ?? 0) - 1]) path.push(at);
    path.reverse();
  };
  return {
    log,
    append,
    path: () => path,
    moveLeaf,
    notifier: new BusNotifier({ append, enabledFilter: async () => () => true }),
  };
}
