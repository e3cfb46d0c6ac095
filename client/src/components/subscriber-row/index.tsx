// One notification subscriber (seed 000 FR-028…030): its name, what it does, the events it listens to,
// its status and its switch. Core subscribers keep the system stable, so their switch is locked on and
// says why, both on hover (title) and in plain text.
import type { SubscriberInfo } from "../../../../protocol";
import { Icon } from "../icon";
import switchStyle from "../switch/style.module.css";
import style from "./style.module.css";

export const CORE_REASON = "Core subscriber: always on for system stability";

type Props = { subscriber: SubscriberInfo; error?: string; pending?: boolean; onToggle: (enabled: boolean) => void };

function statusOf({ core, enabled }: SubscriberInfo): { text: string; tone: "on" | "off" | "core" } {
  if (core) return { text: "Always on", tone: "core" };
  return enabled ? { text: "On", tone: "on" } : { text: "Off", tone: "off" };
}

export function SubscriberRow({ subscriber, error, pending = false, onToggle }: Props) {
  const { id, name, description, events, core, enabled } = subscriber;
  const status = statusOf(subscriber);
  const descriptionId = `subscriber-description-${id}`;
  return (
    <li
      class={style.row}
      data-testid={`subscriber-${id}`}
      data-core={core ? "true" : "false"}
      data-enabled={enabled ? "true" : "false"}
    >
      <div class={style.info}>
        <div class={style.head}>
          <span class={style.name} data-testid={`subscriber-name-${id}`}>
            {name}
          </span>
          <span class={style[status.tone]} data-testid={`subscriber-status-${id}`}>
            {status.text}
          </span>
        </div>
        <p class={style.description} id={descriptionId}>
          {description}
        </p>
        <ul class={style.events} aria-label="Events">
          {events.map((event) => (
            <li key={event} class={style.chip} data-testid="subscriber-event">
              {event}
            </li>
          ))}
        </ul>
        {core && (
          <p class={style.coreNote} title={CORE_REASON} data-testid={`subscriber-core-note-${id}`}>
            <Icon name="lock" /> {CORE_REASON}
          </p>
        )}
        {error && (
          <p class={style.error} role="alert" data-testid={`subscriber-error-${id}`}>
            {error}
          </p>
        )}
      </div>
      <label class={style.switch} title={core ? CORE_REASON : enabled ? `Turn ${name} off` : `Turn ${name} on`}>
        {core && (
          <span class={style.lock} data-testid={`subscriber-lock-${id}`} title={CORE_REASON}>
            <Icon name="lock" />
          </span>
        )}
        <input
          type="checkbox"
          role="switch"
          aria-checked={enabled}
          aria-busy={pending}
          aria-describedby={descriptionId}
          class={switchStyle.toggle}
          checked={enabled}
          disabled={core}
          aria-label={core ? `${name}: ${CORE_REASON}` : `Enable ${name}`}
          onChange={(event) => onToggle(event.currentTarget.checked)}
          data-testid={`subscriber-toggle-${id}`}
        />
      </label>
    </li>
  );
}
