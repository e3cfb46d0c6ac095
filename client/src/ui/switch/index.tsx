// A setting's on/off row: its name with a sentence under it (and, where it cannot be used, why), and at
// the row's end the switch, a checkbox with role="switch" whose id is also its test id. Settings →
// Notifications (this device's choices) and Settings → Web (the agent's web tools).
import rowStyle from "./row.module.css";
import style from "./style.module.css";

type Props = {
  id: string;
  label: string;
  hint: string;
  /** Why the switch cannot be used (the operator's decision): shown under the hint, the switch off. */
  blocked?: string;
  checked: boolean;
  onChange: (on: boolean) => void;
};

export function SwitchRow({ id, label, hint, blocked, checked, onChange }: Props) {
  const on = checked && !blocked;
  return (
    <div class={rowStyle.row}>
      <label class={rowStyle.label} for={id}>
        <span class={rowStyle.name}>{label}</span>
        <span class={rowStyle.hint} id={`${id}-hint`}>
          {hint}
        </span>
        {blocked && (
          <span class={rowStyle.blocked} id={`${id}-blocked`} data-testid={`${id}-blocked`}>
            {blocked}
          </span>
        )}
      </label>
      <input
        id={id}
        type="checkbox"
        role="switch"
        class={style.toggle}
        checked={on}
        aria-checked={on}
        disabled={!!blocked}
        aria-describedby={`${id}-hint${blocked ? ` ${id}-blocked` : ""}`}
        onChange={(event) => onChange(event.currentTarget.checked)}
        data-testid={id}
      />
    </div>
  );
}
