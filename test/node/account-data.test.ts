// The pure parts of taking an account along and bringing it back (worker/account-data/): a ChatGPT
// conversation's tree of versions as Oracle branches, an imported log numbered afresh, a large JSON
// array read one element at a time, a zip read one file at a time, and the names an import gives what
// would land on something the account holds. The routes themselves: test/workers/account-data.test.ts.
import { deflateSync, strToU8, zipSync } from "fflate";
import { describe, expect, it } from "vitest";
import type { ChatGptConversation, Message } from "../../protocol";
import { ChatGptConversationSchema } from "../../protocol";
import { chatGptConversation, contentText } from "../../worker/account-data/chatgpt";
import { numberLog, pathTo } from "../../worker/account-data/conversation-tree";
import { freeNotePath, freeSlug } from "../../worker/account-data/free-names";
import { jsonArrayElements } from "../../worker/account-data/json-array";
import { isZip, ZipProblem, zipEntries } from "../../worker/account-data/zip-reader";
import fixture from "../support/chatgpt-conversations.json";

const now = new Date("2026-01-01T00:00:00Z");
const [packing, fibonacci] = (fixture as unknown[]).map((c) => ChatGptConversationSchema.parse(c)) as [
  ChatGptConversation,
  ChatGptConversation,
];
const shape = (messages: Message[]) =>
  messages.map((m) => ({
    seq: m.seq,
    parent: m.parent_seq,
    role: m.role,
    text: m.role === "user" || m.role === "agent" ? m.content : "",
    final: m.role === "agent" ? m.phase === "final" : undefined,
  }));

