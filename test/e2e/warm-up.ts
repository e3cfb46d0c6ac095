// vitest globalSetup of the `e2e` project only: what every run of it needs, begun in the background as
// soon as the run starts, so it overlaps the node and workers projects instead of the first e2e files
// waiting for it (on a clean clone: the real llama-server's setup, ~10 s of downloads, and the local
// state migrated once, ~15 s). Whoever needs either waits for what started here (a lock, or the state
// already there), so a failure here is only logged: the test that needs it meets it again. The run's end
// waits for both, so a short run never leaves a setup cut off halfway.
import { prepareRealLlm } from "../support/real-llm.ts";
import { warmMigratedState } from "./app.ts";

export default function warmUp(): () => Promise<void> {
  const work = [
    prepareRealLlm().catch((error: unknown) => console.warn("e2e warm-up: real-llm setup:", error)),
    warmMigratedState().catch((error: unknown) => console.warn("e2e warm-up: migrated state:", error)),
  ];
  return async () => {
    await Promise.allSettled(work);
  };
}
