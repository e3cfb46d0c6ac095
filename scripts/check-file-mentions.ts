// `npm run check` step: every file a comment or a document names exists. A comment that points a reader
// at a file renamed since sends them nowhere; this catches it at the rename.
// A mention counts when it is a repo path (from the root or the mentioning file's folder) or the name
// of some file in the repo. Mentions of other projects' files are written with their project, in a
// URL or under node_modules, and are skipped.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";

const ROOT = path.resolve(import.meta.dirname, "..");
const files = execFileSync("git", ["ls-files", "--cached", "--others", "--exclude-standard"], {
  cwd: ROOT,
  encoding: "utf8",
})
  .split("\n")
  .filter(Boolean);
const paths = new Set(files);
const names = new Set(files.map((f) => path.posix.basename(f)));
const scanned = files.filter(
  (f) => /\.(ts|tsx|md|mjs)$/.test(f) && !f.endsWith(".generated.ts") && !f.startsWith("bench/results/"),
);
// A file name with one of the repo's extensions, not part of a URL or a package path.
const MENTION = /(?<![\w@/.:>-])((?:\.{0,2}\/)?[\w-]+(?:[./][\w-]+)*\.(?:ts|tsx|md|toml|eta))\b/g;
// Names that are not (yet) files of this repo.
const ELSEWHERE = new Set([
  // the worked example of subscribers/README.md: a file the reader adds
  "subscribers/vault_write_watch.eta",
]);

const topLevel = new Set(files.map((f) => f.split("/")[0]));
/** `notes/shopping.md`, `a.md`: a note's path in an example, not a file of the repo. */
const isExampleNote = (m: string) =>
  m.endsWith(".md") &&
  !/^[A-Z]/.test(path.posix.basename(m)) &&
  !topLevel.has(m.replace(/^\.{0,2}\//, "").split("/")[0] ?? "");

const missing: string[] = [];
for (const file of scanned) {
  const text = readFileSync(path.join(ROOT, file), "utf8");
  const lines = text.split("\n");
  lines.forEach((line, i) => {
    // In code, only comments: an import names its file and the compiler checks it.
    if (!file.endsWith(".md") && !/^\s*(\/\/|\/?\*)/.test(line) && !line.includes("// ")) return;
    const comment = file.endsWith(".md") ? line : line.slice(Math.max(0, line.search(/\/\/|\/?\*/)));
    for (const [, mention] of comment.matchAll(MENTION)) {
      if (
        !mention ||
        ELSEWHERE.has(mention) ||
        isExampleNote(mention) ||
        /https?:/.test(comment.slice(0, comment.indexOf(mention)).split(" ").at(-1) ?? "")
      )
        continue;
      const fromRoot = path.posix.normalize(mention.replace(/^\.\//, ""));
      const fromHere = path.posix.normalize(path.posix.join(path.posix.dirname(file), mention));
      if (paths.has(fromRoot) || paths.has(fromHere)) continue;
      if (!mention.includes("/") && names.has(mention)) continue;
      // A path whose last parts match a file (e.g. `turn/turn-host.ts`).
      if ([...paths].some((p) => p.endsWith(`/${fromRoot}`))) continue;
      missing.push(`${file}:${i + 1}: ${mention}`);
    }
  });
}
if (missing.length) {
  console.error(`Comments or documents name files that do not exist:\n${missing.join("\n")}`);
  process.exit(1);
}
console.log(`file mentions: ${scanned.length} files checked`);