describe("a ChatGPT conversation as an Oracle one", () => {
  it("keeps a regenerated answer as a sibling branch and shows current_node's version", () => {
    const imported = chatGptConversation(packing, now);
    expect(imported).toMatchObject({
      title: "Packing for Lisbon",
      title_source: "model",
      created_at: "2024-05-01T08:00:00.123Z",
      updated_at: "2024-05-01T08:05:00.456Z",
      leaf_seq: 5,
    });
    // The hidden system node and the empty root are left out: the first question follows nothing.
    expect(shape(imported?.messages ?? [])).toEqual([
      { seq: 1, parent: 0, role: "user", text: "What should I pack for four days in Lisbon in May?", final: undefined },
      { seq: 2, parent: 1, role: "agent", text: "Light layers, a rain jacket and comfortable shoes.", final: true },
      { seq: 3, parent: 2, role: "user", text: "[image]\n\nAnd for the evenings, with this jacket?", final: undefined },
      { seq: 4, parent: 3, role: "agent", text: "A light sweater goes well with it.", final: true },
      {
        seq: 5,
        parent: 1,
        role: "agent",
        text: "Pack layers: T-shirts, a light jacket, walking shoes and a small umbrella.",
        final: true,
      },
    ]);
    expect(imported?.messages[1]).toMatchObject({
      created_at: "2024-05-01T08:00:05.250Z",
      termination_reason: "completed",
    });
    expect(pathTo(imported?.messages ?? [], 5).map((m) => m.seq)).toEqual([1, 5]);
  });

  it("keeps an edited question as a sibling, and a tool's call and output as the turn's steps", () => {
    const imported = chatGptConversation(fibonacci, now);
    expect(imported?.leaf_seq).toBe(6);
    const messages = imported?.messages ?? [];
    expect(shape(messages).map(({ seq, parent, role, final }) => [seq, parent, role, final])).toEqual([
      [1, 0, "user", undefined],
      [2, 1, "agent", true],
      [3, 0, "user", undefined],
      [4, 3, "agent", false],
      [5, 4, "agent", false],
      [6, 5, "agent", true],
    ]);
    expect(messages[3]).toMatchObject({ content: expect.stringMatching(/^```python\ndef fib\(n\):/) });
    expect(messages[4]).toMatchObject({ content: "python:\n\n```\n55\n```" });
    expect(messages.every((m) => m.role === "user" || m.role === "agent")).toBe(true);
  });

  it("shows the nearest message kept when current_node is a node left out, and leaves out what holds nothing", () => {
    const hiddenNode = { ...packing.mapping["sys-1"], parent: "a-3", children: [] };
    const mapping = {
      ...packing.mapping,
      hidden: hiddenNode,
      "a-3": { ...packing.mapping["a-3"], children: ["hidden"] },
    };
    const hidden = ChatGptConversationSchema.parse({ ...packing, mapping, current_node: "hidden" });
    expect(chatGptConversation(hidden, now)?.leaf_seq).toBe(4);
    // Before any message kept, or unknown: the newest message.
    expect(chatGptConversation({ ...packing, current_node: "sys-1" }, now)?.leaf_seq).toBe(5);
    expect(chatGptConversation({ ...packing, current_node: "nowhere" }, now)?.leaf_seq).toBe(5);
    const onlySystem = {
      mapping: { root: { message: null, parent: null, children: ["s"] }, s: packing.mapping["sys-1"] },
      current_node: "s",
    };
    expect(chatGptConversation(ChatGptConversationSchema.parse(onlySystem), now)).toBeUndefined();
    // No title: the default one, which the first message then names.
    const untitled = chatGptConversation({ ...packing, title: null }, now);
    expect(untitled).toMatchObject({ title: "New conversation", title_source: "default" });
  });

  it("survives a cycle in the tree and a parent that is not there", () => {
    const mapping = {
      a: { message: null, parent: "b", children: ["b"] },
      b: { message: null, parent: "a", children: ["a"] },
      u: { ...packing.mapping["u-1"], parent: "gone", children: [] },
    };
    const imported = chatGptConversation(ChatGptConversationSchema.parse({ mapping }), now);
    expect(shape(imported?.messages ?? []).map((m) => [m.seq, m.parent, m.role])).toEqual([[1, 0, "user"]]);
  });

  it("reduces content other than text to its text", () => {
    expect(contentText({ content_type: "thoughts", thoughts: [{ summary: "Plan", content: "First, …" }] })).toBe(
      "Plan\n\nFirst, …",
    );
    expect(contentText({ content_type: "tether_quote", title: "Docs", text: "Quoted.", url: "https://x.test" })).toBe(
      "Docs\n\nQuoted.\n\nhttps://x.test",
    );
    expect(contentText({ content_type: "execution_output", text: "has ``` inside" })).toBe(
      "````\nhas ``` inside\n````",
    );
    expect(
      contentText({ content_type: "something_new", parts: ["kept", { content_type: "audio_asset_pointer" }] }),
    ).toBe("kept\n\n[attachment]");
    expect(contentText({ content_type: "user_editable_context", user_profile: "secret-ish" })).toBe("");
  });
});

const message = (seq: number, parent_seq: number | undefined, extra: Partial<Message> = {}) =>
  ({
    seq,
    id: `m${seq}`,
    created_at: "2026-01-01T00:00:00.000Z",
    parent_seq,
    role: "user",
    content: `m${seq}`,
    ...extra,
  }) as Message;

describe("an imported log numbered afresh", () => {
  it("numbers 1…n in order, parents and the leaf with them, and a compaction's reach", () => {
    const compaction = {
      role: "system",
      source: "Context",
      severity: "info",
      item: {
        kind: "compaction",
        body: "summary",
        through_seq: 25,
        tokens_before: 9,
        tokens_after: 3,
        method: "summary",
      },
    } as Partial<Message>;
    const numbered = numberLog([message(30, 20, compaction), message(10, 0), message(20, 10), message(25, 10)], 25);
    expect("problem" in numbered).toBe(false);
    if ("problem" in numbered) return;
    expect(numbered.messages.map((m) => [m.seq, m.parent_seq, m.role === "user" ? m.content : "c"])).toEqual([
      [1, 0, "m10"],
      [2, 1, "m20"],
      [3, 1, "m25"],
      [4, 2, "c"],
    ]);
    expect(numbered.leaf_seq).toBe(3);
    const item = numbered.messages[3]?.role === "system" ? numbered.messages[3].item : undefined;
    expect(item).toMatchObject({ kind: "compaction", through_seq: 3 });
  });

  it("reads a message without parent_seq as following the one before it", () => {
    const numbered = numberLog([message(1, undefined), message(2, undefined)], 2);
    expect("problem" in numbered ? numbered.problem : numbered.messages.map((m) => m.parent_seq)).toEqual([0, 1]);
  });

  it("refuses a parent that does not come before, a seq twice, and a leaf it does not have", () => {
    expect(numberLog([message(1, 0), message(2, 3), message(3, 1)], 3)).toEqual({
      problem: "message 2 follows message 3, which is not before it in the log",
    });
    expect(numberLog([message(1, 0), message(1, 0)], 1)).toEqual({ problem: "message 1 appears twice" });
    expect(numberLog([message(1, 0)], 7)).toEqual({ problem: "leaf_seq 7 is not a message of the conversation" });
    expect(numberLog([], 0)).toEqual({ messages: [], leaf_seq: 0 });
  });
});

describe("a JSON array read one element at a time", () => {
  const elements = (text: string) =>
    [...jsonArrayElements(strToU8(text))].map((bytes) => JSON.parse(new TextDecoder().decode(bytes)));

  it("hands on each element whole, whatever its strings hold", () => {
    const value = [{ a: "] } , [ {", b: ['x"]', "\\"] }, "plain ] string", 12, null, [[1], { c: "é ✓ 😀" }], true];
    expect(elements(JSON.stringify(value))).toEqual(value);
    expect(elements(`\uFEFF \n[ {"x":1} ,\n {"y":[2]} ]\n`)).toEqual([{ x: 1 }, { y: [2] }]);
    expect(elements("[]")).toEqual([]);
  });

  it("says when the file is not one JSON array", () => {
    expect(() => elements('{"a":1}')).toThrow("not a JSON array");
    expect(() => elements('[{"a":1}')).toThrow();
    expect(() => elements('[{"a":1} {"b":2}]')).toThrow("comma is missing");
    expect(() => elements("[1] 2")).toThrow("more after");
  });
});

describe("a zip read one file at a time", () => {
  it("lists the files and unpacks each when asked, deflated or stored", () => {
    const big = "line of text\n".repeat(5000);
    const zip = zipSync({
      "root/a.json": strToU8('{"a":1}'),
      "root/notes/b.md": [strToU8(big), { level: 0 }],
      "root/": {},
    });
    expect(isZip(zip)).toBe(true);
    const entries = zipEntries(zip);
    expect(entries.map((e) => [e.name, e.size])).toEqual([
      ["root/a.json", 7],
      ["root/notes/b.md", big.length],
    ]);
    expect(new TextDecoder().decode(entries[1]?.read())).toBe(big);
    expect(new TextDecoder().decode(entries[0]?.read())).toBe('{"a":1}');
  });

  it("says what is wrong with a file that is not a whole zip", () => {
    expect(isZip(strToU8("[{}]"))).toBe(false);
    expect(() => zipEntries(strToU8("not a zip at all, just some text"))).toThrow(ZipProblem);
    const zip = zipSync({ "a.txt": strToU8("hello ".repeat(100)) });
    expect(() => zipEntries(zip.subarray(0, zip.length - 10))).toThrow("cut short");
    // A file whose packed bytes are not what they say fails as damaged, not as anything worse.
    const damaged = zip.slice();
    damaged.set(
      deflateSync(strToU8("x"))
        .subarray(0, 2)
        .map((b) => b ^ 0xff),
      30 + "a.txt".length,
    );
    expect(() => zipEntries(damaged)[0]?.read()).toThrow(ZipProblem);
  });
});

describe("names an import gives what would land on something the account holds", () => {
  it("puts a note beside the one at its path, its extension kept", () => {
    expect(freeNotePath("a/plan.md", new Set(["b.md"]))).toBe("a/plan.md");
    expect(freeNotePath("a/plan.md", new Set(["a/plan.md"]))).toBe("a/plan-imported.md");
    expect(freeNotePath("a/plan.md", new Set(["a/plan.md", "a/plan-imported.md"]))).toBe("a/plan-imported-2.md");
    expect(freeNotePath("v1.2/readme", new Set(["v1.2/readme"]))).toBe("v1.2/readme-imported");
    const long = `${"x".repeat(197)}.md`;
    expect(freeNotePath(long, new Set([long])).length).toBeLessThanOrEqual(200);
  });

  it("gives a library entry a slug of its own within 40 characters", () => {
    expect(freeSlug("plan", new Set(["plan"]))).toBe("plan-imported");
    const long = "a".repeat(40);
    expect(freeSlug(long, new Set([long]))).toMatch(/^a+-imported$/);
    expect(freeSlug(long, new Set([long])).length).toBe(40);
  });
});
