// Writes generated.json: labelled tool-call sequences from a seeded generator, so the corpus is the
// same on every machine. `node bench/loop-corpus/generate.ts` rewrites it; the file is kept in the repo.
//
// Stuck: the same call again and again with the same answer; A-B-A-B with the same answers; a
// three-call cycle; one tool failing with the same error whatever the arguments; polling a job that
// never moves. Progressing, though repetitive to look at: paging; polling a job whose state changes;
// retrying after fixing the arguments; retrying after a passing failure (a timeout); reading several
// notes in turn; writing a note and reading it back after each edit; creating several tasks.
import { writeFileSync } from "node:fs";
import type { CorpusCall, CorpusSequence } from "./corpus.ts";

let seed = 20261123;
/** mulberry32: small, seeded, good enough to vary the shapes. */
function random(): number {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = seed;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}
const int = (min: number, max: number) => min + Math.floor(random() * (max - min + 1));
const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;

const WORDS = ["budget", "roadmap", "hiring", "q3 plan", "offsite", "pricing", "launch", "retro", "okr", "invoice"];
const PATHS = ["plan.md", "notes/roadmap.md", "notes/hiring.md", "meetings/retro.md", "ideas.md", "todo.md"];
const ERRORS = [
  "Search is unavailable: the index is being rebuilt",
  "connection refused",
  "Invalid arguments for vault_search: query: Too small: expected string to have >=1 characters",
  "rate limited by the server",
  "permission denied",
];

const ok = (tool: string, args: unknown, result: unknown = { n: int(0, 1e6) }): CorpusCall => ({
  tool,
  args,
  ok: true,
  result,
});
const fail = (tool: string, args: unknown, error: string): CorpusCall => ({ tool, args, ok: false, error });

/** A few honest, varied calls before the part that matters. */
function prefix(): CorpusCall[][] {
  return Array.from({ length: int(0, 3) }, (_, i) => [
    pick([
      ok("vault_search", { query: `${pick(WORDS)} ${i}` }),
      ok("vault_read", { path: `${pick(PATHS)}`.replace(".md", `-${i}.md`) }),
      ok("task_list", { status: pick(["open", "done"]) }, { tasks: i }),
    ]),
  ]);
}

