// The client's routes (client/src/lib/router.ts): every page a link or a typed URL can name, a bad
// percent-encoding answered as "no such page" instead of a crash, and only our own paths followed after
// signing in.
import { expect, it, vi } from "vitest";
import { parseRoute, safeNext, targetSeq } from "../../client/src/lib/router.ts";

it("names every page, decoding ids and note paths", () => {
  expect(parseRoute("/")).toEqual({ name: "home" });
  expect(parseRoute("/c/abc%20d/")).toEqual({ name: "conversation", id: "abc d" });
  expect(parseRoute("/notes")).toEqual({ name: "notes" });
  expect(parseRoute("/notes/projects/plan%20B.md")).toEqual({ name: "notes", path: "projects/plan B.md" });
  expect(parseRoute("/tasks")).toEqual({ name: "tasks" });
  expect(parseRoute("/settings/models")).toEqual({ name: "settings", tab: "models" });
  expect(parseRoute("/settings/usage")).toEqual({ name: "settings", tab: "usage" });
  expect(parseRoute("/admin")).toEqual({ name: "admin" });
  expect(parseRoute("/settings")).toEqual({ name: "settings", tab: "agent" });
  expect(parseRoute("/settings/agent-notices")).toEqual({ name: "settings", tab: "agent-notices" });
  expect(parseRoute("/settings/appearance")).toEqual({ name: "settings", tab: "appearance" });
  expect(parseRoute("/settings/account/")).toEqual({ name: "settings", tab: "account" });
  expect(parseRoute("/settings/tools")).toEqual({ name: "settings", tab: "tools" });
  expect(parseRoute("/settings/help")).toEqual({ name: "settings", tab: "help" });
  expect(parseRoute("/settings/shares")).toEqual({ name: "settings", tab: "shares" });
  expect(parseRoute("/s/AbC_-d")).toEqual({ name: "shared", id: "AbC_-d" });
  expect(parseRoute("/s/a/b")).toEqual({ name: "not_found" });
  expect(parseRoute("/nowhere")).toEqual({ name: "not_found" });
});

it("opens a renamed Settings tab at its old address, and no tab at an unknown one", () => {
  expect(parseRoute("/settings/notifications")).toEqual({ name: "settings", tab: "agent-notices" });
  expect(parseRoute("/settings/constructor")).toEqual({ name: "not_found" });
  expect(parseRoute("/settings/nowhere")).toEqual({ name: "not_found" });
  expect(parseRoute("/settings/agent/x")).toEqual({ name: "not_found" });
});

it("answers a malformed percent-encoding with not_found instead of throwing", () => {
  expect(parseRoute("/notes/%E0")).toEqual({ name: "not_found" });
  expect(parseRoute("/c/%")).toEqual({ name: "not_found" });
  expect(parseRoute("/s/%")).toEqual({ name: "not_found" });
});

it("follows only same-origin paths after signing in", () => {
  vi.stubGlobal("location", new URL("http://127.0.0.1:8787/login"));
  expect(safeNext("/c/abc?x=1")).toBe("/c/abc?x=1");
  for (const bad of [
    "//evil.example",
    "/\\evil.example",
    "https://evil.example",
    "javascript:alert(1)",
    "c/abc",
    "/c/\u0000x",
    "",
  ])
    expect(safeNext(bad)).toBeNull();
  expect(safeNext(null)).toBeNull();
  expect(safeNext("/login?next=/c/x")).toBeNull(); // never back to the sign-in page itself
  vi.unstubAllGlobals();
});

it("reads the message a link points at from #m<seq>, and nothing else", () => {
  expect(targetSeq("#m12")).toBe(12);
  for (const other of ["", "#", "#m", "#m-1", "#12", "#m1x", "#main"]) expect(targetSeq(other)).toBeNull();
});
