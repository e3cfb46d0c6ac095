// The subscribers compiled from subscribers/ at build time. Files that failed validation are not in
// the list; they are logged once when the Worker starts, and the others load as usual (seed 000 US6).
import { INVALID_SUBSCRIBERS, SUBSCRIBERS } from "../../subscribers/subscribers.generated";
import type { CompiledSubscriber } from "./build-notification";

for (const bad of INVALID_SUBSCRIBERS) console.error(`subscriber skipped: ${bad.file}: ${bad.reason}`);

export const subscribers: readonly CompiledSubscriber[] = SUBSCRIBERS;

export function findSubscriber(id: string): CompiledSubscriber | undefined {
  return subscribers.find((s) => s.config.id === id);
}
