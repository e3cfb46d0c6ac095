// What a System card says by default (issue 26): its source in plain words, why in one line under
// the headline, which servers an "unavailable" notice names (for its Turn off / Test again buttons),
// and whose data waits under Details. Pure helpers of client/src/lib/{system-text,notification-content}.ts.
import { describe, expect, it } from "vitest";
import {
  dataIsDetail,
  type Notification,
  noticeReason,
  unavailableServers,
} from "../../client/src/lib/notification-content";
import { plainSource } from "../../client/src/lib/system-text";

const notification = (subscriber: string, message: string, data: unknown): Notification => ({
  kind: "notification",
  message,
  body: `[Notification: x] ${message}`,
  format: "json",
  subscriber,
  priority: "high",
  data,
});

describe("System card words", () => {
  it("names where a notice comes from in plain words, and keeps a source it does not know", () => {
    expect(plainSource("MCP Connector")).toBe("Tools");
    expect(plainSource("Tool Executor")).toBe("Tools");
    expect(plainSource("Budget Monitor")).toBe("Limits");
    expect(plainSource("External")).toBe("External");
    expect(plainSource("Vault Watch")).toBe("Vault Watch");
  });

  it("says why under the headline, and which servers an unavailable notice is about", () => {
    const one = notification("mcp_unavailable", "MCP server a is unavailable", {
      server: "a",
      error: "could not connect",
    });
    expect(noticeReason(one)).toBe("could not connect");
    expect(unavailableServers(one)).toEqual(["a"]);
    const two = notification("mcp_unavailable", "MCP servers a, b are unavailable", [
      { server: "a", error: "timed out" },
      { server: "b", error: "timed out" },
    ]);
    expect(noticeReason(two)).toBe("timed out");
    expect(unavailableServers(two)).toEqual(["a", "b"]);
    const failure = notification("tool_failure", "vault_read failed", { tool: "vault_read", error: "No note at a.md" });
    expect(noticeReason(failure)).toBe("No note at a.md");
    expect(unavailableServers(failure)).toEqual([]);
    expect(noticeReason(notification("loop_detected", "Loop detected: …", { kind: "repeat" }))).toBeNull();
  });

  it("keeps the data of a self-explaining notice under Details, and shows an external message's at once", () => {
    expect(dataIsDetail(notification("budget_warning", "Approaching limits", [{ budget: "tokens" }]))).toBe(true);
    expect(dataIsDetail(notification("external_notify", "Backup finished", { message: "Backup finished" }))).toBe(
      false,
    );
    expect(dataIsDetail(notification("vault_watch", "2 notes written", { count: 2 }))).toBe(false);
    expect(dataIsDetail(notification("tool_failure", "", { tool: "x" }))).toBe(false); // no headline to stand for it
  });
});
