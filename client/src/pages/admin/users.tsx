// Admin → Users: newest first, found by part of a name and by status, each with what an admin can do to
// it. A change answers with the account's new state (the list is read again); a refusal (the last admin,
// one's own account) is said in the server's words.
import { useEffect, useState } from "preact/hooks";
import { z } from "zod";
import { type AdminUser, AdminUsersSchema, QUOTA_LIMIT_KEYS, type QuotaOverride } from "../../../../protocol";
import { pageStyle } from "../../components/page-frame";
import { formatAmount } from "../../components/usage-chart/chart-data";
import { requestJson } from "../../lib/api";
import hidden from "../../ui/visually-hidden/style.module.css";
import { day, when } from "./format";
import { QuotaForm } from "./quota-form";
import { ResetLinkButton } from "./reset-link";
import style from "./style.module.css";

const PAGE = 50;
const Ok = z.object({}).passthrough();

export function Users() {
  const [query, setQuery] = useState("");
  const [status, setStatus] = useState("");
  const [offset, setOffset] = useState(0);
  const [list, setList] = useState<{ users: AdminUser[]; total: number } | undefined>();
  const [message, setMessage] = useState<{ text: string; error: boolean } | undefined>();
  const [version, setVersion] = useState(0);

  useEffect(() => {
    const timer = setTimeout(() => {
      const params = new URLSearchParams({ limit: String(PAGE), offset: String(offset) });
      if (query.trim()) params.set("q", query.trim());
      if (status) params.set("status", status);
      void requestJson(`/api/admin/users?${params}`, AdminUsersSchema).then((r) => {
        if (r.ok) setList(r.data);
        else setMessage({ text: `Could not load the users: ${r.error.message}`, error: true });
      });
    }, 200);
    return () => clearTimeout(timer);
  }, [query, status, offset, version]);

  const act = async (user: AdminUser, path: string, method: "POST" | "PUT", body: unknown, done: string) => {
    const r = await requestJson(`/api/admin/users/${user.id}/${path}`, Ok, method, body);
    setMessage(r.ok ? { text: done, error: false } : { text: r.error.message, error: true });
    setVersion((v) => v + 1);
    return r.ok;
  };

  return (
    <section aria-labelledby="admin-users-title" data-testid="admin-users">
      <h2 id="admin-users-title" class={style.heading}>
        Users {list ? `(${list.total})` : ""}
      </h2>
      <div class={style.filters}>
        <input
          type="search"
          placeholder="Search by username"
          aria-label="Search by username"
          value={query}
          onInput={(e) => {
            setQuery((e.target as HTMLInputElement).value);
            setOffset(0);
          }}
          data-testid="admin-user-search"
        />
        <select
          aria-label="Status"
          value={status}
          onChange={(e) => {
            setStatus((e.target as HTMLSelectElement).value);
            setOffset(0);
          }}
          data-testid="admin-user-status"
        >
          <option value="">Everyone</option>
          <option value="pending">Waiting for approval</option>
          <option value="active">Active</option>
          <option value="disabled">Disabled</option>
        </select>
      </div>
      <p
        class={message?.error ? pageStyle.statusError : pageStyle.status}
        role={message?.error ? "alert" : "status"}
        data-testid="admin-message"
      >
        {message?.text ?? ""}
      </p>
      {!list ? (
        <p class={pageStyle.muted}>Loading…</p>
      ) : list.users.length === 0 ? (
        <p class={pageStyle.empty}>No user matches.</p>
      ) : (
        <ul class={style.rows}>
          {list.users.map((user) => (
            <UserRow key={user.id} user={user} act={act} />
          ))}
        </ul>
      )}
      {list && list.total > PAGE && (
        <div class={style.pager}>
          <button type="button" disabled={offset === 0} onClick={() => setOffset(Math.max(0, offset - PAGE))}>
            Previous
          </button>
          <span>
            {offset + 1}–{Math.min(offset + PAGE, list.total)} of {list.total}
          </span>
          <button type="button" disabled={offset + PAGE >= list.total} onClick={() => setOffset(offset + PAGE)}>
            Next
          </button>
        </div>
      )}
    </section>
  );
}

