// `npx vitest run --config bench/vitest.d1.config.ts` (bench/run.ts does): the `workers` project of
// vitest.config.ts (workerd, real D1 and Durable Objects, the fake OpenAI server), running only the D1
// hot-path benchmark, which the normal test globs leave out.
import { fileURLToPath } from "node:url";
import { defineConfig, type TestProjectInlineConfiguration, type ViteUserConfig } from "vitest/config";
import base from "../vitest.config.ts";

export default defineConfig(async (env) => {
  const config = (await (base as (e: typeof env) => Promise<ViteUserConfig>)(env)) as ViteUserConfig;
  const projects = (config.test?.projects ?? []) as TestProjectInlineConfiguration[];
  const workers = projects.find((p) => p.test?.name === "workers");
  if (!workers) throw new Error("vitest.config.ts has no workers project");
  return {
    root: fileURLToPath(new URL("..", import.meta.url)),
    test: {
      projects: [
        {
          ...workers,
          test: {
            ...workers.test,
            name: "d1-bench",
            include: ["test/workers/d1-hot-path.bench-test.ts"],
            testTimeout: 600_000,
          },
        },
      ],
    },
  };
});