const families: Record<string, { label: CorpusSequence["label"]; make: () => CorpusCall[][] }> = {
  repeat: {
    label: "stuck",
    make: () => {
      const call = pick([
        ok("vault_search", { query: pick(WORDS) }, { results: [] }),
        ok("vault_read", { path: pick(PATHS) }, { content: "same" }),
        fail("vault_read", { path: "missing.md" }, "No note at missing.md"),
        ok("task_list", {}, { tasks: [] }),
      ]);
      return Array.from({ length: int(3, 8) }, () => [call]);
    },
  },
  alternation: {
    label: "stuck",
    make: () => {
      const a = ok("vault_search", { query: pick(WORDS) }, { results: ["plan.md"] });
      const b = ok("vault_read", { path: pick(PATHS) }, { content: "unchanged" });
      return Array.from({ length: int(6, 10) }, (_, i) => [i % 2 ? b : a]);
    },
  },
  cycle: {
    label: "stuck",
    make: () => {
      const cycle = [
        ok("vault_list", {}, { notes: PATHS }),
        ok("vault_read", { path: pick(PATHS) }, { content: "x" }),
        ok("task_list", {}, { tasks: [] }),
      ];
      return Array.from({ length: int(9, 12) }, (_, i) => [cycle[i % 3] as CorpusCall]);
    },
  },
  same_error: {
    label: "stuck",
    make: () => {
      const error = pick(ERRORS);
      const tool = pick(["vault_search", "local__fetch", "task_update"]);
      return Array.from({ length: int(3, 6) }, (_, i) => [fail(tool, { query: `${pick(WORDS)} ${i}` }, error)]);
    },
  },
  poll_forever: {
    label: "stuck",
    make: () =>
      Array.from({ length: int(4, 8) }, () => [ok("task_list", { status: "in_progress" }, { tasks: ["t1"] })]),
  },
  paging: {
    label: "progressing",
    make: () => {
      const query = pick(WORDS);
      return Array.from({ length: int(3, 10) }, (_, page) => [
        ok("vault_search", { query, page: page + 1 }, { results: [`r${page}`] }),
      ]);
    },
  },
  polling: {
    label: "progressing",
    make: () => {
      const states = Array.from({ length: int(3, 7) }, (_, i) => ({ status: "in_progress", percent: (i + 1) * 12 }));
      return [...states, { status: "done", percent: 100 }].map((result) => [
        ok("task_list", { status: "in_progress" }, result),
      ]);
    },
  },
  retry_after_fix: {
    label: "progressing",
    make: () => {
      const tool = pick(["vault_search", "task_create", "vault_write"]);
      // Each attempt fixes something: the error changes, then the call goes through.
      const fields = ["query", "title", "path"].sort(() => random() - 0.5);
      const wrong = Array.from({ length: int(1, 2) }, (_, i) => [
        fail(tool, { attempt: i }, `Invalid arguments for ${tool}: ${fields[i]}: Required`),
      ]);
      return [
        ...prefix(),
        ...wrong,
        [ok(tool, { query: pick(WORDS), fixed: true })],
        [ok("vault_read", { path: pick(PATHS) })],
      ];
    },
  },
  transient_retry: {
    label: "progressing",
    make: () => {
      const call = { tool: "vault_search", args: { query: pick(WORDS) } };
      return [
        ...prefix(),
        [fail(call.tool, call.args, pick(["vault_search timed out after 30 s", "rate limited by the server"]))],
        [ok(call.tool, call.args, { results: ["plan.md"] })],
        [ok("vault_read", { path: "plan.md" })],
      ];
    },
  },
  read_several: {
    label: "progressing",
    make: () => {
      const paths = [...PATHS].sort(() => random() - 0.5).slice(0, int(3, 6));
      return paths.map((path, i) => [
        i === 1 && random() < 0.3
          ? fail("vault_read", { path }, `No note at ${path}`)
          : ok("vault_read", { path }, { content: `note ${i}` }),
      ]);
    },
  },
  write_then_verify: {
    label: "progressing",
    make: () => {
      const path = pick(PATHS);
      return Array.from({ length: int(4, 8) }, (_, i) =>
        i % 2 === 0
          ? [ok("vault_write", { path, content: `draft ${i}` }, { bytes: 10 + i })]
          : [ok("vault_read", { path }, { content: `draft ${i - 1}` })],
      );
    },
  },
  create_tasks: {
    label: "progressing",
    make: () =>
      Array.from({ length: int(3, 8) }, (_, i) => [
        ok("task_create", { title: `${pick(WORDS)} #${i}` }, { id: `t${i}` }),
      ]),
  },
  parallel_reads: {
    label: "progressing",
    make: () => {
      const paths = [...PATHS].sort(() => random() - 0.5);
      return [
        [ok("vault_search", { query: pick(WORDS) }, { results: paths.slice(0, 3) })],
        paths.slice(0, 3).map((path, i) => ok("vault_read", { path }, { content: `n${i}` })),
        [ok("vault_write", { path: "summary.md", content: "summary" })],
      ];
    },
  },
};

const PER_FAMILY = 40;
const sequences: CorpusSequence[] = [];
for (const [kind, family] of Object.entries(families)) {
  for (let i = 0; i < PER_FAMILY; i++) {
    const body = family.make();
    const steps = family.label === "stuck" ? [...prefix(), ...body] : body;
    sequences.push({ id: `${kind}-${i + 1}`, label: family.label, kind, steps });
  }
}
// One sequence per line: small, and a change to the generator shows as the lines it changed.
writeFileSync(
  new URL("./generated.json", import.meta.url),
  `[\n${sequences.map((sequence) => JSON.stringify(sequence)).join(",\n")}\n]\n`,
);
console.log(`wrote ${sequences.length} sequences`);
