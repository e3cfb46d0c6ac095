// `npm start` rebuilds the client only when what the last build read has changed
// (scripts/client-build-inputs.ts): the build's plugin records its module graph's files with their
// hashes, and the start compares them with the files as they are. On a tree of its own in a temporary
// folder, with the plugin's hooks called as Vite calls them.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, expect, it } from "vitest";
import { clientBuildIsCurrent, recordBuildInputs } from "../../scripts/client-build-inputs.ts";

let root = "";
const put = (file: string, text: string) => {
  mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
  writeFileSync(path.join(root, file), text);
};

/** A build as Vite runs the plugin: config, the bundle's module ids, then the bundle written. */
function build(mode = "production", ids = ["client/src/main.tsx", "client/src/app.module.css?used"]) {
  const plugin = recordBuildInputs(root);
  const hook = (name: string, self: unknown, ...args: unknown[]) =>
    (plugin[name as keyof typeof plugin] as (...a: unknown[]) => void).call(self, ...args);
  hook("configResolved", undefined, { root: path.join(root, "client"), build: { outDir: "dist" }, mode });
  const moduleIds = [
    ...ids.map((id) => path.join(root, id)),
    "\0virtual:preact",
    path.join(root, "node_modules/preact/dist/preact.mjs"),
  ];
  hook("generateBundle", { getModuleIds: () => moduleIds.values() });
  put("client/dist/index.html", "<!doctype html>");
  hook("closeBundle", undefined);
}

beforeEach(() => {
  root = mkdtempSync(path.join(tmpdir(), "oracle-build-inputs-"));
  for (const file of [
    "client/vite.config.ts",
    "client/index.html",
    "package-lock.json",
    "scripts/client-build-inputs.ts",
  ])
    put(file, `// ${file}`);
  put("client/src/main.tsx", "export const a = 1;");
  put("client/src/app.module.css", ".a { color: red }");
  put("client/src/unused.ts", "export const u = 1;");
  put("client/public/sw.js", "self;");
  put("node_modules/preact/dist/preact.mjs", "export {}");
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

it("has no build to reuse before the first one", () => {
  expect(clientBuildIsCurrent(root)).toEqual({ current: false, why: "no build" });
});

it("reuses a build of the files as they are, whatever changed outside its graph", () => {
  build();
  expect(clientBuildIsCurrent(root)).toEqual({ current: true, why: "" });
  put("client/src/unused.ts", "export const u = 2;");
  put("node_modules/preact/dist/preact.mjs", "export const changed = 1;"); // the lockfile stands for libraries
  put("test/anything.ts", "");
  expect(clientBuildIsCurrent(root).current).toBe(true);
});

it("builds again when a source, a stylesheet, the lockfile or the config changed", () => {
  for (const file of [
    "client/src/main.tsx",
    "client/src/app.module.css",
    "package-lock.json",
    "client/vite.config.ts",
  ]) {
    build();
    put(file, "changed");
    expect(clientBuildIsCurrent(root)).toEqual({ current: false, why: `${file} changed` });
  }
});

it("builds again when a source is gone or a static file is new", () => {
  build();
  rmSync(path.join(root, "client/src/main.tsx"));
  expect(clientBuildIsCurrent(root)).toEqual({ current: false, why: "client/src/main.tsx changed" });
  put("client/src/main.tsx", "export const a = 1;");
  expect(clientBuildIsCurrent(root).current).toBe(true);
  put("client/public/icons/new.png", "png");
  expect(clientBuildIsCurrent(root)).toEqual({ current: false, why: "client/public/icons/new.png is new" });
});

it("does not serve a development build as the app", () => {
  build("development");
  expect(clientBuildIsCurrent(root)).toEqual({ current: false, why: "a development build" });
});

it("builds again when the output itself is gone", () => {
  build();
  rmSync(path.join(root, "client/dist"), { recursive: true });
  expect(clientBuildIsCurrent(root)).toEqual({ current: false, why: "no build" });
});
