// Seed 001 SC-007 on the labelled corpus (bench/loop-corpus): the loop's detector, replayed over
// 548 sequences, finds stuck loops with at least 95 % recall and flags under 5 % of honest progress,
// for the warning and for the stop alike. `npm run bench` prints the full figures.
import { describe, expect, it } from "vitest";
import { CORPUS } from "../../bench/loop-corpus/corpus.ts";
import { evaluateCorpus, judge } from "../../bench/loop-corpus/evaluate.ts";

describe("loop detection on the labelled corpus", () => {
  const result = evaluateCorpus();

  it("holds at least 500 labelled sequences, stuck and progressing, generated and hand-written", () => {
    expect(CORPUS.length).toBeGreaterThanOrEqual(500);
    expect(new Set(CORPUS.map((s) => s.id)).size).toBe(CORPUS.length);
    expect(result.stuck).toBeGreaterThan(150);
    expect(CORPUS.length - result.stuck).toBeGreaterThan(150);
    expect(CORPUS.filter((s) => s.id.startsWith("hand-")).length).toBeGreaterThanOrEqual(25);
  });

  it("meets SC-007 for the warning: recall ≥ 95 %, false positives < 5 %", () => {
    expect(result.warning.recall).toBeGreaterThanOrEqual(0.95);
    expect(result.warning.falsePositiveRate).toBeLessThan(0.05);
  });

  it("meets SC-007 for the stop: recall ≥ 95 %, false positives < 5 %", () => {
    expect(result.stop.recall).toBeGreaterThanOrEqual(0.95);
    expect(result.stop.falsePositiveRate).toBeLessThan(0.05);
  });

  it("judges the families a person would: polling that moves and a retry that worked are progress", () => {
    const byId = (id: string) => {
      const sequence = CORPUS.find((s) => s.id === id);
      if (!sequence) throw new Error(`no ${id}`);
      return judge(sequence);
    };
    expect(byId("hand-poll-until-done")).toMatchObject({ warned: false, stopped: false });
    expect(byId("hand-timeout-then-success")).toMatchObject({ warned: false, stopped: false });
    expect(byId("hand-poll-never-moves")).toMatchObject({ warned: true, stopped: true });
    expect(byId("hand-cycle-list-read-search")).toMatchObject({ warned: true, stopped: true });
  });
});
