// The chat's outbox (client/src/lib/outbox.ts, issue 41): what the user sent and the conversation has
// not confirmed yet, kept per conversation in localStorage (a Map stands in for it here) so a reload
// finds it again; every message gets a client_id the protocol accepts, and nothing is lost when storage
// is refused.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openOutbox, queueFirstMessage } from "../../client/src/lib/outbox";
import { ClientIdSchema } from "../../protocol";

let store: Map<string, string>;
beforeEach(() => {
  store = new Map();
  Object.assign(globalThis, {
    localStorage: {
      getItem: (key: string) => store.get(key) ?? null,
      setItem: (key: string, value: string) => void store.set(key, value),
      removeItem: (key: string) => void store.delete(key),
    },
  });
});
afterEach(() => {
  Reflect.deleteProperty(globalThis, "localStorage");
});

describe("outbox", () => {
  it("keeps messages in order with fresh client_ids, across a reload, until each is removed", () => {
    let changes = 0;
    const outbox = openOutbox("c1", () => changes++);
    outbox.add({ type: "chat", content: "one" });
    outbox.add({ type: "chat", content: "two", agent_max_steps: 3 });
    const [one, two] = outbox.pending;
    expect([one?.content, two?.content, two?.agent_max_steps]).toEqual(["one", "two", 3]);
    expect(ClientIdSchema.safeParse(one?.client_id).success).toBe(true);
    expect(one?.client_id).not.toBe(two?.client_id);
    expect(changes).toBe(2);

    // A reload: the same conversation's outbox reads them back; another conversation's is its own.
    expect(openOutbox("c1").pending).toEqual(outbox.pending);
    expect(openOutbox("c2").pending).toEqual([]);

    outbox.remove("no-such-message");
    expect(changes).toBe(2);
    outbox.remove(one?.client_id ?? "");
    expect(outbox.pending.map((m) => m.content)).toEqual(["two"]);
    outbox.remove(two?.client_id ?? "");
    expect(store.size).toBe(0);
  });

  it("offers the oldest not refused as the next to send", () => {
    const outbox = openOutbox("c1");
    outbox.add({ type: "chat", content: "one" });
    outbox.add({ type: "chat", content: "two" });
    expect(outbox.next()?.content).toBe("one");
    outbox.refused.add(outbox.pending[0]?.client_id ?? "");
    expect(outbox.next()?.content).toBe("two");
  });

  it("holds the home page's first message for the conversation it opens", () => {
    queueFirstMessage("c3", "hello from home");
    expect(openOutbox("c3").pending).toMatchObject([{ type: "chat", content: "hello from home" }]);
  });

  it("reads what is not a list of chat frames as empty, and keeps working where storage is refused", () => {
    store.set("oracle-outbox:c1", "{not json");
    expect(openOutbox("c1").pending).toEqual([]);
    store.set("oracle-outbox:c1", JSON.stringify([{ type: "chat", content: "" }]));
    expect(openOutbox("c1").pending).toEqual([]);

    Object.assign(globalThis, {
      localStorage: {
        getItem: () => {
          throw new Error("refused");
        },
        setItem: () => {
          throw new Error("full");
        },
        removeItem: () => undefined,
      },
    });
    const outbox = openOutbox("c4");
    outbox.add({ type: "chat", content: "kept in this tab" });
    expect(outbox.next()?.content).toBe("kept in this tab");
  });
});
