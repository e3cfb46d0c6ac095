// External triggers (POST …/notify) that were accepted but not yet delivered, kept in the object's
// storage: the route answers 202 only once the trigger is here, so a crash after the 202 loses
// nothing. A trigger leaves the inbox once the notification that carries it is in the log (its
// `trigger_ids` say so), which is also how a restarted object delivers each one exactly once.
import type { BusEvent } from "../../../protocol";

const PREFIX = "notify:";

export class NotifyInbox {
  constructor(private readonly storage: DurableObjectStorage) {}

  async add(event: BusEvent): Promise<void> {
    await this.storage.put(`${PREFIX}${event.id}`, event);
  }

  async remove(ids: readonly string[]): Promise<void> {
    if (ids.length) await this.storage.delete(ids.map((id) => `${PREFIX}${id}`));
  }

  /**
   * After a restart: the triggers still waiting that no persisted notification carries, oldest
   * first. Those the log already has (the object died between the two writes) are removed.
   */
  async undelivered(deliveredIds: () => Set<string>): Promise<BusEvent[]> {
    const waiting = [...(await this.storage.list<BusEvent>({ prefix: PREFIX })).values()];
    if (!waiting.length) return [];
    const delivered = deliveredIds();
    await this.remove(waiting.filter((e) => delivered.has(e.id)).map((e) => e.id));
    return waiting.filter((e) => !delivered.has(e.id)).sort((a, b) => a.ts.localeCompare(b.ts));
  }
}
