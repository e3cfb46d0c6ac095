// client/vite.config.ts pureSchemas: every top-level schema of protocol/ is wrapped whole as a pure call,
// so a schema the client never uses leaves nothing of itself (not even the calls in its arguments) in
// the first download; code that is not a schema, and files outside protocol/, are left as they are.
import path from "node:path";
import { expect, it } from "vitest";
import { pureSchemas } from "../../client/vite.config";

const transform = (code: string, file = path.resolve("protocol/example.ts")) => {
  const hook = pureSchemas().transform as (code: string, id: string) => { code: string } | null;
  return hook.call({}, code, file)?.code;
};

it("wraps each top-level schema's whole initializer as one pure call", () => {
  const code = [
    'import { z } from "zod";',
    "export const NameSchema: z.ZodString = z.string().trim().min(1, `empty`);",
    "const Wider = NameSchema.max(100);",
    "export const PairSchema = NameSchema.and(z.object({ n: z.number().int() }));",
    "export const LIMIT = Math.max(1, 2);",
    "export function helper() { return z.string(); }",
  ].join("\n");
  const out = transform(code) ?? "";
  expect(out).toContain(
    "export const NameSchema: z.ZodString = /* @__PURE__ */ (() => z.string().trim().min(1, `empty`))();",
  );
  expect(out).toContain(
    "export const PairSchema = /* @__PURE__ */ (() => NameSchema.and(z.object({ n: z.number().int() })))();",
  );
  // A schema built on another is one too; a plain value and a function are not schemas, and stay as written.
  expect(out).toContain("const Wider = /* @__PURE__ */ (() => NameSchema.max(100))();");
  expect(out).toContain("export const LIMIT = Math.max(1, 2);");
  expect(out).toContain("export function helper() { return z.string(); }");
});

it("leaves files outside protocol/ alone", () => {
  expect(transform("export const A = z.string();", path.resolve("client/src/x.ts"))).toBeUndefined();
});
