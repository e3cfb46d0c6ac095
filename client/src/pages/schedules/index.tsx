// The user's schedules (/schedules): messages posted into a conversation at a time, once or on a rule,
// as if the user had typed them (lib/use-schedules.ts). Each row says when in plain words ("Every
// weekday at 08:00 (Europe/Paris)"), the next run in this browser's time, and how the last run went;
// it can be paused, resumed, edited or deleted (after a confirm) (schedule-row.tsx). The form creates one
// (new-schedule-form.tsx).
import { useState } from "preact/hooks";
import { PageFrame, pageStyle as page } from "../../components/page-frame";
import { explainScheduleError, type Schedule, useSchedules } from "../../lib/use-schedules";
import { ZoneList } from "./draft-fields";
import { NewScheduleForm } from "./new-schedule-form";
import { type ScheduleChanges, ScheduleRow } from "./schedule-row";
import style from "./style.module.css";

type Status = { text: string; error?: boolean };

/** Pause, delete and save, each saying how it went on the page's status line. */
function useScheduleActions(schedules: ReturnType<typeof useSchedules>, setStatus: (status: Status) => void) {
  const { change, remove } = schedules;
  return {
    async togglePause(schedule: Schedule) {
      const result = await change(schedule, { paused: !schedule.paused });
      setStatus(
        result.ok
          ? { text: `${result.data.paused ? "Paused" : "Resumed"} “${schedule.name}”` }
          : { text: explainScheduleError(result.error, schedule.paused ? "resume it" : "pause it"), error: true },
      );
    },
    async remove(schedule: Schedule) {
      if (!window.confirm(`Delete the schedule “${schedule.name}”?`)) return;
      const result = await remove(schedule);
      setStatus(
        result.ok || result.error.status === 404
          ? { text: `Deleted “${schedule.name}”` }
          : { text: explainScheduleError(result.error, "delete the schedule"), error: true },
      );
    },
    async save(schedule: Schedule, changes: ScheduleChanges): Promise<string | null> {
      const result = await change(schedule, changes);
      if (!result.ok) return explainScheduleError(result.error, "save the schedule");
      setStatus({ text: `✓ Saved “${result.data.name}”` });
      return null;
    },
  };
}

export function SchedulesPage() {
  const schedules = useSchedules();
  const { list, reload } = schedules;
  const [status, setStatus] = useState<Status | null>(null);
  const actions = useScheduleActions(schedules, setStatus);
  const items = list.status === "ready" ? list.items : [];
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
      <ListState list={list} reload={reload} />
      {items.length > 0 && (
        <ul class={page.list} data-testid="schedule-list">
          {items.map((s) => (
            <ScheduleRow
              key={s.id}
              schedule={s}
              onPause={() => void actions.togglePause(s)}
              onDelete={() => void actions.remove(s)}
              onSave={(changes) => actions.save(s, changes)}
            />
          ))}
        </ul>
      )}
      <h2 class={style.formTitle} id="new-schedule-title">
        New schedule
      </h2>
      <NewScheduleForm add={schedules.add} onStatus={(text) => setStatus(text === null ? null : { text })} />
      <ZoneList />
    </PageFrame>
  );
}

/** Loading, a failure with Try again, or the empty list's words. */
function ListState({ list, reload }: Pick<ReturnType<typeof useSchedules>, "list" | "reload">) {
  if (list.status === "loading")
    return (
      <p class={page.muted} role="status">
        Loading your schedules…
      </p>
    );
  if (list.status === "failed")
    return (
      <p class={page.statusError} role="alert" data-testid="schedules-error">
        {list.message}{" "}
        <button type="button" onClick={() => void reload()}>
          Try again
        </button>
      </p>
    );
  if (list.items.length > 0) return null;
  return (
    <p class={page.empty} data-testid="schedules-empty">
      No schedules yet. Create one with the form below, or ask the agent in a chat: “remind me on Friday at 9 to call
      the bank”.
    </p>
  );
}
