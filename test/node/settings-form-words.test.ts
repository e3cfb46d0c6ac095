// What the Schedules page and Settings → Tools make of what was typed, before anything is sent: a time
// zone typed as a city ("Paris") is read as its IANA zone, and an MCP server's name ("My Docs") is saved
// as the slug its tools are named by (my-docs), shown under the field.
import { describe, expect, it } from "vitest";
import { resolveTimeZone } from "../../client/src/pages/schedules/time-zones";
import { nameToSave, serverSlug } from "../../client/src/pages/settings/tools/server-name";

describe("a typed time zone", () => {
  const zones = Intl.supportedValuesOf("timeZone");
  it.each([
    ["Europe/Paris", "Europe/Paris"],
    ["europe/paris", "Europe/Paris"],
    ["Paris", "Europe/Paris"],
    [" paris ", "Europe/Paris"],
    ["new york", "America/New_York"],
    ["Los Angeles", "America/Los_Angeles"],
    ["utc", "UTC"],
  ])("%s → %s", (typed, zone) => expect(resolveTimeZone(typed, zones)).toBe(zone));

  it.each(["", "Atlantis", "+02:00", "Mars/Olympus"])("%j is no zone", (typed) =>
    expect(resolveTimeZone(typed, zones)).toBeUndefined(),
  );
});

describe("an MCP server's name", () => {
  it.each([
    ["My Docs", "my-docs"],
    ["github", "github"],
    ["Café Tools!", "cafe-tools"],
    ["  --Local  Server--  ", "local-server"],
    ["A very long server name that goes on", "a-very-long-server-name"],
  ])("%j is saved as %s", (typed, slug) => {
    expect(serverSlug(typed)).toBe(slug);
    expect(nameToSave(typed)).toBe(slug);
  });

  it("keeps what was typed when no name can be made of it, for the schema to say why", () => {
    expect(nameToSave("42")).toBe("42");
    expect(nameToSave("!!!")).toBe("!!!");
  });
});
