// The fields both schedule forms show: name, message, when (once at a date and time, or repeating on a
// rule in words or cron) and the time zone, written into a draft as they are typed.
import { browserTimeZone } from "../../lib/use-schedules";
import type { Draft } from "./draft";
import style from "./style.module.css";

type Set = (patch: Partial<Draft>) => void;

export function DraftFields({
  draft,
  onChange,
  idPrefix,
}: {
  draft: Draft;
  onChange: (d: Draft) => void;
  idPrefix: string;
}) {
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
      <RuleFields draft={draft} set={set} idPrefix={idPrefix} />
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

function RuleFields({ draft, set, idPrefix }: { draft: Draft; set: Set; idPrefix: string }) {
  return (
    <>
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
    </>
  );
}
