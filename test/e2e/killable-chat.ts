// The setup of the crash tests: a fake model, the real app on it, a user and one conversation, where
// the Workers runtime can be SIGKILLed mid-turn and comes back on the same state, as after a crash or
// a deploy (App.crash).
import { type FakeOpenAI, startFakeOpenAI } from "../support/fake-openai";
import { type Client, signUp } from "./api-client";
import { type App, fakeModelEnv, startApp } from "./harness";

export interface KillableChat {
  llm: FakeOpenAI;
  id: string;
  /** The user's client on the app (the same address across restarts). */
  client: Client;
  /** SIGKILLs the app's runtime, waits until it is back on the same state, and returns the user's client for it. */
  killAndRestart(): Promise<Client>;
  /** A new conversation of the same user on the app as it runs now. */
  newConversation(): Promise<string>;
  close(): Promise<void>;
}

/** `vars`: more --vars for the app (TURN_RECOVERY, FAULT_PAUSE_AFTER_TOOLS). */
export async function startKillableChat(vars: Record<string, string> = {}): Promise<KillableChat> {
  const llm = await startFakeOpenAI();
  const env = fakeModelEnv(llm, vars);
  const app: App = await startApp({ env, direct: true }).catch(async (error: unknown) => {
    await llm.close();
    throw error;
  });
  const client = await signUp(app.url);
  const chat: KillableChat = {
    llm,
    id: await client.createConversation(),
    client,
    async killAndRestart() {
      await app.crash();
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
