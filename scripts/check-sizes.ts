// `npm run check` step: the Durable Object stays a folder of small concerns (CONTRIBUTING.md, The
// layers). A file in durable-objects/ has at most 250 lines and a class there at most 20 members
// (fields, constructor parameter properties, methods, getters and setters; the constructor itself not
// counted). A function's length is biome's (noExcessiveLinesPerFunction, 60 there). TypeScript 7's
// package exposes no compiler API, so the classes are read with Babel's parser (@babel/core).
// `--report`: every file's lines, every class's members and the longest functions, for a review.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";

/** The little of Babel's AST this reads (@babel/core ships no types). */
interface Node {
  type: string;
  kind?: string;
  loc?: { start: { line: number }; end: { line: number } };
  id?: { name?: string } | null;
  key?: { type: string; name?: string };
  params?: Node[];
  body?: Node | Node[] | { body: Node[] };
}
const { parseSync } = createRequire(import.meta.url)("@babel/core") as {
  parseSync(code: string, options: object): Node | null;
};
const FUNCTION =
  /^(FunctionDeclaration|FunctionExpression|ArrowFunctionExpression|ClassMethod|ClassPrivateMethod|ObjectMethod)$/;

/** Every node below `node`, depth first. */
function* walk(node: unknown): Generator<Node> {
  if (Array.isArray(node)) {
    for (const child of node) yield* walk(child);
    return;
  }
  if (!node || typeof node !== "object") return;
  if (typeof (node as Node).type === "string") yield node as Node;
  for (const [key, value] of Object.entries(node)) if (key !== "loc" && typeof value === "object") yield* walk(value);
}

const ROOT = path.resolve(import.meta.dirname, "..");
const MAX_LINES = 250;
const MAX_MEMBERS = 20;
const report = process.argv.includes("--report");
const folders = process.argv.slice(2).filter((a) => !a.startsWith("--"));

const files = execFileSync(
  "git",
  ["ls-files", "--cached", "--others", "--exclude-standard", ...(folders.length ? folders : ["durable-objects"])],
  { cwd: ROOT, encoding: "utf8" },
)
  .split("\n")
  .filter((f) => f.endsWith(".ts"));

const failures: string[] = [];
const functions: { where: string; lines: number }[] = [];
for (const file of files) {
  const text = readFileSync(path.join(ROOT, file), "utf8");
  const lines = text.split("\n").length - (text.endsWith("\n") ? 1 : 0);
  if (lines > MAX_LINES) failures.push(`${file}: ${lines} lines (at most ${MAX_LINES})`);
  const ast = parseSync(text, {
    filename: file,
    babelrc: false,
    configFile: false,
    parserOpts: { plugins: ["typescript", "decorators"] },
  });
  if (!ast) throw new Error(`${file}: not parsed`);
  const classes: string[] = [];
  for (const node of walk(ast)) {
    if (node.type === "ClassDeclaration" || node.type === "ClassExpression") {
      const members = (node.body as { body: Node[] }).body.reduce((n, member) => {
        if (member.type === "ClassMethod" && member.kind === "constructor")
          return n + (member.params ?? []).filter((p) => p.type === "TSParameterProperty").length;
        return member.type === "StaticBlock" || member.type === "TSIndexSignature" ? n : n + 1;
      }, 0);
      const name = node.id?.name ?? "(anonymous class)";
      classes.push(`${name} ${members}`);
      if (members > MAX_MEMBERS)
        failures.push(`${file}: class ${name} has ${members} members (at most ${MAX_MEMBERS})`);
    } else if (FUNCTION.test(node.type)) {
      const start = node.loc?.start.line ?? 0;
      const name = (node.key?.type === "Identifier" && node.key.name) || node.id?.name || "(arrow or anonymous)";
      functions.push({ where: `${file}:${start} ${name}`, lines: (node.loc?.end.line ?? 0) - start + 1 });
    }
  }
  if (report) console.log(`${String(lines).padStart(5)}  ${file}${classes.length ? `  [${classes.join(", ")}]` : ""}`);
}
if (report) {
  console.log("\nlongest functions:");
  for (const f of functions.sort((a, b) => b.lines - a.lines).slice(0, 12))
    console.log(`${String(f.lines).padStart(5)}  ${f.where}`);
}
if (failures.length) {
  console.error(`Too large for durable-objects/ (CONTRIBUTING.md, The layers):\n${failures.join("\n")}`);
  process.exit(1);
}
console.log(`sizes: ${files.length} files checked`);
