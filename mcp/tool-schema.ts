// JSON Schemas that an MCP server supplies (a tool's inputSchema and outputSchema) are text from
// outside that a validator would compile and run: a `pattern` such as ^(a+)+$ backtracks for ever on
// forty a's and a "!", a $ref cycle or a chain of refs that doubles at each step never ends, and the
// Worker's isolate is shared, so one such schema froze every user's turns and /api/health. This is the
// one place where such a schema is reduced to what the Worker can check in time bounded by the schema's
// and the value's sizes; every check of a server's schema (the tool's arguments before a call, and the
// SDK's check of structured results) runs on the reduced form.
//
// The reduced schema accepts everything the original accepts (it may accept more): the server checks its
// own arguments anyway, so a keyword left out here means a bad argument is refused by the server instead
// of before the call. Left out, and why:
// - `pattern`, `patternProperties`: regular expressions from outside (catastrophic backtracking); with
//   `patternProperties` gone, `additionalProperties` beside it goes too (it would refuse what they allowed).
// - `format`: format checks run the validator's own regular expressions over model text; the server checks.
// - `uniqueItems`: quadratic in the array's length.
// - `unevaluatedProperties`, `unevaluatedItems`: they depend on what the dropped keywords evaluated.
// - `$ref`: local refs (`#`, `#/…`) are inlined, within the node budget; a cycle, a remote or anchor ref,
//   `$dynamicRef` and `$recursiveRef` check nothing. The result has no refs, so each of its nodes meets each
//   part of a value at most once.
// - anything past MAX_SCHEMA_NODES nodes or MAX_SCHEMA_DEPTH levels, and an `enum` of over MAX_ENUM_VALUES.
// Where something below `not`, `if`, a `oneOf` branch or a `contains` with `maxContains` was left out, that
// keyword is loosened as a whole (`not` and `if`/`then`/`else` dropped, `oneOf` checked as `anyOf`,
// `maxContains` dropped), because a looser subschema there would make the whole one stricter.
import { Validator } from "@cfworker/json-schema";

export const MAX_SCHEMA_NODES = 1_000;
const MAX_SCHEMA_DEPTH = 24;
const MAX_ENUM_VALUES = 256;

type Schema = boolean | { [keyword: string]: unknown };
type Draft = "4" | "7" | "2019-09" | "2020-12";

interface Reduced {
  schema: Schema;
  /** Something was left out: the schema accepts more than the original. */
  loose: boolean;
}

interface Walk {
  root: unknown;
  draft: Draft;
  nodes: number;
  /** The refs being inlined on the way down: one met again is a cycle. */
  refs: string[];
  dropped: Set<string>;
}

const ANY: Schema = true;
const NUMBER_KEYWORDS = new Set([
  "multipleOf",
  "maximum",
  "exclusiveMaximum",
  "minimum",
  "exclusiveMinimum",
  "maxLength",
  "minLength",
  "maxItems",
  "minItems",
  "maxProperties",
  "minProperties",
  "minContains",
  "maxContains",
]);
const SCHEMA_KEYWORDS = new Set(["additionalItems", "propertyNames", "then", "else"]);
const SCHEMA_LIST_KEYWORDS = new Set(["allOf", "anyOf", "prefixItems"]);
const SCHEMA_MAP_KEYWORDS = new Set(["properties", "dependentSchemas"]);
const UNSAFE_KEYWORDS = new Set([
  "pattern",
  "patternProperties",
  "format",
  "uniqueItems",
  "unevaluatedProperties",
  "unevaluatedItems",
  "$dynamicRef",
  "$recursiveRef",
]);

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const isStringList = (v: unknown): v is string[] => Array.isArray(v) && v.every((x) => typeof x === "string");

/** The draft a schema declares in `$schema` (2020-12 when it names none we know). */
function schemaDraft(schema: unknown): Draft {
  const declared = isObject(schema) ? String(schema.$schema ?? "") : "";
  if (declared.includes("draft-04")) return "4";
  if (declared.includes("draft-07") || declared.includes("draft-06")) return "7";
  if (declared.includes("2019-09")) return "2019-09";
  return "2020-12";
}

