// One schedule in the list: its name, conversation, rule in words (with when a daylight-saving change
// moves a time, the server's note), next and last runs and message, with
// Pause / Resume, Edit and Delete; Edit swaps the buttons for the form (the kit's submit state).

import { useState } from "preact/hooks";
import { describeRule } from "../../../../protocol/schedules";
import { pageStyle as page } from "../../components/page-frame";
import { FormError, useFormSubmit } from "../../components/settings-form";
import type { Schedule } from "../../lib/use-schedules";
import { Link } from "../../ui/link";
import { type Draft, draftOf, draftZone, LAST, localTime, ruleOf } from "./draft";
import { DraftFields } from "./draft-fields";
import style from "./style.module.css";

export type ScheduleChanges = { name: string; text: string; time_zone: string } & ({ at: string } | { repeat: string });

type RowProps = {
  schedule: Schedule;
  onPause: () => void;
  onDelete: () => void;
  /** Saves the changes; the reason in words when refused. */
  onSave: (changes: ScheduleChanges) => Promise<string | null>;
};

export function ScheduleRow({ schedule: s, onPause, onDelete, onSave }: RowProps) {
  const [editing, setEditing] = useState<Draft | null>(null);
  return (
    <li class={style.row} data-testid="schedule-item" data-schedule-id={s.id} data-paused={String(s.paused)}>
      <ScheduleSummary schedule={s} />
      {editing ? (
        <EditForm schedule={s} draft={editing} onChange={setEditing} onSave={onSave} />
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
          <button
            type="button"
            onClick={() => setEditing(draftOf(s))}
            aria-label={`Edit “${s.name}”`}
            data-testid="schedule-edit"
          >
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

function ScheduleSummary({ schedule: s }: { schedule: Schedule }) {
  return (
    <>
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
      {s.note && (
        <p class={style.note} data-testid="schedule-note">
          {s.note}
        </p>
      )}
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
    </>
  );
}

type EditProps = {
  schedule: Schedule;
  /** The draft being edited; null closes the form. */
  draft: Draft;
  onChange: (draft: Draft | null) => void;
  onSave: RowProps["onSave"];
};

function EditForm({ schedule: s, draft, onChange, onSave }: EditProps) {
  const form = useFormSubmit([]);
  const save = async () => {
    const zone = draftZone(draft, s.time_zone);
    if ("problem" in zone) return form.setFormError(`Could not save the schedule: ${zone.problem}`);
    const problem = await onSave({
      name: draft.name.trim(),
      text: draft.text.trim(),
      time_zone: zone.zone,
      ...ruleOf(draft),
    });
    form.setFormError(problem);
    if (!problem) onChange(null);
  };
  return (
    <form
      class={style.form}
      onSubmit={form.submit(save)}
      aria-label={`Edit “${s.name}”`}
      data-testid="schedule-edit-form"
    >
      <DraftFields draft={draft} onChange={onChange} idPrefix={`edit-${s.id}`} />
      <div class={style.actions}>
        <button type="submit" class={page.primary} data-testid="schedule-save">
          Save
        </button>
        <button type="button" onClick={() => onChange(null)}>
          Cancel
        </button>
      </div>
      <FormError error={form.formError} testid="schedule-edit-error" class={page.statusError} />
    </form>
  );
}
