// Helpers for tests that drive whole agent turns through the socket against the fake model server.
import { inject } from "vitest";
import type { AgentConfigPatch, ApiStyle, Message, ServerFrame } from "../../protocol";
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

/**
 * Makes the user's default model their own provider's on the fake, in `style`: the operator's model speaks
 * Chat Completions, where the AI SDK gives a call whose id repeats one of the answer a new id; on the
 * Responses API the model's ids come through as they are.
 */
export async function ownModel(session: Session, style: ApiStyle): Promise<void> {
  const created = await api("/api/providers", {
    method: "POST",
    json: { name: "Mine", base_url: `${llmUrl}/v1`, style, models: [{ id: "m", context_window: 32_000 }] },
    headers: session.headers,
  });
  if (created.status !== 201) throw new Error(`provider: ${created.status} ${await created.text()}`);
  const { id } = (await created.json()) as { id: string };
  const json = { model: { provider_id: id, model: "m" } };
  const picked = await api("/api/models/default", { method: "PUT", json, headers: session.headers });
  if (picked.status !== 200) throw new Error(`default model: ${picked.status} ${await picked.text()}`);
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
