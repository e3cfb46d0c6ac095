// A server's JSON Schema reduced to what the Worker can check in bounded time (mcp/tool-schema.ts):
// pathological schemas end quickly, and the reduction never refuses a value the original accepts.
import { Validator } from "@cfworker/json-schema";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { boundedValidator, checkableSchema, MAX_SCHEMA_NODES } from "../../mcp/tool-schema";

const REDOS = "^(a+)+$";
/** 2^30 backtracking paths for REDOS: about 40 s in Node if the pattern ever ran. */
const EVIL = `${"a".repeat(30)}!`;

const valid = (schema: unknown, value: unknown) => boundedValidator(schema).validate(value).valid;
const keywordsOf = (schema: unknown): string[] =>
  JSON.stringify(schema).match(/"(pattern|patternProperties|format|\$ref|uniqueItems|\$defs)"/g) ?? [];

/** Counts the schema objects of a reduced schema (every node below a keyword). */
function nodes(schema: unknown): number {
  if (typeof schema !== "object" || schema === null) return 0;
  if (Array.isArray(schema)) return schema.reduce((n: number, s) => n + nodes(s), 0);
  return 1 + Object.values(schema).reduce((n: number, s) => n + nodes(s), 0);
}

describe("pathological schemas", () => {
  it("never runs a server's regular expression, in pattern or patternProperties", () => {
    const schema = {
      type: "object",
      properties: { text: { type: "string", pattern: REDOS } },
      patternProperties: { "^(x+)+$": { type: "number" } },
      additionalProperties: false,
      propertyNames: { pattern: REDOS },
      required: ["text"],
    };
    const reduced = checkableSchema(schema);
    expect(keywordsOf(reduced.schema)).toEqual([]);
    expect(reduced.dropped).toEqual(expect.arrayContaining(["pattern", "patternProperties", "additionalProperties"]));
    expect(valid(schema, { text: EVIL, xxxxxxxxxxxxxxxxxxxxxxxxxxxxxx: 1 })).toBe(true);
    // What does not depend on a regex is still checked.
    expect(valid(schema, { text: 42 })).toBe(false);
    expect(valid(schema, {})).toBe(false);
  });

  it("leaves formats and uniqueItems to the server", () => {
    const schema = {
      type: "object",
      properties: {
        mail: { type: "string", format: "email" },
        at: { type: "string", format: "date-time" },
        list: { type: "array", uniqueItems: true, items: { type: "integer" } },
      },
    };
    expect(keywordsOf(checkableSchema(schema).schema)).toEqual([]);
    expect(valid(schema, { mail: `${"a".repeat(50_000)}@`, list: Array.from({ length: 20_000 }, () => 1) })).toBe(true);
    expect(valid(schema, { list: ["x"] })).toBe(false);
  });

  it("ends on ref cycles, remote refs and a ref chain that doubles at every step", () => {
    const doubling: Record<string, unknown> = {};
    for (let i = 0; i < 60; i++)
      doubling[`d${i}`] = { allOf: [{ $ref: `#/$defs/d${i + 1}` }, { $ref: `#/$defs/d${i + 1}` }] };
    doubling.d60 = { type: "string" };
    const schemas = [
      { $ref: "#" },
      { $defs: { a: { $ref: "#/$defs/b" }, b: { $ref: "#/$defs/a" } }, $ref: "#/$defs/a" },
      { $defs: doubling, $ref: "#/$defs/d0" },
      { $ref: "https://example.com/schema.json" },
      { $dynamicRef: "#meta", $recursiveRef: "#" },
      { properties: { x: { $ref: "#/nowhere" } } },
    ];
    for (const schema of schemas) {
      const reduced = checkableSchema(schema);
      expect(keywordsOf(reduced.schema)).toEqual([]);
      expect(nodes(reduced.schema)).toBeLessThanOrEqual(MAX_SCHEMA_NODES);
      expect(valid(schema, "anything")).toBe(true);
    }
  });

  it("keeps a recursive schema's checks down to the cycle", () => {
    const tree = {
      $defs: {
        node: {
          type: "object",
          properties: { name: { type: "string" }, children: { type: "array", items: { $ref: "#/$defs/node" } } },
          required: ["name"],
        },
      },
      $ref: "#/$defs/node",
    };
    expect(valid(tree, { name: "root", children: [{ name: "leaf", children: [] }] })).toBe(true);
    expect(valid(tree, { name: 5 })).toBe(false);
    expect(valid(tree, { children: [] })).toBe(false);
  });

  it("bounds the nodes, the depth and an enum's length", () => {
    let deep: Record<string, unknown> = { type: "string" };
    for (let i = 0; i < 10_000; i++) deep = { type: "object", properties: { x: deep } };
    expect(nodes(checkableSchema(deep).schema)).toBeLessThanOrEqual(MAX_SCHEMA_NODES);
    const wide = {
      type: "object",
      properties: Object.fromEntries(Array.from({ length: 50_000 }, (_, i) => [`p${i}`, { type: "string" }])),
    };
    expect(nodes(checkableSchema(wide).schema)).toBeLessThanOrEqual(MAX_SCHEMA_NODES + 1);
    const huge = { enum: Array.from({ length: 100_000 }, (_, i) => i) };
    expect(checkableSchema(huge).schema).toEqual({});
    expect(valid(huge, -1)).toBe(true);
    expect(valid({ enum: [1, 2, 3] }, 4)).toBe(false);
  });

  it("loosens not, if, oneOf and maxContains as a whole when something below them was left out", () => {
    // Kept as `not: {}` the first would refuse everything; the others would refuse these good values.
    expect(valid({ not: { pattern: "^b" } }, "abc")).toBe(true);
    expect(valid({ oneOf: [{ pattern: "^a" }, { pattern: "^b" }] }, "abc")).toBe(true);
    // biome-ignore lint/suspicious/noThenProperty: JSON Schema's if/then/else
    expect(valid({ if: { pattern: "^a" }, then: { minLength: 10 }, else: { maxLength: 1 } }, "bcd")).toBe(true);
    expect(valid({ contains: { pattern: "^a" }, maxContains: 1 }, ["ab", "bb", "cb"])).toBe(true);
    // Without anything left out they check as before.
    expect(valid({ not: { type: "string" } }, "abc")).toBe(false);
    expect(valid({ oneOf: [{ type: "string" }, { minLength: 1 }] }, "abc")).toBe(false);
  });
});

