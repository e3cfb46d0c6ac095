// The user's schedules (/schedules): messages posted into a conversation at a time, once or on a rule,
// as if the user had typed them (lib/use-schedules.ts). Each row says when in plain words ("Every
// weekday at 08:00 (Europe/Paris)"), the next run in this browser's time, and how the last run went;
// it can be paused, resumed, edited or deleted (after a confirm). The form creates one.
import { useEffect, useState } from "preact/hooks";
import type { Conversation } from "../../../../protocol";
import { describeCron, describeRule, wallTime } from "../../../../protocol/schedules";
import { PageFrame, pageStyle as page } from "../../components/page-frame";
import { requestJson } from "../../lib/api";
import { ConversationListSchema } from "../../lib/response-schemas";
import {
  browserTimeZone,
  explainScheduleError,
  type Schedule,
  type ScheduleInput,
  useSchedules,
} from "../../lib/use-schedules";
import { Link } from "../../ui/link";
import style from "./style.module.css";

type Status = { text: string; error?: boolean };
type Draft = { name: string; text: string; kind: "once" | "cron"; at: string; repeat: string; time_zone: string };

const EMPTY: Draft = { name: "", text: "", kind: "cron", at: "", repeat: "every weekday at 08:00", time_zone: "" };

/** An instant in this browser's time: "Thu, Nov 27, 08:00". */
const localTime = (iso: string) =>
  new Date(iso).toLocaleString(undefined, {
    weekday: "short",
    month: "short",
    day: "numeric",
    hour: "2-digit",
    minute: "2-digit",
  });

const LAST: Record<NonNullable<Schedule["last_status"]>, string> = {
  queued: "waiting for the running turn",
  started: "ran",
  skipped: "skipped",
  failed: "failed",
};

/** A cron rule in the form's words when it has them ("every weekday at 08:00"), else the expression. */
function ruleWords(cron: string): string {
  const words = describeCron(cron);
  return words.startsWith("Every") ? `e${words.slice(1)}` : cron;
}

/** The body a draft sends: `at` as wall time in the chosen zone, or `repeat`. */
function ruleOf(draft: Draft): { at: string } | { repeat: string } {
  return draft.kind === "once" ? { at: draft.at } : { repeat: draft.repeat.trim() };
}

