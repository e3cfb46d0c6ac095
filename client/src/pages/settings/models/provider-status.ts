// What a provider's row says of it in words: its API style, whether a key is stored (the key itself never
// comes back), and its last test ("Working · checked 2 min ago", or what went wrong, as the server put it).
import type { ApiStyle, Provider } from "../../../../../protocol";
import { ago, type TestStatus } from "../tools/status";

export const STYLE_NAMES: Record<ApiStyle, string> = { chat: "Chat Completions", responses: "Responses API" };

export const keyText = (provider: Provider) => (provider.has_key ? "API key stored" : "No API key");

export function providerStatus(provider: Provider, testing: boolean, now: number): TestStatus {
  if (testing) return { state: "testing", text: "Testing…" };
  if (!provider.checked_at) return { state: "untested", text: "Not tested yet" };
  const when = ago(provider.checked_at, now);
  if (provider.last_error) return { state: "error", text: `Last test failed ${when}: ${provider.last_error}` };
  return { state: "ok", text: `Working · checked ${when}` };
}
