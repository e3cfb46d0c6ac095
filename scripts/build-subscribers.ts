// `npm run subscribers:build` (part of `npm run build`): compiles the notification subscribers of
// subscribers/ — `<id>.json` checked against SubscriberConfigSchema, plus the headline template, inline
// or in `<id>.eta` — into subscribers/subscribers.generated.ts (see subscribers/README.md).
// An invalid file does not fail the build: it is left out, listed in INVALID_SUBSCRIBERS and warned about.
//
//   node scripts/build-subscribers.ts [--check] [--dir <dir>] [--out <file>]
//
// --check  prints every file with OK or its reason, writes nothing, exits 1 if any file is invalid.
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { registerHooks } from "node:module";
import { basename, dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { compileTemplate, TEMPLATE_SHIM } from "./compile-templates.ts";

// protocol/ uses extensionless relative imports (bundler resolution); let Node find the .ts files.
registerHooks({
  resolve(specifier, context, nextResolve) {
    try {
      return nextResolve(specifier, context);
    } catch (error) {
      if (/^\.\.?\//.test(specifier) && !/\.[cm]?[jt]s$/.test(specifier))
        return nextResolve(`${specifier}.ts`, context);
      throw error;
    }
  },
});
const { SubscriberConfigSchema } = (await import(
  "../protocol/subscriber.ts"
)) as typeof import("../protocol/subscriber.ts");
type SubscriberConfig = import("../protocol/subscriber.ts").SubscriberConfig;

/** The headline when a subscriber has no template: "3 tool.success events". */
export const DEFAULT_TEMPLATE =
  '<%= it.total %> <%= [...new Set(it.events.map((e) => e.type))].join(", ") %> event<%= it.total === 1 ? "" : "s" %>';

export interface Valid {
  file: string;
  config: SubscriberConfig;
  /** Where the headline template came from: the .eta file, "inline" or "default". */
  template: string;
  compiled: string;
}
export interface Invalid {
  file: string;
  reason: string;
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Validates one `<id>.json` (and its template) or says why it is invalid. */
export function loadSubscriber(dir: string, name: string): Valid | Invalid {
  const file = join(dir, name);
  const stem = basename(name, ".json");
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(file, "utf8"));
  } catch (error) {
    return { file, reason: `not valid JSON: ${message(error)}` };
  }
  const parsed = SubscriberConfigSchema.safeParse(json);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.length ? i.path.join(".") : "(file)"}: ${i.message}`);
    return { file, reason: issues.join("; ") };
  }
  const config = parsed.data;
  if (config.id !== stem) return { file, reason: `id "${config.id}" must equal the file name "${stem}"` };
  const etaFile = join(dir, `${stem}.eta`);
  const hasEta = existsSync(etaFile);
  if (hasEta && config.template !== undefined) {
    return { file, reason: `has both an inline "template" and ${etaFile}; keep one` };
  }
  const [source, template] = hasEta
    ? [readFileSync(etaFile, "utf8"), etaFile]
    : config.template !== undefined
      ? [config.template, "inline"]
      : [DEFAULT_TEMPLATE, "default"];
  try {
    const label = template === "inline" ? `${file} (template)` : template;
    return { file, config, template, compiled: compileTemplate(source, label) };
  } catch (error) {
    return { file, reason: `template does not compile: ${message(error)}` };
  }
}

/** Every subscriber of `dir`, valid ones sorted by id; an .eta without its .json is reported too. */
export function loadSubscribers(dir: string): { valid: Valid[]; invalid: Invalid[] } {
  const names = existsSync(dir) ? readdirSync(dir).sort() : [];
  const valid: Valid[] = [];
  const invalid: Invalid[] = [];
  for (const name of names.filter((n) => n.endsWith(".json"))) {
    const result = loadSubscriber(dir, name);
    if ("reason" in result) invalid.push(result);
    else valid.push(result);
  }
  for (const name of names.filter((n) => n.endsWith(".eta"))) {
    if (!names.includes(`${basename(name, ".eta")}.json`)) {
      invalid.push({
        file: join(dir, name),
        reason: `template without a subscriber file ${basename(name, ".eta")}.json`,
      });
    }
  }
  valid.sort((a, b) => (a.config.id < b.config.id ? -1 : a.config.id > b.config.id ? 1 : 0));
  invalid.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
  return { valid, invalid };
}

/** The generated module's text; `protocolImport` is the path of protocol/ relative to the module. */
export function subscribersModule(valid: Valid[], invalid: Invalid[], dir: string, protocolImport: string): string {
  const entries = valid
    .map(
      (s) => `  {
    config: ${JSON.stringify(s.config)},
    file: ${JSON.stringify(s.file)},
    render: headline(${s.compiled}),
  },`,
    )
    .join("\n");
  return `// GENERATED by scripts/build-subscribers.ts from ${dir}/*.json and *.eta. Do not edit by hand:
// edit the subscriber files and run \`npm run subscribers:build\` (see subscribers/README.md).
// @ts-nocheck
import type { SubscriberConfig, TemplateData } from "${protocolImport}";

export interface CompiledSubscriber {
  config: SubscriberConfig;
  file: string;
  /** The notification's one-line headline; throws if the template throws. */
  render(data: TemplateData): string;
}

const shim = ${TEMPLATE_SHIM};

/** Runs a compiled template and keeps one trimmed line (line breaks of multi-line templates become spaces). */
function headline(template) {
  return (data) => String(template.call(shim, data, {})).replace(/\\s*[\\r\\n]+\\s*/g, " ").trim();
}

const subscribers = [
${entries}
];

/** The valid subscribers, sorted by id. */
export const SUBSCRIBERS: readonly CompiledSubscriber[] = Object.freeze(subscribers);

/** Files left out of SUBSCRIBERS, with the reason. */
export const INVALID_SUBSCRIBERS: readonly { file: string; reason: string }[] = Object.freeze(${JSON.stringify(invalid, null, 2)});
`;
}

function main(): void {
  const { values } = parseArgs({
    options: {
      check: { type: "boolean", default: false },
      dir: { type: "string", default: "subscribers" },
      out: { type: "string" },
    },
  });
  const dir = values.dir;
  const out = values.out ?? join(dir, "subscribers.generated.ts");
  const { valid, invalid } = loadSubscribers(dir);
  if (values.check) {
    for (const s of valid) console.log(`OK       ${s.file} (${s.config.id}, template: ${s.template})`);
    for (const i of invalid) console.log(`INVALID  ${i.file}: ${i.reason}`);
    console.log(`${valid.length} valid, ${invalid.length} invalid`);
    process.exit(invalid.length ? 1 : 0);
  }
  for (const i of invalid) console.warn(`warning: skipped subscriber ${i.file}: ${i.reason}`);
  let protocolImport = relative(dirname(resolve(out)), fileURLToPath(new URL("../protocol", import.meta.url)))
    .split("\\")
    .join("/");
  if (!protocolImport.startsWith(".")) protocolImport = `./${protocolImport}`;
  writeFileSync(out, subscribersModule(valid, invalid, dir, protocolImport));
  console.log(
    `compiled ${valid.length} subscribers into ${out}${invalid.length ? ` (${invalid.length} invalid, left out)` : ""}`,
  );
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
