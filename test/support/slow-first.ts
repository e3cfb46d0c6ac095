// The order test files start in. Vitest starts the files it timed before longest first, but a clean
// clone (CI) has no timings, and it falls back to the largest files first: the real-model file, which
// takes the machine for a minute and a half, then started among the last and ran on alone. The files
// measured slowest (CONTRIBUTING.md "Where the time goes") start first; the rest keep Vitest's order.
import { BaseSequencer, type TestSpecification } from "vitest/node";

/** Slowest first, by the wall time of one clean-clone run (issue 39); paths from the repository's root. */
const SLOWEST = [
  "test/e2e/real-llm.test.ts",
  "test/e2e/recovery.test.ts",
  "test/e2e/start.test.ts",
  "test/e2e/schedules-page.test.ts",
  "test/e2e/notices.test.ts",
  "test/e2e/system-items.test.ts",
  "test/e2e/schedules.test.ts",
  "test/e2e/conversations.test.ts",
  "test/e2e/settings-models.test.ts",
  "test/e2e/layout.test.ts",
  "test/e2e/recovery-browser.test.ts",
  "test/e2e/chat-view.test.ts",
  "test/e2e/approvals.test.ts",
  "test/workers/long-conversation.test.ts",
  "test/workers/approvals.test.ts",
  // These wait out a 10 s limit: started last, the project's end waited for them alone.
  "test/workers/subagent-limit.test.ts",
  "test/workers/agent-timeout.test.ts",
  "test/workers/branches.test.ts",
  "test/workers/mcp-turn.test.ts",
];

export class SlowFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (spec: TestSpecification) => {
      const i = SLOWEST.findIndex((path) => spec.moduleId.endsWith(`/${path}`));
      return i === -1 ? SLOWEST.length : i;
    };
    // Array sort is stable: files of the same rank keep Vitest's order, and groups stay in theirs.
    return sorted.toSorted(
      (a, b) => a.project.config.sequence.groupOrder - b.project.config.sequence.groupOrder || rank(a) - rank(b),
    );
  }
}
