// An admin's quota for one user: each of the four limits blank (the server's default), a number, or
// "No limit" (null), as PUT /api/admin/users/:id/quota takes them.
import { useState } from "preact/hooks";
import { type AdminUser, QUOTA_LIMIT_KEYS, type QuotaLimitKey, type QuotaOverride } from "../../../../protocol";
import style from "./style.module.css";

const LABELS: Record<QuotaLimitKey, string> = {
  daily_tokens: "Tokens a day",
  monthly_tokens: "Tokens a month",
  daily_cost: "Cost a day",
  monthly_cost: "Cost a month",
};

type Field = { value: string; unlimited: boolean };

export function QuotaForm({
  user,
  onSave,
  onCancel,
}: {
  user: AdminUser;
  onSave: (override: QuotaOverride) => void;
  onCancel: () => void;
}) {
  const [fields, setFields] = useState<Record<QuotaLimitKey, Field>>(() => {
    const o = user.quota_override;
    return Object.fromEntries(
      QUOTA_LIMIT_KEYS.map((key) => [key, { value: o[key] != null ? String(o[key]) : "", unlimited: o[key] === null }]),
    ) as Record<QuotaLimitKey, Field>;
  });
  const set = (key: QuotaLimitKey, field: Partial<Field>) =>
    setFields((f) => ({ ...f, [key]: { ...f[key], ...field } }));
  const submit = (e: Event) => {
    e.preventDefault();
    const override: QuotaOverride = {};
    for (const key of QUOTA_LIMIT_KEYS) {
      const { value, unlimited } = fields[key];
      if (unlimited) override[key] = null;
      else if (value.trim() !== "") override[key] = Number(value);
    }
    onSave(override);
  };
  return (
    <form class={style.quotaForm} onSubmit={submit} data-testid="admin-quota-form">
      <p class={style.meta}>Leave a field empty to use the server's default.</p>
      {QUOTA_LIMIT_KEYS.map((key) => (
        <div key={key} class={style.quotaField}>
          <label>
            {LABELS[key]}
            <input
              type="number"
              min={0}
              step={key.endsWith("tokens") ? 1 : 0.01}
              inputMode="decimal"
              value={fields[key].value}
              disabled={fields[key].unlimited}
              onInput={(e) => set(key, { value: (e.target as HTMLInputElement).value })}
              data-testid={`admin-quota-${key}`}
            />
          </label>
          <label class={style.check}>
            <input
              type="checkbox"
              checked={fields[key].unlimited}
              onChange={(e) => set(key, { unlimited: (e.target as HTMLInputElement).checked })}
            />
            No limit
          </label>
        </div>
      ))}
      <div class={style.actions}>
        <button type="submit" class={style.primary} data-testid="admin-quota-save">
          Save quota
        </button>
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
