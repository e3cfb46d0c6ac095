// One notification subscriber (seed 000 FR-028…030, issue 26): its name and, in plain words, what it
// does and when (its description), its status and its switch. Always-on (core) subscribers keep the
// agent working safely, so their switch is locked on and their description says why. The internal
// names (the subscriber's id, the events it listens to, when it reaches the agent) are under Details.
import type { SubscriberInfo } from "../../../../protocol";
import { plural } from "../../lib/plural";
import { FactsDetails } from "../../ui/facts-details";
import { Icon } from "../../ui/icon";
import switchStyle from "../../ui/switch/style.module.css";
import style from "./style.module.css";

/** Why a core subscriber's switch does not move, on hover and for screen readers. */
export const ALWAYS_ON_REASON = "Always on: the agent relies on it";

type Props = { subscriber: SubscriberInfo; error?: string; pending?: boolean; onToggle: (enabled: boolean) => void };

function statusOf({ core, enabled }: SubscriberInfo): { text: string; tone: "on" | "off" | "core" } {
  if (core) return { text: "Always on", tone: "core" };
  return enabled ? { text: "On", tone: "on" } : { text: "Off", tone: "off" };
}

const WHEN: Record<SubscriberInfo["injection"], string> = {
  turn_start: "when it starts its next reply",
  after_tool: "after its next round of tool calls",
  turn_end: "at the end of the reply",
};

const seconds = (ms: number) => `${(ms / 1000).toLocaleString("en-US")} s`;

/** When the agent gets it, and how notices are combined, in words. */
function delivery(subscriber: SubscriberInfo): string {
  const when = subscriber.priority === "critical" ? "at once" : WHEN[subscriber.injection];
  const parts = [`Reaches the agent ${when}.`];
  if (subscriber.batch && subscriber.batch.max_size > 1)
    parts.push(
      `Up to ${plural(subscriber.batch.max_size, "notice")}${subscriber.batch.window_ms > 0 ? ` within ${seconds(subscriber.batch.window_ms)}` : ""} arrive as one.`,
    );
  if (subscriber.dedupe)
    parts.push(`The same one again within ${seconds(subscriber.dedupe.window_ms)} is counted, not repeated.`);
  return parts.join(" ");
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
          <span
            class={style[status.tone]}
            data-testid={`subscriber-status-${id}`}
            title={core ? ALWAYS_ON_REASON : undefined}
          >
            {core && <Icon name="lock" />}
            {status.text}
          </span>
        </div>
        <p class={style.description} id={descriptionId} data-testid={`subscriber-description-${id}`}>
          {description}
        </p>
        <FactsDetails testid={`subscriber-details-${id}`}>
          <dt>Id</dt>
          <dd data-testid="subscriber-id">{id}</dd>
          <dt>Listens for</dt>
          <dd>
            <ul class={style.events} aria-label="Events">
              {events.map((event) => (
                <li key={event} class={style.chip} data-testid="subscriber-event">
                  {event}
                </li>
              ))}
            </ul>
          </dd>
          <dt>Delivery</dt>
          <dd>{delivery(subscriber)}</dd>
        </FactsDetails>
        {error && (
          <p class={style.error} role="alert" data-testid={`subscriber-error-${id}`}>
            {error}
          </p>
        )}
      </div>
      <label class={style.switch} title={core ? ALWAYS_ON_REASON : enabled ? `Turn ${name} off` : `Turn ${name} on`}>
        {core && (
          <span class={style.lock} data-testid={`subscriber-lock-${id}`} title={ALWAYS_ON_REASON}>
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
          aria-label={core ? `${name}: ${ALWAYS_ON_REASON}` : `Enable ${name}`}
          onChange={(event) => onToggle(event.currentTarget.checked)}
          data-testid={`subscriber-toggle-${id}`}
        />
      </label>
    </li>
  );
}
