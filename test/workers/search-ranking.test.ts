// docs/protocol.md `GET /api/search`: what the user wrote and the answers rank above a step's narration.
// A turn that narrates its steps with the searched word must not push the user's own message out of the
// few hits a conversation gets, and a conversation whose user message matches comes first.
import { describe, expect, it } from "vitest";
import type { SearchResult } from "../../protocol";
import { scriptModel } from "../support/fake-openai-client";
import { api, connect, createConversation, eventually, type Session, uniqueName } from "./helpers";
import { chat, history, llmUrl, scenario } from "./turn-helpers";

async function search(session: Session, q: string): Promise<SearchResult[]> {
  const res = await api(`/api/search?q=${encodeURIComponent(q)}`, { headers: session.headers });
  expect(res.status).toBe(200);
  return ((await res.json()) as { results: SearchResult[] }).results;
}

const narrating = (text: string) => ({ text, tool_calls: [{ name: "task_list", arguments: {} }] });

describe("search ranking", () => {
  it("shows the user's own message first, even when the turn's narration matches more often", async () => {
    const s = await scenario([
      narrating("Checking the quokka notes first."),
      narrating("Still on the quokka question, listing tasks."),
      narrating("One more quokka lookup."),
      narrating("Last quokka step before the answer."),
      { text: "Quokkas live on Rottnest Island." },
    ]);
    await chat(s, "Where does the quokka live?");
    const messages = await history(s);
    const userSeq = messages.find((m) => m.role === "user")?.seq;
    const answerSeq = messages.findLast((m) => m.role === "agent")?.seq;
    // The step narration is in the log (and so in the index) as agent text.
    expect(messages.filter((m) => m.role === "agent" && m.content.includes("quokka")).length).toBeGreaterThan(2);

    const results = await eventually(
      () => search(s.session, "quokka"),
      (r) => r.some((hit) => hit.seq === answerSeq),
      "search quokka",
    );
    expect(results.length).toBe(3);
    expect(results[0]).toMatchObject({ seq: userSeq, kind: "user" });
    expect(results[1]).toMatchObject({ seq: answerSeq, kind: "answer" });
    expect(results[2]?.kind).toBe("step");
  });

  it("ranks a conversation whose user message matches before a newer one where only narration does", async () => {
    const asked = await scenario([{ text: "They hop." }]);
    await chat(asked, "How do wallabies move?");
    // A newer conversation of the same user, where only a step's narration says the word.
    const { id } = await createConversation(asked.session);
    const key = uniqueName("k");
    await scriptModel(llmUrl, key, [narrating("Thinking about wallabies while I look."), { text: "Done." }]);
    const narrated = { session: asked.session, conversationId: id, key, socket: await connect(asked.session, id) };
    await chat(narrated, "Look something up");

    const results = await eventually(
      () => search(asked.session, "wallabies"),
      (r) => new Set(r.map((h) => h.conversation_id)).size === 2,
      "search wallabies",
    );
    expect(results[0]).toMatchObject({ conversation_id: asked.conversationId, kind: "user" });
    expect(results.at(-1)).toMatchObject({ conversation_id: id, kind: "step" });
  });
});
