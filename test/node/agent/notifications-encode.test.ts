// Notification data encoding (seed 000 FR-013, FR-015, SC-002; issue 4): TOON or compact JSON,
// whichever the cheap estimate rates smaller, always decodable back to the same data.
import { decode, encode } from "@toon-format/toon";
import { describe, expect, it } from "vitest";
import { encodeData, estimateTokens } from "../../../agent/notifications/encode";

const failures = [
  { tool: "vault_read", error_type: "error", error: "No note at projects/q3-plan.md" },
  {
    tool: "task_update",
    error_type: "invalid_args",
    error: 'Invalid arguments for task_update: status: "open"|"done"',
  },
  { tool: "vault_search", error_type: "timeout", error: "vault_search timed out after 30 s" },
];

const nested = {
  kind: "alternation",
  tools: ["vault_search", "vault_read"],
  count: 4,
  last: { call: { tool: "vault_read", args: { path: "ideas.md", lines: [1, 20] } }, ok: false },
  history: [{ tool: "vault_search" }, { tool: "vault_read", error: "No note at ideas.md" }, 3, "x"],
};

const samples: unknown[] = [
  failures,
  nested,
  { budget: "tokens", used: 71_234, limit: 100_000, percent: 71, message: "Token budget at 71% (71,234/100,000)." },
  { message: "Deploy finished: version 2026.11.22-3 is live, 0 errors" },
  { termination_reason: "completed", steps: 3, tokens: 4210 },
  [{ tool: "vault_read", call_id: "call_kR3x9ZpQa8TtY2mW0cVbN4sL", duration_ms: 42 }],
  { text: "looks like a number", value: "42", flag: "true", empty: "", nul: null, yes: true, unicode: "café – ok" },
  [1, 2, 3],
  [],
  {},
  "just a string",
  12,
];

const roundTrip = (r: { format: "toon" | "json"; text: string }) =>
  r.format === "toon" ? decode(r.text) : JSON.parse(r.text);

describe("encodeData", () => {
  it("encodes a uniform batch as a TOON table with a length and field header", () => {
    const r = encodeData(failures);
    expect(r.format).toBe("toon");
    expect(r.text.split("\n")[0]).toBe("[3]{tool,error_type,error}:");
    expect(r.text.split("\n")).toHaveLength(4);
    expect(estimateTokens(r.text)).toBeLessThan(estimateTokens(JSON.stringify(failures)));
  });

  it("encodes nested irregular data as whichever of TOON and compact JSON is estimated smaller", () => {
    const toon = encode(nested);
    const json = JSON.stringify(nested);
    const r = encodeData(nested);
    expect(r.format).toBe("json"); // deep nesting costs TOON indentation and list markers
    expect(r).toEqual(
      estimateTokens(toon) <= estimateTokens(json) ? { format: "toon", text: toon } : { format: "json", text: json },
    );
  });

  it("never picks the encoding with the higher estimate, and prefers TOON on a tie", () => {
    for (const data of samples) {
      const r = encodeData(data);
      const toon = estimateTokens(encode(data));
      const json = estimateTokens(JSON.stringify(data));
      expect(r.format).toBe(toon <= json ? "toon" : "json");
    }
  });

  it("round-trips: the TOON text decodes, and the JSON text parses, back to the same data", () => {
    const formats = new Set<string>();
    for (const data of samples) {
      const r = encodeData(data);
      formats.add(r.format);
      expect(roundTrip(r)).toEqual(data);
    }
    // Both branches are exercised by the samples.
    expect([...formats].sort()).toEqual(["json", "toon"]);
  });

  it("normalises through JSON first, so both encodings describe the same value", () => {
    const at = new Date("2026-11-22T10:00:00.000Z");
    const r = encodeData({ tool: "vault_read", skipped: undefined, at, ratio: Number.NaN });
    expect(roundTrip(r)).toEqual({ tool: "vault_read", at: "2026-11-22T10:00:00.000Z", ratio: null });
    expect(encodeData(undefined)).toEqual({ format: "toon", text: "null" });
  });

  it("is deterministic: same data, same format and text", () => {
    for (const data of samples) {
      expect(encodeData(data)).toEqual(encodeData(structuredClone(data)));
    }
    const rows = Array.from({ length: 20 }, (_, i) => ({ tool: `t${i % 3}`, n: i }));
    const first = encodeData(rows);
    for (let i = 0; i < 5; i++) expect(encodeData(rows)).toEqual(first);
  });
});

describe("estimateTokens", () => {
  it("counts nothing for empty text and something for any text", () => {
    expect(estimateTokens("")).toBe(0);
    expect(estimateTokens("a")).toBe(1);
    expect(estimateTokens(" ")).toBe(1);
  });

  it("grows with the text: more words, rows, digits or structure cost more", () => {
    const words = (n: number) => Array.from({ length: n }, (_, i) => `word${String.fromCharCode(97 + (i % 26))}`);
    expect(estimateTokens(words(10).join(" "))).toBeGreaterThan(estimateTokens(words(5).join(" ")));
    expect(estimateTokens(encode([...failures, ...failures]))).toBeGreaterThan(estimateTokens(encode(failures)));
    expect(estimateTokens("123456789")).toBeGreaterThan(estimateTokens("123"));
    expect(estimateTokens(JSON.stringify(failures, null, 2))).toBeGreaterThan(estimateTokens(JSON.stringify(failures)));
  });

  it("is close to o200k on typical notification text", () => {
    // o200k_base counts (gpt-tokenizer): 26 for the JSON, 25 for the TOON of the same failure.
    const failure = { tool: "vault_read", error_type: "error", error: "No note at projects/q3-plan.md", count: 2 };
    expect(estimateTokens(JSON.stringify(failure))).toBeGreaterThanOrEqual(23);
    expect(estimateTokens(JSON.stringify(failure))).toBeLessThanOrEqual(29);
    expect(estimateTokens(encode(failure))).toBeGreaterThanOrEqual(22);
    expect(estimateTokens(encode(failure))).toBeLessThanOrEqual(28);
  });
});