/** The value a JSON pointer (`#/a/b`) names in the root schema, or undefined. */
function resolvePointer(root: unknown, ref: string): unknown {
  if (ref === "#") return root;
  if (!ref.startsWith("#/")) return undefined;
  let node: unknown = root;
  for (const raw of ref.slice(2).split("/")) {
    let key: string;
    try {
      key = decodeURIComponent(raw).replace(/~1/g, "/").replace(/~0/g, "~");
    } catch {
      return undefined;
    }
    if (Array.isArray(node)) node = node[Number(key)];
    else if (isObject(node) && Object.hasOwn(node, key)) node = node[key];
    else return undefined;
  }
  return node;
}

function reduceNode(node: unknown, walk: Walk, depth: number): Reduced {
  if (typeof node === "boolean") return { schema: node, loose: false };
  if (!isObject(node)) {
    walk.dropped.add("malformed schema");
    return { schema: ANY, loose: true };
  }
  if (depth > MAX_SCHEMA_DEPTH || ++walk.nodes > MAX_SCHEMA_NODES) {
    walk.dropped.add(depth > MAX_SCHEMA_DEPTH ? "nesting past the depth limit" : "nodes past the size limit");
    return { schema: ANY, loose: true };
  }
  let loose = false;
  const drop = (what: string) => {
    walk.dropped.add(what);
    loose = true;
  };
  const sub = (schema: unknown): Schema => {
    const reduced = reduceNode(schema, walk, depth + 1);
    loose ||= reduced.loose;
    return reduced.schema;
  };
  const out: Record<string, unknown> = {};
  /** Subschemas every value must also match, added to `allOf` once the keywords are read. */
  const alsoAll: Schema[] = [];
  let containsLoose = false;
  for (const [key, value] of Object.entries(node)) {
    if (UNSAFE_KEYWORDS.has(key)) drop(key);
    else if (NUMBER_KEYWORDS.has(key)) {
      if (typeof value === "number" && Number.isFinite(value)) out[key] = value;
      else drop(key);
    } else if (SCHEMA_KEYWORDS.has(key)) out[key] = sub(value);
    else if (SCHEMA_LIST_KEYWORDS.has(key)) {
      if (Array.isArray(value)) out[key] = value.map(sub);
      else drop(key);
    } else if (SCHEMA_MAP_KEYWORDS.has(key)) {
      if (isObject(value)) out[key] = Object.fromEntries(Object.entries(value).map(([k, v]) => [k, sub(v)]));
      else drop(key);
    } else
      switch (key) {
        case "type":
          if (typeof value === "string" || isStringList(value)) out.type = value;
          else drop(key);
          break;
        case "enum":
          if (Array.isArray(value) && value.length <= MAX_ENUM_VALUES) out.enum = value;
          else drop("enum (too many values)");
          break;
        case "const":
          out.const = value;
          break;
        case "required":
          if (isStringList(value)) out.required = value;
          else drop(key);
          break;
        case "dependentRequired":
          if (isObject(value) && Object.values(value).every(isStringList)) out.dependentRequired = value;
          else drop(key);
          break;
        case "dependencies":
          if (isObject(value))
            out.dependencies = Object.fromEntries(
              Object.entries(value).map(([k, v]) => [k, isStringList(v) ? v : sub(v)]),
            );
          else drop(key);
          break;
        case "items":
          out.items = Array.isArray(value) ? value.map(sub) : sub(value);
          break;
        case "additionalProperties":
          // Without patternProperties it would refuse the properties they allowed.
          if (node.patternProperties === undefined) out.additionalProperties = sub(value);
          else drop(key);
          break;
        case "contains": {
          const reduced = reduceNode(value, walk, depth + 1);
          out.contains = reduced.schema;
          loose ||= reduced.loose;
          containsLoose = reduced.loose;
          break;
        }
        case "oneOf":
          if (!Array.isArray(value)) drop(key);
          else {
            const branches = value.map((b) => reduceNode(b, walk, depth + 1));
            const schemas = branches.map((b) => b.schema);
            // Two loosened branches may both match a value only one of the originals matched.
            if (branches.some((b) => b.loose)) {
              drop("oneOf (checked as anyOf)");
              alsoAll.push({ anyOf: schemas });
            } else out.oneOf = schemas;
          }
          break;
        case "not": {
          const reduced = reduceNode(value, walk, depth + 1);
          if (reduced.loose) drop("not (its subschema was loosened)");
          else out.not = reduced.schema;
          break;
        }
        case "if": {
          const reduced = reduceNode(value, walk, depth + 1);
          if (reduced.loose) drop("if/then/else (its condition was loosened)");
          else out.if = reduced.schema;
          break;
        }
        // Annotations (title, description, default, examples, …), $defs, $id and unknown keywords check nothing.
      }
  }
  // A looser `contains` counts more items: an upper bound on them would refuse good values.
  if (containsLoose && out.maxContains !== undefined) {
    delete out.maxContains;
    walk.dropped.add("maxContains (its contains was loosened)");
  }
  if (out.if === undefined) {
    delete out.then;
    delete out.else;
  }
  if (typeof node.$ref === "string") {
    const target = inlineRef(node.$ref, walk, depth);
    loose ||= target.loose;
    // Draft-04 and draft-07 ignore the keywords beside a $ref.
    if (walk.draft === "4" || walk.draft === "7") return target;
    alsoAll.push(target.schema);
  }
  if (alsoAll.length) out.allOf = [...((out.allOf as Schema[] | undefined) ?? []), ...alsoAll];
  return { schema: out, loose };
}

