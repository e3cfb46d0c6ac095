// What the client's build read, so that `npm start` rebuilds client/dist only when it is out of date.
// The build records every file of its module graph outside node_modules (the sources, their CSS), the
// static files it copies (client/public), its config and page, and package-lock.json (which stands for
// every library), each with its SHA-256, in a file beside the output folder (client/dist.inputs.json: not
// inside it, where it would be served). A start compares them with the files as they
// are now: one changed, gone or new in client/public, a build of another mode, or no record at all, and
// it builds again. A file the graph does not reach cannot change the output until a file it does reach
// changes to import it, and that file's hash then differs.
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { Plugin } from "vite";

const ROOT = path.resolve(import.meta.dirname, "..");
const PUBLIC = "client/public";
/** Read by the build whatever its graph: the config, the page, the lockfile. */
const ALWAYS = ["client/vite.config.ts", "client/index.html", "package-lock.json", "scripts/client-build-inputs.ts"];
/** The record of a build into `outDir`: beside the folder, not in it. */
const recordOf = (outDir: string) => `${outDir}.inputs.json`;

interface BuildRecord {
  mode: string;
  /** Path from the repository's root → SHA-256 of the file's bytes. */
  files: Record<string, string>;
}

const sha256 = (root: string, file: string) =>
  createHash("sha256")
    .update(readFileSync(path.join(root, file)))
    .digest("hex");

function publicFiles(root: string, dir = PUBLIC): string[] {
  if (!existsSync(path.join(root, dir))) return [];
  return readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const file = `${dir}/${entry.name}`;
    return entry.isDirectory() ? publicFiles(root, file) : [file];
  });
}

/** The Vite plugin that writes the record once the bundle is written (`root`: the repository's). */
export function recordBuildInputs(root = ROOT): Plugin {
  let outDir = "";
  let mode = "";
  const graph = new Set<string>();
  return {
    name: "oracle-build-inputs",
    apply: "build",
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
      mode = config.mode;
    },
    generateBundle() {
      for (const id of this.getModuleIds()) {
        const file = path.relative(root, id.split("?")[0] ?? "");
        if (id.startsWith("\0") || file.startsWith("..") || file.split(path.sep).includes("node_modules")) continue;
        if (existsSync(path.join(root, file))) graph.add(file.split(path.sep).join("/"));
      }
    },
    closeBundle() {
      const files = [...new Set([...ALWAYS, ...publicFiles(root), ...graph])].sort();
      const record: BuildRecord = { mode, files: Object.fromEntries(files.map((f) => [f, sha256(root, f)])) };
      writeFileSync(recordOf(outDir), `${JSON.stringify(record, null, 1)}\n`);
    },
  };
}

/**
 * Whether `root`'s client/dist holds a production build of the files as they are now (why not, when it
 * does not).
 */
export function clientBuildIsCurrent(root = ROOT): { current: boolean; why: string } {
  const dist = path.join(root, "client/dist");
  const recordFile = recordOf(dist);
  if (!existsSync(recordFile) || !existsSync(path.join(dist, "index.html"))) return { current: false, why: "no build" };
  const record = JSON.parse(readFileSync(recordFile, "utf8")) as BuildRecord;
  if (record.mode !== "production") return { current: false, why: `a ${record.mode} build` };
  for (const [file, hash] of Object.entries(record.files)) {
    if (!existsSync(path.join(root, file)) || sha256(root, file) !== hash) {
      return { current: false, why: `${file} changed` };
    }
  }
  const added = publicFiles(root).find((f) => !(f in record.files));
  if (added) return { current: false, why: `${added} is new` };
  return { current: true, why: "" };
}
