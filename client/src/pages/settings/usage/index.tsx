// Settings → Usage: what the user has spent of this server's models (GET /api/usage): today and this month
// against the quota the operator set, with when each starts afresh; the last 30 days by day as a chart,
// and by model as a table. The user's own providers are never counted, as the page says.
import { useEffect, useState } from "preact/hooks";
import { type PeriodUsage, type UsageReport, UsageReportSchema, type UsageRow } from "../../../../../protocol";
import { pageStyle } from "../../../components/page-frame";
import { UsageChart } from "../../../components/usage-chart";
import { formatAmount, wholeNumber } from "../../../components/usage-chart/chart-data";
import { requestJson } from "../../../lib/api";
import { durationInWords } from "../../../lib/time-left";
import style from "./style.module.css";

type State = { status: "loading" } | { status: "failed"; message: string } | { status: "ready"; report: UsageReport };

export function UsageSettings() {
  const [state, setState] = useState<State>({ status: "loading" });
  useEffect(() => {
    void requestJson("/api/usage?days=30", UsageReportSchema).then((result) =>
      setState(
        result.ok
          ? { status: "ready", report: result.data }
          : { status: "failed", message: `Could not load your usage: ${result.error.message}` },
      ),
    );
  }, []);
  return (
    <section class={style.usage} aria-labelledby="usage-title" data-testid="usage">
      <h2 id="usage-title" class={style.title}>
        Usage
      </h2>
      <p class={pageStyle.muted}>
        What you have used of this server's models, in tokens (what you send and what comes back). Models you add
        yourself in Settings → Models are not counted. Days and months are in UTC.
      </p>
      {state.status === "loading" && <p class={pageStyle.muted}>Loading…</p>}
      {state.status === "failed" && (
        <p class={pageStyle.statusError} role="alert">
          {state.message}
        </p>
      )}
      {state.status === "ready" && <Report report={state.report} />}
    </section>
  );
}

function Report({ report }: { report: UsageReport }) {
  const metric = "tokens";
  return (
    <>
      <div class={style.periods}>
        <Period name="Today" usage={report.day} priced={report.priced} />
        <Period name="This month" usage={report.month} priced={report.priced} />
      </div>
      {report.rows.length === 0 ? (
        <p class={pageStyle.empty} data-testid="usage-empty">
          Nothing used in the last 30 days.
        </p>
      ) : (
        <>
          <UsageChart rows={report.rows} metric={metric} label="Tokens per day, last 30 days" />
          <ByModel rows={report.rows} priced={report.priced} />
        </>
      )}
    </>
  );
}

/** "12,345 of 50,000 tokens · resets in about 5 hours", with a bar when there is a limit. */
function Period({ name, usage, priced }: { name: string; usage: PeriodUsage; priced: boolean }) {
  const limit = usage.token_limit;
  const costLimit = usage.cost_limit;
  const share = Math.max(
    limit ? usage.tokens / limit : limit === 0 ? 1 : 0,
    costLimit ? usage.cost / costLimit : costLimit === 0 ? 1 : 0,
  );
  const resets = durationInWords((Date.parse(usage.resets_at) - Date.now()) / 1000);
  const tokens = `${wholeNumber(usage.tokens)}${limit !== undefined ? ` of ${formatAmount(limit, "tokens")}` : " tokens"}`;
  const cost =
    priced || costLimit !== undefined
      ? ` · ${formatAmount(usage.cost, "cost")}${costLimit !== undefined ? ` of ${formatAmount(costLimit, "cost")}` : ""}`
      : "";
  const limited = limit !== undefined || costLimit !== undefined;
  return (
    <div class={style.period} data-testid={`usage-${name === "Today" ? "day" : "month"}`}>
      <h3 class={style.periodName}>{name}</h3>
      <p class={style.figure}>
        {tokens}
        {cost}
      </p>
      {limited ? (
        <>
          <meter class={style.meter} min={0} max={1} low={0.8} high={0.95} optimum={0} value={Math.min(1, share)}>
            {Math.round(share * 100)}%
          </meter>
          <p class={pageStyle.muted}>
            {share >= 1 ? "Quota used up" : `${Math.round(share * 100)}% of your quota`} · resets in {resets}
          </p>
        </>
      ) : (
        <p class={pageStyle.muted}>No limit · resets in {resets}</p>
      )}
    </div>
  );
}

function ByModel({ rows, priced }: { rows: UsageRow[]; priced: boolean }) {
  const models = new Map<string, { input: number; output: number; cost: number; calls: number }>();
  for (const row of rows) {
    const m = models.get(row.model) ?? { input: 0, output: 0, cost: 0, calls: 0 };
    models.set(row.model, {
      input: m.input + row.input_tokens,
      output: m.output + row.output_tokens,
      cost: m.cost + row.cost,
      calls: m.calls + row.calls,
    });
  }
  return (
    <div class={style.tableWrap}>
      <table class={style.table} data-testid="usage-by-model">
        <caption class={style.caption}>By model, last 30 days</caption>
        <thead>
          <tr>
            <th scope="col">Model</th>
            <th scope="col">Requests</th>
            <th scope="col">Tokens in</th>
            <th scope="col">Tokens out</th>
            {priced && <th scope="col">Cost</th>}
          </tr>
        </thead>
        <tbody>
          {[...models].map(([model, m]) => (
            <tr key={model}>
              <th scope="row">{model}</th>
              <td>{wholeNumber(m.calls)}</td>
              <td>{wholeNumber(m.input)}</td>
              <td>{wholeNumber(m.output)}</td>
              {priced && <td>{formatAmount(m.cost, "cost")}</td>}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
