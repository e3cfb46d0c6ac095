// What the usage chart draws, from the API's rows (protocol UsageRow): every UTC day of the window (days
// with no use as 0), one series per model, stacked (each the running total up to its model).
import type { UsageRow } from "../../../../protocol";

export type Metric = "tokens" | "cost";

export interface ChartData {
  metric: Metric;
  /** `2026-11-28`, oldest first. */
  days: string[];
  /** Models, most used first. */
  models: string[];
  /** Per model (in `models` order), per day: its amount plus those of the models before it. */
  stacked: number[][];
  /** Per day, all models together. */
  totals: number[];
}

const DAY_MS = 86_400_000;

export function lastDays(count: number, now = Date.now()): string[] {
  return Array.from({ length: count }, (_, i) => new Date(now - (count - 1 - i) * DAY_MS).toISOString().slice(0, 10));
}

const amountOf = (row: UsageRow, metric: Metric) =>
  metric === "tokens" ? row.input_tokens + row.output_tokens : row.cost;

export function chartData(rows: UsageRow[], days: string[], metric: Metric): ChartData {
  const index = new Map(days.map((day, i) => [day, i]));
  // A row outside the window (a day before it) is neither drawn nor in the legend.
  const shown = rows.filter((row) => index.has(row.day));
  const byModel = new Map<string, number>();
  for (const row of shown) byModel.set(row.model, (byModel.get(row.model) ?? 0) + amountOf(row, metric));
  const models = [...byModel].sort((a, b) => b[1] - a[1]).map(([model]) => model);
  const own = models.map(() => days.map(() => 0));
  for (const row of shown) {
    const d = index.get(row.day);
    const m = models.indexOf(row.model);
    const series = own[m];
    if (d !== undefined && series) series[d] = (series[d] ?? 0) + amountOf(row, metric);
  }
  const stacked: number[][] = [];
  let running = days.map(() => 0);
  for (const series of own) {
    running = running.map((sum, i) => sum + (series[i] ?? 0));
    stacked.push(running);
  }
  return { metric, days, models, stacked, totals: running };
}

/** "12,345": a count as every usage page shows it. */
export const wholeNumber = (n: number) => Math.round(n).toLocaleString("en-US");

/** "12,345 tokens" / "12.3k" (short, for an axis) / "$0.12" */
export function formatAmount(value: number, metric: Metric, short = false): string {
  if (metric === "cost") return value < 0.01 && value > 0 ? "<$0.01" : `$${value.toFixed(2)}`;
  if (!short) return `${wholeNumber(value)} tokens`;
  if (value >= 1e6) return `${(value / 1e6).toFixed(1)}M`;
  if (value >= 1e3) return `${(value / 1e3).toFixed(value >= 1e4 ? 0 : 1)}k`;
  return String(Math.round(value));
}
