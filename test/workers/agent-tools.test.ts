// Tool errors as the socket reports them (docs/protocol.md tool_error.error_type), and a tab joining mid-turn.
import { describe, expect, it } from "vitest";
import { marker } from "../support/fake-openai-client";
import { connect } from "./helpers";
import { chat, history, scenario } from "./turn-helpers";

describe("tool calls over the socket", () => {
  it("reports unknown tools and invalid arguments, persisting an error result for each", async () => {
    const s = await scenario([
      {
        tool_calls: [
          { name: "teleport", arguments: {} },
          { name: "vault_read", arguments: { path: 42 } },
        ],
      },
      { text: "Sorry." },
    ]);
    const { frames } = await chat(s, "go");
    const errors = frames.flatMap((f) => (f.type === "tool_error" ? [[f.tool, f.error_type]] : []));
    expect(errors).toEqual(
      expect.arrayContaining([
        ["teleport", "unknown_tool"],
        ["vault_read", "invalid_args"],
      ]),
    );
    const tools = (await history(s)).filter((m) => m.role === "tool");
    expect(tools.map((m) => m.role === "tool" && m.status)).toEqual(["error", "error"]);
  });

  it("caps tool calls per step at maxToolCallsPerTurn", async () => {
    const calls = ["a", "b", "c"].map((prefix) => ({ name: "vault_list", arguments: { prefix } }));
    const s = await scenario([{ tool_calls: calls }, { text: "ok" }], { maxToolCallsPerTurn: 2 });
    await chat(s, "three at once");
    // Messages are persisted as calls finish; the skipped third call finishes first.
    const byPrefix = Object.fromEntries(
      (await history(s)).flatMap((m) => (m.role === "tool" ? [[(m.args as { prefix: string }).prefix, m]] : [])),
    );
    expect([byPrefix.a?.status, byPrefix.b?.status, byPrefix.c?.status]).toEqual(["success", "success", "error"]);
    expect(byPrefix.c?.error).toMatch(/at most 2 tool calls per step/);
  });

  it("gives a tab that joins mid-step the text streamed so far", async () => {
    const s = await scenario([{ text: ["Half ", "an ", "answer"], hang: true }]);
    const from = s.socket.frames.length;
    s.socket.send({ type: "chat", content: `go ${marker(s.key)}` });
    await s.socket.next("text_delta", (f) => f.delta === "answer", { from });
    const late = await connect(s.session, s.conversationId);
    expect(late.frames[0]).toMatchObject({ type: "hello", running: true });
    expect(await late.next("text_delta")).toEqual({ type: "text_delta", step: 1, delta: "Half an answer" });
    s.socket.send({ type: "agent_control", action: "stop" });
    await late.next("response_complete");
    late.close();
  });
});
