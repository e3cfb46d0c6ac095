// The chat's outbox (client/src/lib/outbox.ts, issue 41): what the user sent and the conversation has
// not confirmed yet, kept per conversation in localStorage (a stand-in here, its items own properties
// as in a browser) so a reload finds it again; every message gets a client_id the protocol accepts,
// two tabs do not drop each other's, nothing is lost when storage is refused, and signing out forgets.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { forgetOutboxes, openOutbox, queueFirstMessage, rememberFiles, storedFiles } from "../../client/src/lib/outbox";
import { type Attachment, ChatFrameSchema, ClientIdSchema } from "../../protocol";

class FakeStorage {
  [key: string]: unknown;
  getItem(key: string): string | null {
    return Object.hasOwn(this, key) ? String(this[key]) : null;
  }
  setItem(key: string, value: string): void {
    this[key] = value;
  }
  removeItem(key: string): void {
    delete this[key];
  }
}

let store: FakeStorage;
beforeEach(() => {
  store = new FakeStorage();
  Object.assign(globalThis, { localStorage: store });
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
    expect(Object.keys(store)).toEqual([]);
  });

  it("keeps what another tab of the conversation added, and each tab sends what it holds", () => {
    const tabA = openOutbox("c1");
    const tabB = openOutbox("c1");
    tabA.add({ type: "chat", content: "from A" });
    tabB.add({ type: "chat", content: "from B" });
    expect(tabB.pending.map((m) => m.content)).toEqual(["from B"]);
    expect(openOutbox("c1").pending.map((m) => m.content)).toEqual(["from B", "from A"]);
    tabA.remove(tabA.pending[0]?.client_id ?? "");
    expect(openOutbox("c1").pending.map((m) => m.content)).toEqual(["from B"]);
  });

  it("forgets every conversation's outbox at sign-out, and nothing else", () => {
    openOutbox("c1").add({ type: "chat", content: "one" });
    openOutbox("c2").add({ type: "chat", content: "two" });
    store.setItem("oracle-theme", "dark");
    forgetOutboxes();
    expect(Object.keys(store)).toEqual(["oracle-theme"]);
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
    store.setItem("oracle-outbox:c1", "{not json");
    expect(openOutbox("c1").pending).toEqual([]);
    store.setItem("oracle-outbox:c1", JSON.stringify([{ type: "chat", content: "" }]));
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

describe("the outbox's files", () => {
  it("queues a first message of files only, as a frame the protocol accepts, and remembers what they are", () => {
    const png: Attachment = { id: "f9", name: "chart.png", content_type: "image/png", kind: "image", size: 10 };
    queueFirstMessage("c1", "", [png]);
    const stored = JSON.parse(String(localStorage.getItem("oracle-outbox:c1")));
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({ type: "chat", content: "", attachments: ["f9"] });
    expect(ChatFrameSchema.safeParse(stored[0]).success).toBe(true);
    expect(storedFiles()).toEqual([png]);
  });

  it("keeps the newest few dozen files, each once", () => {
    const make = (i: number): Attachment => ({
      id: `f${i}`,
      name: `${i}.txt`,
      content_type: "text/plain",
      kind: "text",
      size: i,
    });
    for (let i = 0; i < 60; i++) rememberFiles([make(i)]);
    rememberFiles([make(59)]);
    const kept = storedFiles();
    expect(kept).toHaveLength(50);
    expect(kept[0]?.id).toBe("f10");
    expect(kept.at(-1)?.id).toBe("f59");
  });
});