export function SchedulesPage() {
  const { list, reload, add, change, remove } = useSchedules();
  const [conversations, setConversations] = useState<Conversation[]>([]);
  const [conversationId, setConversationId] = useState("");
  const [draft, setDraft] = useState<Draft>({ ...EMPTY, time_zone: browserTimeZone() });
  const [formError, setFormError] = useState<string | null>(null);
  const [status, setStatus] = useState<Status | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    void requestJson("/api/conversations", ConversationListSchema).then((result) => {
      if (!result.ok) return;
      setConversations(result.data);
      setConversationId((current) => current || result.data[0]?.id || "");
    });
  }, []);

  const submit = async (event: Event) => {
    event.preventDefault();
    if (busy) return;
    setStatus(null);
    if (!conversationId) return setFormError("Pick a conversation first.");
    if (!draft.text.trim()) return setFormError("Write the message to post first.");
    if (draft.kind === "once" && !draft.at) return setFormError("Pick the date and time first.");
    if (draft.kind === "cron" && !draft.repeat.trim()) return setFormError("Write the rule first.");
    setBusy(true);
    const input: ScheduleInput = {
      conversation_id: conversationId,
      text: draft.text.trim(),
      time_zone: draft.time_zone.trim() || browserTimeZone(),
      ...(draft.name.trim() ? { name: draft.name.trim() } : {}),
      ...ruleOf(draft),
    };
    const result = await add(input);
    setBusy(false);
    if (result.ok) {
      setDraft({ ...EMPTY, time_zone: draft.time_zone });
      setFormError(null);
      setStatus({ text: `✓ Scheduled “${result.data.name}”` });
    } else setFormError(explainScheduleError(result.error, "create the schedule"));
  };

  const togglePause = async (schedule: Schedule) => {
    const result = await change(schedule, { paused: !schedule.paused });
    setStatus(
      result.ok
        ? { text: `${result.data.paused ? "Paused" : "Resumed"} “${schedule.name}”` }
        : { text: explainScheduleError(result.error, schedule.paused ? "resume it" : "pause it"), error: true },
    );
  };

  const onDelete = async (schedule: Schedule) => {
    if (!window.confirm(`Delete the schedule “${schedule.name}”?`)) return;
    const result = await remove(schedule);
    setStatus(
      result.ok || result.error.status === 404
        ? { text: `Deleted “${schedule.name}”` }
        : { text: explainScheduleError(result.error, "delete the schedule"), error: true },
    );
  };

  const schedules = list.status === "ready" ? list.items : [];
  return (
    <PageFrame
      title="Schedules"
      intro="Messages posted into a conversation at a time you choose, once or again and again, as if you had sent them. A message starting with /workflow runs that workflow."
      width="medium"
      testid="schedules-page"
    >
      {status && (
        <p
          class={status.error ? page.statusError : page.status}
          role={status.error ? "alert" : "status"}
          data-testid="schedules-status"
        >
          {status.text}
        </p>
      )}
      {list.status === "loading" && (
        <p class={page.muted} role="status">
          Loading your schedules…
        </p>
      )}
      {list.status === "failed" && (
        <p class={page.statusError} role="alert" data-testid="schedules-error">
          {list.message}{" "}
          <button type="button" onClick={() => void reload()}>
            Try again
          </button>
        </p>
      )}
      {list.status === "ready" && schedules.length === 0 && (
        <p class={page.empty} data-testid="schedules-empty">
          No schedules yet. Create one above, or ask the agent: “every weekday at 8, run /daily-review”.
        </p>
      )}
      {schedules.length > 0 && (
        <ul class={page.list} data-testid="schedule-list">
          {schedules.map((s) => (
            <ScheduleRow
              key={s.id}
              schedule={s}
              onPause={() => void togglePause(s)}
              onDelete={() => void onDelete(s)}
              onSave={async (changes) => {
                const result = await change(s, changes);
                if (!result.ok) return explainScheduleError(result.error, "save the schedule");
                setStatus({ text: `✓ Saved “${result.data.name}”` });
                return null;
              }}
            />
          ))}
        </ul>
      )}
      <h2 class={style.formTitle} id="new-schedule-title">
        New schedule
      </h2>
      <form
        class={style.form}
        onSubmit={(event) => void submit(event)}
        data-testid="schedule-form"
        aria-labelledby="new-schedule-title"
      >
        <label>
          Conversation
          <select
            value={conversationId}
            onChange={(e) => setConversationId(e.currentTarget.value)}
            data-testid="schedule-conversation"
          >
            {conversations.map((c) => (
              <option key={c.id} value={c.id}>
                {c.title}
              </option>
            ))}
          </select>
        </label>
        <DraftFields draft={draft} onChange={setDraft} idPrefix="new" />
        <button type="submit" class={page.primary} disabled={busy} data-testid="schedule-create">
          {busy ? "Scheduling…" : "Schedule"}
        </button>
        {formError && (
          <p class={page.statusError} role="alert" data-testid="schedule-error">
            {formError}
          </p>
        )}
      </form>
    </PageFrame>
  );
}

function DraftFields({ draft, onChange, idPrefix }: { draft: Draft; onChange: (d: Draft) => void; idPrefix: string }) {
  const set = (patch: Partial<Draft>) => onChange({ ...draft, ...patch });
  return (
    <>
      <label>
        Name (optional)
        <input
          value={draft.name}
          maxLength={100}
          onInput={(e) => set({ name: e.currentTarget.value })}
          data-testid="schedule-name"
        />
      </label>
      <label>
        Message
        <textarea
          rows={2}
          value={draft.text}
          maxLength={4000}
          onInput={(e) => set({ text: e.currentTarget.value })}
          data-testid="schedule-text"
        />
      </label>
      <fieldset class={style.kind}>
        <legend>When</legend>
        <label>
          <input
            type="radio"
            name={`${idPrefix}-kind`}
            checked={draft.kind === "once"}
            onChange={() => set({ kind: "once" })}
            data-testid="schedule-kind-once"
          />
          Once
        </label>
        <label>
          <input
            type="radio"
            name={`${idPrefix}-kind`}
            checked={draft.kind === "cron"}
            onChange={() => set({ kind: "cron" })}
            data-testid="schedule-kind-cron"
          />
          Repeating
        </label>
      </fieldset>
      {draft.kind === "once" ? (
        <label>
          Date and time
          <input
            type="datetime-local"
            value={draft.at}
            onInput={(e) => set({ at: e.currentTarget.value })}
            data-testid="schedule-at"
          />
        </label>
      ) : (
        <label>
          Rule (“every weekday at 08:00”, “every monday at 9:00”, or cron)
          <input
            value={draft.repeat}
            maxLength={100}
            onInput={(e) => set({ repeat: e.currentTarget.value })}
            data-testid="schedule-repeat"
          />
        </label>
      )}
      <label>
        Time zone
        <input
          value={draft.time_zone}
          maxLength={64}
          placeholder={browserTimeZone()}
          onInput={(e) => set({ time_zone: e.currentTarget.value })}
          data-testid="schedule-time-zone"
        />
      </label>
    </>
  );
}

