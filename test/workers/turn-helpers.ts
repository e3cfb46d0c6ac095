// Helpers for tests that drive whole agent turns through the socket against the fake model server.
import { inject } from "vitest";
import type { AgentConfigPatch, Message, ServerFrame } from "../../protocol";
import { marker, type Step, scriptModel } from "../support/fake-openai-client";
import { api, connect, createConversation, type Session, signup, type TestSocket, uniqueName } from "./helpers";

export const llmUrl = inject("llmUrl");

export interface Scenario {
  session: Session;
  conversationId: string;
  socket: TestSocket;
  key: string;
}

/** A signed-up user with saved settings, a conversation, an open socket and a scripted model. */
export async function scenario(steps: Step[], settings: AgentConfigPatch = {}): Promise<Scenario> {
  const session = await signup();
  if (Object.keys(settings).length) {
    const res = await api("/api/settings/agent", { method: "PUT", json: settings, headers: session.headers });
    if (res.status !== 200) throw new Error(`settings: ${res.status} ${await res.text()}`);
  }
  const { id } = await createConversation(session);
  const key = uniqueName("k");
  await scriptModel(llmUrl, key, steps);
  return { session, conversationId: id, socket: await connect(session, id), key };
}

/** Sends a chat frame carrying the scenario's marker and waits for the turn's response_complete. */
export async function chat(s: Scenario, content: string, extra: Record<string, unknown> = {}) {
  const from = s.socket.frames.length;
  s.socket.send({ type: "chat", content: `${content} ${marker(s.key)}`, ...extra });
  const done = await s.socket.next("response_complete", () => true, { from, timeoutMs: 20_000 });
  return { done, frames: s.socket.frames.slice(from) };
}

export async function history(s: Scenario): Promise<Message[]> {
  const res = await api(`/api/conversations/${s.conversationId}/messages?limit=1000`, { headers: s.session.headers });
  return ((await res.json()) as { messages: Message[] }).messages;
}

export const finalMessage = (messages: Message[]) => {
  const last = messages.filter((m) => m.role === "agent").at(-1);
  if (last?.role !== "agent") throw new Error("no agent message");
  return last;
};

export const systemTexts = (messages: Message[]) => messages.flatMap((m) => (m.role === "system" ? [m.item.body] : []));

export const updates = (frames: ServerFrame[]) =>
  frames.flatMap((f) => (f.type === "agent_update" ? [f.update_type] : []));

/** The text of every message the model received in a recorded request. */
export function requestText(body: Record<string, unknown>): string {
  return JSON.stringify(body.messages);
}
