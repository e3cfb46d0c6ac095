// A conversation's export (client/src/lib/export.ts): the Markdown a user reads and the JSON a user
// keeps, from the messages as GET /api/conversations/:id/messages answers them. The browser side (the
// menu, the download, every message of a real conversation) is test/e2e/theme-export-pwa.test.ts.
import { describe, expect, it } from "vitest";
import {
  type ConversationExport,
  conversationJson,
  conversationMarkdown,
  exportFileName,
  type RawMessage,
} from "../../client/src/lib/export";

const at = (minute: number) => `2026-03-04T10:${String(minute).padStart(2, "0")}:05.123Z`;

const messages: RawMessage[] = [
  { seq: 1, id: "m1", created_at: at(1), role: "user", content: "What is in my **budget** note?" },
  {
    seq: 2,
    id: "m2",
    created_at: at(2),
    role: "agent",
    content: "Let me look.",
    step: 1,
  },
  {
    seq: 3,
    id: "m3",
    created_at: at(3),
    role: "tool",
    call_id: "c1",
    tool: "vault_read",
    args: { path: "budget.md" },
    status: "success",
    result: { content: "cap at ```400```" },
    step: 1,
    duration_ms: 12,
  },
  {
    seq: 4,
    id: "m4",
    created_at: at(4),
    role: "tool",
    call_id: "c2",
    tool: "web_fetch",
    args: { url: "https://example.com" },
    status: "timeout",
    error: "Timed out after 30 s",
    step: 1,
    duration_ms: 30000,
  },
  {
    seq: 5,
    id: "m5",
    created_at: at(5),
    role: "system",
    source: "Tool Executor",
    severity: "warning",
    item: {
      kind: "notification",
      message: "web_fetch timed out",
      body: "[Notification: Tool Executor] web_fetch timed out",
      format: "text",
      priority: "high",
      data: { tool: "web_fetch" },
    },
  },
  {
    seq: 6,
    id: "m6",
    created_at: at(6),
    role: "system",
    source: "Vault",
    severity: "info",
    item: { kind: "file_attachment", path: "budget.md", body: "[File: budget.md]\n# Budget\ncap at 400" },
  },
  {
    seq: 7,
    id: "m7",
    created_at: at(7),
    role: "agent",
    content: "The cap is **$400** a month.",
    step: 2,
    phase: "final",
    termination_reason: "completed",
    usage: { input_tokens: 10, output_tokens: 5, total_tokens: 15 },
  },
  // A field this client does not know yet (the protocol may add one): kept in the JSON all the same.
  { seq: 8, id: "m8", created_at: at(8), role: "user", content: "Thanks", future_field: [1, 2] },
];

const data: ConversationExport = {
  format: "oracle.conversation",
  version: 1,
  exported_at: "2026-03-05T08:00:00.000Z",
  conversation: { id: "conv-1", title: "Budget · review", created_at: at(0), updated_at: at(8) },
  messages,
};

describe("the JSON export", () => {
  it("parses back to the conversation and every message exactly as the API gave it", () => {
    const parsed = JSON.parse(conversationJson(data));
    expect(parsed.messages).toEqual(messages);
    expect(parsed.conversation).toEqual(data.conversation);
    expect(parsed).toMatchObject({ format: "oracle.conversation", version: 1 });
  });
});

describe("the Markdown export", () => {
  const markdown = conversationMarkdown(data);

  it("has the title, when it was exported and how many messages it holds", () => {
    expect(markdown.startsWith("# Budget · review\n")).toBe(true);
    expect(markdown).toContain("Exported from Oracle on 2026-03-05 08:00:00 UTC · 8 messages");
  });

  it("has one section per message, in seq order, naming who wrote it, when, and its seq", () => {
    const headings = markdown.split("\n").filter((line) => line.startsWith("### "));
    expect(headings).toEqual([
      "### You · 2026-03-04 10:01:05 UTC · #1",
      "### Oracle (working, step 1) · 2026-03-04 10:02:05 UTC · #2",
      "### Tool vault_read: success (step 1, 12 ms) · 2026-03-04 10:03:05 UTC · #3",
      "### Tool web_fetch: timeout (step 1, 30000 ms) · 2026-03-04 10:04:05 UTC · #4",
      "### System · Tool Executor (warning) · 2026-03-04 10:05:05 UTC · #5",
      "### System · Vault (info) · 2026-03-04 10:06:05 UTC · #6",
      "### Oracle · 2026-03-04 10:07:05 UTC · #7",
      "### You · 2026-03-04 10:08:05 UTC · #8",
    ]);
  });

  it("keeps each user and agent text as written, and says what tools and System items did", () => {
    for (const text of ["What is in my **budget** note?", "Let me look.", "The cap is **$400** a month.", "Thanks"]) {
      expect(markdown).toContain(`\n\n${text}`);
    }
    expect(markdown).toContain('"path": "budget.md"');
    expect(markdown).toContain("Error:\n\nTimed out after 30 s");
    expect(markdown).toContain("web_fetch timed out");
    expect(markdown).toContain('"tool": "web_fetch"');
    expect(markdown).toContain("Attached budget.md\n\n```\n# Budget\ncap at 400\n```");
    // The model-only wrapper of a System item's body is not shown.
    expect(markdown).not.toContain("[Notification: Tool Executor]");
    expect(markdown).not.toContain("[File: budget.md]");
  });

  it("fences JSON with more backticks than it holds, so a result cannot break out of its block", () => {
    expect(markdown).toContain('````json\n{\n  "content": "cap at ```400```"\n}\n````');
  });
});

describe("the export's file name", () => {
  it.each([
    ["Budget · review", "md", "budget-review.md"],
    ["Déjà vu: ../../etc/passwd", "json", "deja-vu-etc-passwd.json"],
    ['<script>"x"</script>', "md", "script-x-script.md"],
    ["   ", "json", "conversation.json"],
    ["日本語", "md", "conversation.md"],
    ["a".repeat(100), "md", `${"a".repeat(60)}.md`],
  ] as const)("%j → %s", (title, extension, expected) => {
    expect(exportFileName(title, extension)).toBe(expected);
  });
});
