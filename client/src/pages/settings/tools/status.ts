// What a server's row says about it in words: its authentication (the secret itself never comes back)
// and its last connection test ("Connected · 5 tools · checked 2 min ago", or what went wrong).
import type { McpAuthInfo, McpServer } from "../../../../../protocol";
import type { RowStatus } from "../../../components/settings-form";
import { plural } from "../../../lib/plural";
import { oauthWords } from "./oauth-state";

export function authText(auth: McpAuthInfo): string {
  if (auth.type === "bearer") return "Bearer token saved";
  if (auth.type === "header") return `Header ${auth.name} saved`;
  if (auth.type === "oauth") return `OAuth · ${oauthWords(auth)}`;
  return "No authentication";
}

/** "just now", "2 min ago", "3 h ago", "on 4/5/2025". */
export function ago(iso: string, now: number): string {
  const at = Date.parse(iso);
  if (Number.isNaN(at)) return "at an unknown time";
  const minutes = Math.floor((now - at) / 60_000);
  if (minutes < 1) return "just now";
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return `${hours} h ago`;
  return `on ${new Date(at).toLocaleDateString()}`;
}

export type TestStatus = RowStatus;

export function testStatus(server: McpServer, testing: boolean, now: number): TestStatus {
  if (testing) return { state: "testing", text: "Testing the connection…" };
  if (!server.checked_at) return { state: "untested", text: "Not tested yet" };
  const checked = `checked ${ago(server.checked_at, now)}`;
  if (server.last_error) return { state: "error", text: `Could not connect: ${server.last_error} · ${checked}` };
  return { state: "ok", text: `Connected · ${plural(server.tools.length, "tool")} · ${checked}` };
}
