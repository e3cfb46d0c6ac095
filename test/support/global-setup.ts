// vitest globalSetup of the `workers` project: starts the fake OpenAI server in Node (workerd cannot
// listen) and hands its address to tests and to vitest.config.ts, which points OPENAI_BASE_URL at it.
import type { TestProject } from "vitest/node";
import { startFakeOpenAI } from "./fake-openai.ts";

// `inject("llmUrl")` is typed by the ProvidedContext augmentation in fake-openai-client.ts (which the
// workers tsconfig includes).
export default async function setup({ provide }: TestProject) {
  const fake = await startFakeOpenAI();
  provide("llmUrl", fake.url);
  return async () => {
    await fake.close();
  };
}