/** The schema a local `$ref` points at, reduced in turn; a cycle or another kind of ref checks nothing. */
function inlineRef(ref: string, walk: Walk, depth: number): Reduced {
  const resolved = resolvePointer(walk.root, ref);
  if (resolved === undefined || walk.refs.includes(ref)) {
    walk.dropped.add(resolved === undefined ? "$ref (not a local pointer)" : "$ref (a cycle)");
    return { schema: ANY, loose: true };
  }
  walk.refs.push(ref);
  const target = reduceNode(resolved, walk, depth + 1);
  walk.refs.pop();
  return target;
}

export interface CheckableSchema {
  /** What the Worker validates against: no regex, no format, no ref, bounded in size. */
  schema: Schema;
  draft: Draft;
  /** What was left out (keywords, or why a part was cut), for logs and tests. */
  dropped: string[];
}

/** The server's schema reduced to what can be checked in bounded time (see the top of this file). */
export function checkableSchema(schema: unknown): CheckableSchema {
  const walk: Walk = { root: schema, draft: schemaDraft(schema), nodes: 0, refs: [], dropped: new Set() };
  const { schema: reduced } = reduceNode(schema, walk, 0);
  return { schema: reduced, draft: walk.draft, dropped: [...walk.dropped].sort() };
}

/** A validator of the reduced schema (@cfworker/json-schema: no code generation, which workerd forbids). */
export function boundedValidator(schema: unknown, shortCircuit = true): Validator {
  const checkable = checkableSchema(schema);
  return new Validator(checkable.schema as never, checkable.draft, shortCircuit);
}

/**
 * The MCP SDK's validator interface on reduced schemas: the SDK checks a tool's structured result against
 * its outputSchema, which a server supplies too.
 */
export class BoundedJsonSchemaValidator {
  getValidator<T>(schema: unknown) {
    const validator = boundedValidator(schema);
    return (input: unknown) => {
      const result = validator.validate(input);
      return result.valid
        ? { valid: true as const, data: input as T, errorMessage: undefined }
        : {
            valid: false as const,
            data: undefined,
            errorMessage: result.errors.map((e) => `${e.instanceLocation}: ${e.error}`).join("; "),
          };
    };
  }
}
