// A line per test project at the end of a run: its wall time from its first file's start to its last
// file's end, and how many files it ran. CONTRIBUTING.md "Where the time goes" quotes these lines.
import type { Reporter, TestModule } from "vitest/node";

type Span = { start: number; end: number; files: number };

export class ProjectTimes implements Reporter {
  private readonly spans = new Map<string, Span>();

  onTestModuleStart(module: TestModule): void {
    const name = module.project.name;
    if (!this.spans.has(name)) this.spans.set(name, { start: Date.now(), end: Date.now(), files: 0 });
  }

  onTestModuleEnd(module: TestModule): void {
    const span = this.spans.get(module.project.name);
    if (!span) return;
    span.end = Date.now();
    span.files++;
  }

  onTestRunEnd(): void {
    const rows = [...this.spans].sort(([, a], [, b]) => a.start - b.start);
    for (const [name, span] of rows) {
      const seconds = ((span.end - span.start) / 1000).toFixed(0);
      console.log(`project ${name}: ${seconds} s, ${span.files} files`);
    }
  }
}