type RowProps = {
  schedule: Schedule;
  onPause: () => void;
  onDelete: () => void;
  /** Saves the changes; the reason in words when refused. */
  onSave: (
    changes: { name: string; text: string; time_zone: string } & ({ at: string } | { repeat: string }),
  ) => Promise<string | null>;
};

function ScheduleRow({ schedule: s, onPause, onDelete, onSave }: RowProps) {
  const [editing, setEditing] = useState<Draft | null>(null);
  const [error, setError] = useState<string | null>(null);
  const startEdit = () =>
    setEditing({
      name: s.name,
      text: s.text,
      kind: s.kind,
      at: s.at ? wallTime(s.at, s.time_zone).replace(" ", "T") : "",
      repeat: s.cron ? ruleWords(s.cron) : "",
      time_zone: s.time_zone,
    });
  const save = async (event: Event) => {
    event.preventDefault();
    if (!editing) return;
    const problem = await onSave({
      name: editing.name.trim(),
      text: editing.text.trim(),
      time_zone: editing.time_zone.trim(),
      ...ruleOf(editing),
    });
    setError(problem);
    if (!problem) setEditing(null);
  };
  return (
    <li class={style.row} data-testid="schedule-item" data-schedule-id={s.id} data-paused={String(s.paused)}>
      <div class={style.head}>
        <strong data-testid="schedule-title">{s.name}</strong>
        {s.paused && <span class={style.badge}>paused</span>}
        <Link href={`/c/${encodeURIComponent(s.conversation_id)}`} class={style.conversation}>
          {s.conversation_title}
        </Link>
      </div>
      <p class={style.rule} data-testid="schedule-rule">
        {describeRule(s)}
      </p>
      <p class={style.meta}>
        <span data-testid="schedule-next">
          {s.next_run_at ? `Next: ${localTime(s.next_run_at)}` : s.paused ? "Paused" : "No more runs"}
        </span>
        {s.last_run_at && s.last_status && (
          <span data-testid="schedule-last">
            {` · Last: ${localTime(s.last_run_at)}, ${LAST[s.last_status]}`}
            {s.last_error ? ` (${s.last_error})` : ""}
          </span>
        )}
      </p>
      <p class={style.text} data-testid="schedule-message">
        {s.text}
      </p>
      {editing ? (
        <form
          class={style.form}
          onSubmit={(event) => void save(event)}
          aria-label={`Edit “${s.name}”`}
          data-testid="schedule-edit-form"
        >
          <DraftFields draft={editing} onChange={setEditing} idPrefix={`edit-${s.id}`} />
          <div class={style.actions}>
            <button type="submit" class={page.primary} data-testid="schedule-save">
              Save
            </button>
            <button type="button" onClick={() => setEditing(null)}>
              Cancel
            </button>
          </div>
          {error && (
            <p class={page.statusError} role="alert" data-testid="schedule-edit-error">
              {error}
            </p>
          )}
        </form>
      ) : (
        <div class={style.actions}>
          <button
            type="button"
            onClick={onPause}
            aria-label={`${s.paused ? "Resume" : "Pause"} “${s.name}”`}
            data-testid="schedule-pause"
          >
            {s.paused ? "Resume" : "Pause"}
          </button>
          <button type="button" onClick={startEdit} aria-label={`Edit “${s.name}”`} data-testid="schedule-edit">
            Edit
          </button>
          <button
            type="button"
            class={page.danger}
            onClick={onDelete}
            aria-label={`Delete “${s.name}”`}
            data-testid="schedule-delete"
          >
            Delete
          </button>
        </div>
      )}
    </li>
  );
}
