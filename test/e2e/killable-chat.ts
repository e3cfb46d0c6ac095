// The setup of the crash tests: a fake model, the real app on it, a user and one conversation, where
// `wrangler dev` can be SIGKILLed mid-turn and started again on the same state, as a crash would.
import { type FakeOpenAI, startFakeOpenAI } from "../support/fake-openai";
import { type Client, clientFor, signUp } from "./api-client";
import { type App, fakeModelEnv, startApp } from "./harness";

export interface KillableChat {
  llm: FakeOpenAI;
  id: string;
  /** The user's client on the app as it runs now (a new origin after each restart). */
  client: Client;
  /** SIGKILLs the app, starts it again on the same state, and returns the user's client for it. */
  killAndRestart(): Promise<Client>;
  /** A new conversation of the same user on the app as it runs now. */
  newConversation(): Promise<string>;
  close(): Promise<void>;
}

/** `vars`: more --vars for the app (TURN_RECOVERY, FAULT_PAUSE_AFTER_TOOLS). */
export async function startKillableChat(vars: Record<string, string> = {}): Promise<KillableChat> {
  const llm = await startFakeOpenAI();
  const env = fakeModelEnv(llm, vars);
  let app: App;
  try {
    app = await startApp({ env });
  } catch (error) {
    await llm.close();
    throw error;
  }
  const client = await signUp(app.url);
  const chat: KillableChat = {
    llm,
    id: await client.createConversation(),
    client,
    async killAndRestart() {
      await app.kill();
      app = await startApp({ env, persistTo: app.persistDir });
      chat.client = clientFor(app.url, chat.client.cookie);
      return chat.client;
    },
    newConversation: () => chat.client.createConversation(),
    async close() {
      await app.stop();
      await llm.close();
    },
  };
  return chat;
}
