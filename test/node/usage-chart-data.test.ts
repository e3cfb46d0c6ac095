// What the usage chart draws (client/src/components/usage-chart/chart-data.ts): every day of the window,
// a day without use as 0, models most used first, each series stacked on the ones before it.
import { describe, expect, it } from "vitest";
import { chartData, formatAmount, lastDays } from "../../client/src/components/usage-chart/chart-data";

const row = (day: string, model: string, input: number, output: number, cost = 0) => ({
  day,
  model,
  input_tokens: input,
  output_tokens: output,
  cost,
  calls: 1,
});

describe("the usage chart's data", () => {
  it("fills the window's days, orders models by use and stacks them", () => {
    const days = lastDays(3, Date.parse("2026-11-28T12:00:00Z"));
    expect(days).toEqual(["2026-11-26", "2026-11-27", "2026-11-28"]);
    const data = chartData(
      [
        row("2026-11-26", "small", 10, 5),
        row("2026-11-28", "big", 100, 50),
        row("2026-11-28", "small", 1, 1),
        row("2026-10-01", "old", 9, 9),
      ],
      days,
      "tokens",
    );
    expect(data.models).toEqual(["big", "small"]);
    expect(data.stacked).toEqual([
      [0, 0, 150],
      [15, 0, 152],
    ]);
    expect(data.totals).toEqual([15, 0, 152]);
  });

  it("words amounts for an axis and for a table", () => {
    expect(formatAmount(12_345, "tokens")).toBe("12,345 tokens");
    expect(formatAmount(12_345, "tokens", true)).toBe("12k");
    expect(formatAmount(1_500, "tokens", true)).toBe("1.5k");
    expect(formatAmount(0.004, "cost")).toBe("<$0.01");
    expect(formatAmount(1.5, "cost")).toBe("$1.50");
  });
});
