// `npm run build` step: compiles agent/prompts/*.eta into prompts.generated.ts.
import { readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { templateModule } from "./compile-templates.ts";

const dir = "agent/prompts";
const entries = readdirSync(dir)
  .filter((f) => f.endsWith(".eta"))
  .sort()
  .map((f) => ({ name: f.replace(/\.eta$/, ""), file: join(dir, f) }));
writeFileSync(join(dir, "prompts.generated.ts"), templateModule(entries, "scripts/build-prompts.ts"));
console.log(`compiled ${entries.length} prompt templates`);
