// The fields both schedule forms show: name, message, when (once at a date and time, or repeating on a
// rule in words or cron) and the time zone (suggested from the page's list of zones; a city is read as
// its zone, and the field says which), written into a draft as they are typed.
import { browserTimeZone } from "../../lib/use-schedules";
import type { Draft } from "./draft";
import style from "./style.module.css";
import { knownZones, resolveTimeZone, ZONE_LIST_ID } from "./time-zones";

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
      <TimeZoneField value={draft.time_zone} onInput={(time_zone) => set({ time_zone })} idPrefix={idPrefix} />
    </>
  );
}

/** The zones the time zone fields suggest: one list for the page. */
export function ZoneList() {
  return (
    <datalist id={ZONE_LIST_ID}>
      {knownZones().map((zone) => (
        <option key={zone} value={zone} />
      ))}
    </datalist>
  );
}

/** A zone picked from the list or typed; what it is saved as, when that is not what was typed ("Paris"). */
function TimeZoneField({
  value,
  onInput,
  idPrefix,
}: {
  value: string;
  onInput: (v: string) => void;
  idPrefix: string;
}) {
  const typed = value.trim();
  const zone = resolveTimeZone(typed);
  const hintId = `${idPrefix}-time-zone-hint`;
  const hint = !typed ? null : !zone ? (
    <span id={hintId} class={style.hintProblem} data-testid="schedule-time-zone-problem">
      Not a time zone: pick one from the list, or type a city such as Paris.
    </span>
  ) : zone !== typed ? (
    <span id={hintId} class={style.hint} data-testid="schedule-time-zone-resolved">
      Saved as {zone}
    </span>
  ) : null;
  return (
    <label>
      Time zone
      <input
        value={value}
        maxLength={64}
        list={ZONE_LIST_ID}
        autoComplete="off"
        placeholder={browserTimeZone()}
        aria-describedby={hint ? hintId : undefined}
        onInput={(e) => onInput(e.currentTarget.value)}
        data-testid="schedule-time-zone"
      />
      {hint}
    </label>
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