type Act = (user: AdminUser, path: string, method: "POST" | "PUT", body: unknown, done: string) => Promise<boolean>;

function quotaWords(user: AdminUser): string {
  const q = user.quota;
  const parts = QUOTA_LIMIT_KEYS.flatMap((key) => {
    const value = q[key];
    if (value === undefined) return [];
    const [period, kind] = key.split("_") as [string, string];
    const amount = kind === "tokens" ? formatAmount(value, "tokens") : `$${value.toFixed(2)}`;
    return [`${amount} a ${period === "daily" ? "day" : "month"}`];
  });
  return parts.length ? parts.join(", ") : "no limit";
}

function UserRow({ user, act }: { user: AdminUser; act: Act }) {
  const [editing, setEditing] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const name = user.username;
  return (
    <li class={style.row} data-testid="admin-user-row" data-username={name}>
      <div class={style.rowHead}>
        <strong class={style.name}>{name}</strong>
        {user.role === "admin" && <span class={style.badge}>admin</span>}
        {user.status !== "active" && (
          <span class={`${style.badge} ${style[user.status]}`} data-testid="admin-user-status-badge">
            {user.status === "pending" ? "waiting for approval" : "disabled"}
          </span>
        )}
      </div>
      <p class={style.meta}>
        Signed up {day(user.created_at)} · last active {when(user.last_active_at)} · this month{" "}
        {formatAmount(user.month.tokens, "tokens")}
        {user.month.cost ? ` ($${user.month.cost.toFixed(2)})` : ""}
      </p>
      <p class={style.meta} data-testid="admin-user-quota">
        Quota: {quotaWords(user)}
        {Object.keys(user.quota_override).length ? " (set for this user)" : ""}
      </p>
      <div class={style.actions}>
        {user.status === "pending" && (
          <button
            type="button"
            onClick={() => act(user, "approve", "POST", {}, `Approved ${name}.`)}
            data-testid="admin-approve"
          >
            Approve
          </button>
        )}
        {user.status === "disabled" ? (
          <button
            type="button"
            onClick={() => act(user, "enable", "POST", {}, `Enabled ${name}.`)}
            data-testid="admin-enable"
          >
            Enable
          </button>
        ) : confirming ? (
          <fieldset class={style.confirm}>
            <legend class={hidden.visuallyHidden}>Disable {name}?</legend>
            <span>Sign {name} out everywhere, stop their running answers and pause their schedules?</span>
            <button
              type="button"
              class={style.danger}
              onClick={async () => {
                setConfirming(false);
                await act(user, "disable", "POST", {}, `Disabled ${name}: signed out everywhere.`);
              }}
              data-testid="admin-disable-confirm"
            >
              Disable
            </button>
            <button type="button" onClick={() => setConfirming(false)}>
              Cancel
            </button>
          </fieldset>
        ) : (
          <button type="button" onClick={() => setConfirming(true)} data-testid="admin-disable">
            Disable…
          </button>
        )}
        {!user.configured_admin && (
          <button
            type="button"
            onClick={() =>
              act(
                user,
                "role",
                "PUT",
                { role: user.role === "admin" ? "user" : "admin" },
                user.role === "admin" ? `${name} is no longer an admin.` : `${name} is now an admin.`,
              )
            }
            data-testid="admin-role"
          >
            {user.role === "admin" ? "Remove admin" : "Make admin"}
          </button>
        )}
        <button type="button" aria-expanded={editing} onClick={() => setEditing(!editing)} data-testid="admin-quota">
          Set quota…
        </button>
        <ResetLinkButton user={user} />
      </div>
      {editing && (
        <QuotaForm
          user={user}
          onSave={async (override: QuotaOverride) => {
            if (await act(user, "quota", "PUT", override, `Saved ${name}'s quota.`)) setEditing(false);
          }}
          onCancel={() => setEditing(false)}
        />
      )}
    </li>
  );
}
