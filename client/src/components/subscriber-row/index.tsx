// One notification subscriber: what it is, which events it listens to, and its switch. Core subscribers
// keep the system stable, so their switch is locked on and says why.
import type { Subscriber } from "../../lib/response-schemas";
import { Icon } from "../icon";
import style from "./style.module.css";

const CORE_REASON = "Core subscriber: always on for system stability";

type Props = { subscriber: Subscriber; error?: string; onToggle: (enabled: boolean) => void };

export function SubscriberRow({ subscriber, error, onToggle }: Props) {
  const { id, name, description, events, core, enabled } = subscriber;
  return (
    <li class={style.row} data-testid={`subscriber-${id}`} data-core={core ? "true" : "false"}>
      <div class={style.info}>
        <div class={style.head}>
          <span class={style.name}>{name}</span>
          {core && <span class={style.core}>core</span>}
          <span class={enabled ? style.on : style.off} data-testid={`subscriber-status-${id}`}>
            {enabled ? "Enabled" : "Disabled"}
          </span>
        </div>
        {description && <p class={style.description}>{description}</p>}
        <ul class={style.events} aria-label="Events">
          {events.map((event) => (
            <li key={event} class={style.chip}>
              {event}
            </li>
          ))}
        </ul>
        {error && (
          <p class={style.error} role="alert">
            {error}
          </p>
        )}
      </div>
      <label class={style.switch} title={core ? CORE_REASON : enabled ? "Turn off" : "Turn on"}>
        {core && (
          <span class={style.lock} data-testid={`subscriber-lock-${id}`}>
            <Icon name="lock" />
          </span>
        )}
        <input
          type="checkbox"
          role="switch"
          aria-checked={enabled}
          class={style.toggle}
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
