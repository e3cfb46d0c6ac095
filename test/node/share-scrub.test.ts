// A shared page replaces the owner's MCP server addresses by the server's name (worker/shares/scrub.ts):
// the whole URL, or its origin, host or host name, wherever they appear, in any case, keys included.
import { describe, expect, it } from "vitest";
import { addressScrubber, scrubStrings } from "../../worker/shares/scrub";

describe("share address scrubbing", () => {
  const scrub = addressScrubber([
    { name: "crm", url: "https://mcp.acme-internal.com:8443/v1/k3y-in-path/" },
    { name: "files", url: "https://files.example.net/mcp" },
  ]);

  it("replaces every form of a server's address, longest first, so no path is left behind", () => {
    if (!scrub) throw new Error("expected a scrubber");
    expect(scrub("see https://mcp.acme-internal.com:8443/v1/k3y-in-path/ now")).toBe("see crm now");
    expect(scrub("mcp.acme-internal.com:8443/v1/k3y-in-path?x=1")).toBe("crm?x=1");
    expect(scrub("GET https://MCP.Acme-Internal.com:8443/other")).toBe("GET crm/other");
    expect(scrub("host MCP.ACME-INTERNAL.COM answered")).toBe("host crm answered");
    expect(scrub("https://files.example.net/mcp and files.example.net")).toBe("files and files");
    expect(scrub("nothing to hide at example.org")).toBe("nothing to hide at example.org");
  });

  it("walks every string of a JSON value, keys included, and leaves other values alone", () => {
    if (!scrub) throw new Error("expected a scrubber");
    const value = {
      a: ["files.example.net", 3, null, true],
      "files.example.net": { deep: "https://files.example.net/mcp" },
    };
    expect(scrubStrings(value, scrub)).toEqual({ a: ["files", 3, null, true], files: { deep: "files" } });
  });

  it("has nothing to do for an owner without servers", () => {
    expect(addressScrubber([])).toBeNull();
  });
});
