// Folding repeated System notices (client/src/lib/fold-notices.ts, issue 26) as the transcript shows
// them: an unreachable MCP server's notice at every turn is one card with a count, the same tool
// failure again joins the first, a loop incident is one card where it began, and what is news
// (external messages, other failures, other servers) keeps its own card. A view change only: the
// messages themselves are untouched.
import { describe, expect, it } from "vitest";
import { foldNotices, noticeKey } from "../../client/src/lib/fold-notices";
import { buildTranscript } from "../../client/src/lib/transcript";
import type { Message, SystemMessage } from "../../protocol";

let seq = 0;
const at = (s: number) => `2025-01-01T10:00:${String(s % 60).padStart(2, "0")}.000Z`;
const user = (content: string): Message => ({ seq: ++seq, id: `m${seq}`, created_at: at(seq), role: "user", content });
const answer = (content: string): Message => ({
  seq: ++seq,
  id: `m${seq}`,
  created_at: at(seq),
  role: "agent",
  content,
  phase: "final",
  termination_reason: "completed",
});
const notice = (
  subscriber: string,
  source: string,
  message: string,
  data: unknown,
  severity: SystemMessage["severity"] = "warning",
): SystemMessage => ({
  seq: ++seq,
  id: `m${seq}`,
  created_at: at(seq),
  role: "system",
  source,
  severity,
  item: {
    kind: "notification",
    message,
    body: `[Notification: x] ${message}`,
    format: "json",
    subscriber,
    priority: "high",
    data,
  },
});
const mcpDown = (server = "offline") =>
  notice(
    "mcp_unavailable",
    "MCP Connector",
    `MCP server ${server} is unavailable; its tools are not offered this turn`,
    {
      server,
      error: "could not connect",
    },
  );
const failed = (tool: string, times: number, error = "No note at demo/loop.md") =>
  notice(
    "tool_failure",
    "Tool Executor",
    `${tool} failed${times > 1 ? ` ${times} times` : ""}`,
    { tool, error, count: times },
    "error",
  );
const loop = (tool: string) =>
  notice("loop_detected", "Loop Detector", `Loop detected: ${tool} called 2 times in a row with the same arguments`, {
    kind: "repeat",
    tool,
    count: 2,
  });
const external = (text: string) => notice("external_notify", "External", text, { message: text }, "info");

const systemCards = (messages: Message[]) =>
  buildTranscript(messages).flatMap((item) => (item.kind === "system" ? [item] : []));

describe("foldNotices", () => {
  it("folds an unreachable server's notice at every turn into the first card, with each turn", () => {
    const first = mcpDown();
    const messages = [
      user("a"),
      first,
      answer("A"),
      user("b"),
      mcpDown(),
      answer("B"),
      user("c"),
      mcpDown(),
      answer("C"),
    ];
    const items = buildTranscript(messages);
    const cards = items.filter((i) => i.kind === "system");
    expect(cards).toHaveLength(1);
    const [card] = cards;
    expect(card?.kind === "system" && card.message).toBe(first);
    expect(card?.kind === "system" && card.fold?.repeats.map((r) => r.turn)).toEqual([1, 2, 3]);
    expect(card?.kind === "system" && card.fold?.related).toEqual([]);
    // It stays where it first came: after the first question, before the first answer.
    expect(items.map((i) => i.kind)).toEqual(["user", "system", "answer", "user", "answer", "user", "answer"]);
    // The messages themselves are untouched (the model still reads each one).
    expect(messages.filter((m) => m.role === "system")).toHaveLength(3);
  });

  it("keeps different servers, different failures and external messages apart", () => {
    const messages = [
      user("a"),
      mcpDown("offline"),
      mcpDown("other"),
      failed("vault_read", 1, "No note at a.md"),
      failed("vault_read", 1, "No note at b.md"),
      external("Backup finished"),
      external("Backup finished"),
      answer("A"),
      user("b"),
      mcpDown("offline"),
      failed("vault_read", 1, "No note at a.md"),
      answer("B"),
    ];
    const cards = systemCards(messages);
    expect(cards.map((c) => [c.message.seq, c.fold?.repeats.length ?? 1])).toEqual([
      [messages[1]?.seq, 2],
      [messages[2]?.seq, 1],
      [messages[3]?.seq, 2],
      [messages[4]?.seq, 1],
      [messages[5]?.seq, 1],
      [messages[6]?.seq, 1],
    ]);
  });

  it("folds a tool's same failure whose headline counts up ('failed 2 times') into the first", () => {
    const messages = [
      user("a"),
      failed("vault_read", 1),
      failed("vault_read", 2),
      failed("vault_read", 3),
      answer("A"),
    ];
    const cards = systemCards(messages);
    expect(cards).toHaveLength(1);
    expect(cards[0]?.fold?.repeats.map((r) => r.message.seq)).toEqual([2, 3, 4].map((i) => messages[i - 1]?.seq));
    expect(noticeKey(messages[1] as SystemMessage)).toBe(noticeKey(messages[3] as SystemMessage));
  });

  it("shows a loop incident as one card where it began: the loop warning, with the tool's failures in it", () => {
    const warning = loop("vault_read");
    const messages = [
      user("loop"),
      failed("vault_read", 1),
      failed("vault_read", 2),
      warning,
      failed("vault_read", 3),
      failed("task_list", 1, "down"),
      answer("I stopped"),
    ];
    const items = buildTranscript(messages);
    const cards = items.filter((i) => i.kind === "system");
    expect(cards).toHaveLength(2);
    const [incident, other] = cards;
    expect(incident?.kind === "system" && incident.message).toBe(warning);
    expect(incident?.kind === "system" && incident.fold?.related.map((r) => r.message.seq)).toEqual(
      [messages[1], messages[2], messages[4]].map((m) => m?.seq),
    );
    // A failure of another tool is news of its own.
    expect(other?.kind === "system" && other.message).toBe(messages[5]);
    expect(items.map((i) => i.kind)).toEqual(["user", "system", "system", "answer"]);
  });

  it("keeps each turn's loop incident apart, and leaves other items alone", () => {
    const messages = [user("a"), loop("vault_read"), answer("A"), user("b"), loop("vault_read"), answer("B")];
    expect(systemCards(messages).map((c) => c.fold)).toEqual([undefined, undefined]);
    const plain = [{ kind: "user" as const }, { kind: "answer" as const }];
    expect(foldNotices(plain)).toEqual(plain);
  });
});