// Schemas built from a grammar of keywords (unsafe ones included, with harmless patterns so the
// original can run), and values to check against both: whatever the original accepts, so does the reduction.
const leaf = fc.oneof(
  fc.constantFrom("string", "number", "integer", "boolean", "array", "object", "null").map((type) => ({ type })),
  fc.record({ pattern: fc.constantFrom("^a", "b$", "^[0-9]+$", "x") }),
  fc.record({ format: fc.constantFrom("email", "date", "uri", "ipv4") }),
  fc.record({ enum: fc.array(fc.jsonValue({ maxDepth: 1 }), { maxLength: 4 }) }),
  fc.record({ const: fc.jsonValue({ maxDepth: 1 }) }),
  fc.record({ minLength: fc.nat(3) }),
  fc.record({ maximum: fc.integer({ min: -5, max: 5 }) }),
  fc.record({ uniqueItems: fc.boolean() }),
  fc.record({ required: fc.array(fc.constantFrom("a", "b"), { maxLength: 2 }) }),
  fc.constant({ $ref: "#/$defs/x" }),
  fc.constant({ $ref: "#" }),
  fc.boolean(),
);
const { schema: schemaArb } = fc.letrec((tie) => ({
  schema: fc.oneof({ depthSize: "small", withCrossShrink: true }, leaf, tie("node")),
  node: fc.oneof(
    fc.record({ properties: fc.dictionary(fc.constantFrom("a", "b", "c"), tie("schema"), { maxKeys: 2 }) }),
    fc.record({
      patternProperties: fc.dictionary(fc.constantFrom("^a", "b"), tie("schema"), { maxKeys: 1 }),
      additionalProperties: tie("schema"),
    }),
    fc.record({ items: tie("schema") }),
    fc.record({ contains: tie("schema"), maxContains: fc.nat(2) }),
    fc.record({ allOf: fc.array(tie("schema"), { minLength: 1, maxLength: 2 }) }),
    fc.record({ anyOf: fc.array(tie("schema"), { minLength: 1, maxLength: 2 }) }),
    fc.record({ oneOf: fc.array(tie("schema"), { minLength: 1, maxLength: 2 }) }),
    fc.record({ not: tie("schema") }),
    // biome-ignore lint/suspicious/noThenProperty: JSON Schema's if/then/else
    fc.record({ if: tie("schema"), then: tie("schema"), else: tie("schema") }),
    fc.record({ propertyNames: tie("schema") }),
  ),
}));
const rootArb = fc
  .tuple(schemaArb, schemaArb)
  .map(([schema, x]) => (typeof schema === "object" && schema !== null ? { ...schema, $defs: { x } } : schema));
const valueArb = fc.oneof(
  fc.jsonValue({ maxDepth: 2 }),
  fc.constantFrom("a", "ab", "b", "123", "x@y.z", "2026-11-24", ["a", "a"], { a: "a", b: 1 }, { ab: "b" }),
);

describe("the reduction", () => {
  it("accepts every value the original schema accepts", () => {
    fc.assert(
      fc.property(rootArb, fc.array(valueArb, { minLength: 1, maxLength: 6 }), (schema, values) => {
        const original = new Validator(schema as never, "2020-12", true);
        const reduced = boundedValidator(schema);
        for (const value of values) {
          const after = reduced.validate(value).valid;
          let before: boolean;
          try {
            before = original.validate(value).valid;
          } catch {
            continue; // the original itself cannot decide (a ref cycle overflows its stack)
          }
          if (before) expect(after, JSON.stringify(value)).toBe(true);
        }
      }),
      { numRuns: 1500 },
    );
  });

  it("changes nothing in a schema with nothing to leave out", () => {
    const schema = {
      type: "object",
      properties: { text: { type: "string", minLength: 1 }, n: { type: "integer", maximum: 3 } },
      required: ["text"],
      additionalProperties: false,
    };
    expect(checkableSchema(schema)).toEqual({ schema, draft: "2020-12", dropped: [] });
  });
});
