// Use of the operator's models over time (Settings → Usage, the admin page): bars by UTC day, stacked by
// model, with a legend and the same figures as a table for screen readers. The drawing (uPlot) is a
// chunk of its own, loaded when a chart is first shown.
import { useMemo } from "preact/hooks";
import type { UsageRow } from "../../../../protocol";
import hidden from "../../ui/visually-hidden/style.module.css";
import { lazyPart } from "../shell/lazy";
import { chartData, formatAmount, lastDays, type Metric } from "./chart-data";
import style from "./style.module.css";

const Canvas = lazyPart(() => {
  saneLanguage();
  return import("./chart").then((m) => m.default);
});

/**
 * uPlot builds an Intl.NumberFormat from navigator.language as it loads, and some browsers on a POSIX
 * locale report a tag Intl refuses ("en-US@posix"): the tag without its "@…" part is given instead.
 */
function saneLanguage(): void {
  try {
    new Intl.NumberFormat(navigator.language);
  } catch {
    const tag = navigator.language.split("@")[0] || "en-US";
    Object.defineProperty(navigator, "language", { value: tag, configurable: true });
  }
}
const LEGEND = ["--accent", "--ok", "--warning", "--critical", "--info", "--debug"];

export function UsageChart({
  rows,
  days = 30,
  metric = "tokens",
  label,
}: {
  rows: UsageRow[];
  days?: number;
  metric?: Metric;
  label: string;
}) {
  const data = useMemo(() => chartData(rows, lastDays(days), metric), [rows, days, metric]);
  return (
    <figure class={style.figure} data-testid="usage-chart">
      <figcaption class={style.caption}>{label}</figcaption>
      <div class={style.canvas}>
        <Canvas data={data} />
      </div>
      <ul class={style.legend} aria-hidden="true">
        {data.models.map((model, i) => (
          <li key={model}>
            <span class={style.swatch} style={{ background: `var(${LEGEND[i % LEGEND.length]})` }} />
            {model}
          </li>
        ))}
      </ul>
      <table class={hidden.visuallyHidden}>
        <caption>{label}</caption>
        <thead>
          <tr>
            <th scope="col">Day (UTC)</th>
            {data.models.map((model) => (
              <th key={model} scope="col">
                {model}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {data.days.map((day, d) =>
            data.totals[d] ? (
              <tr key={day}>
                <th scope="row">{day}</th>
                {data.models.map((model, m) => (
                  <td key={model}>
                    {formatAmount((data.stacked[m]?.[d] ?? 0) - (data.stacked[m - 1]?.[d] ?? 0), metric)}
                  </td>
                ))}
              </tr>
            ) : null,
          )}
        </tbody>
      </table>
    </figure>
  );
}
