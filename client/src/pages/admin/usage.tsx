// Admin → Usage: every user's use of this server's models over the last 30 days by model, and this
// month's heaviest users.
import { useEffect, useState } from "preact/hooks";
import { AdminUsageSchema, type AdminUsage as Usage } from "../../../../protocol";
import { pageStyle } from "../../components/page-frame";
import { UsageChart } from "../../components/usage-chart";
import { formatAmount } from "../../components/usage-chart/chart-data";
import { requestJson } from "../../lib/api";
import style from "./style.module.css";

export function AdminUsage() {
  const [usage, setUsage] = useState<Usage | undefined>();
  const [error, setError] = useState("");
  useEffect(() => {
    void requestJson("/api/admin/usage?days=30", AdminUsageSchema).then((r) =>
      r.ok ? setUsage(r.data) : setError(`Could not load the usage: ${r.error.message}`),
    );
  }, []);
  if (error)
    return (
      <p class={pageStyle.statusError} role="alert">
        {error}
      </p>
    );
  if (!usage) return <p class={pageStyle.muted}>Loading…</p>;
  return (
    <section aria-labelledby="admin-usage-title" data-testid="admin-usage" class={style.usage}>
      <h2 id="admin-usage-title" class={style.heading}>
        Usage of this server's models
      </h2>
      {usage.rows.length === 0 ? (
        <p class={pageStyle.empty}>Nothing used in the last 30 days.</p>
      ) : (
        <UsageChart rows={usage.rows} label="Tokens per day by model, last 30 days, all users" />
      )}
      {usage.priced && usage.rows.length > 0 && (
        <UsageChart rows={usage.rows} metric="cost" label="Cost per day by model, last 30 days" />
      )}
      <h3 class={style.subheading}>Top users this month</h3>
      {usage.top_users.length === 0 ? (
        <p class={pageStyle.empty}>Nobody yet.</p>
      ) : (
        <ol class={style.top} data-testid="admin-top-users">
          {usage.top_users.map((u) => (
            <li key={u.id}>
              <span class={style.name}>{u.username}</span>
              <span>
                {formatAmount(u.tokens, "tokens")}
                {usage.priced ? ` · $${u.cost.toFixed(2)}` : ""}
              </span>
              {/* A bar chart of the heaviest users: each bar's length against the first's. */}
              <span
                class={style.bar}
                aria-hidden="true"
                style={{ width: `${Math.max(1, (u.tokens / (usage.top_users[0]?.tokens || 1)) * 100)}%` }}
              />
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
