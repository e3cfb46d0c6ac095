// The Notifications tab (seed 000 FR-027…031): every loaded subscriber with its switch; a change is
// saved at once and applies to the next event, in running conversations too. Until the server has the
// route, it says so instead of showing an error.

import { SubscriberRow } from "../../../components/subscriber-row";
import { useSubscribers } from "../../../lib/use-subscribers";
import style from "./style.module.css";

export function NotificationSettings() {
  const { state, rowErrors, pending, setEnabled } = useSubscribers();
  switch (state.status) {
    case "loading":
      return <p class={style.muted}>Loading…</p>;
    case "unavailable":
      return (
        <p class={style.muted} data-testid="notifications-unavailable">
          Notifications settings are not available yet
        </p>
      );
    case "failed":
      return <p class={style.error}>Could not load notification settings: {state.message}</p>;
    case "ready":
      return (
        <section data-testid="notification-settings">
          <p class={style.intro}>
            Choose which notifications the agent receives while it works. They also appear in the chat as System
            messages. Those marked Always on keep the agent working safely, so they cannot be turned off. Changes apply
            at once.
          </p>
          {state.subscribers.length === 0 && <p class={style.muted}>No subscribers are loaded.</p>}
          <ul class={style.list}>
            {state.subscribers.map((subscriber) => (
              <SubscriberRow
                key={subscriber.id}
                subscriber={subscriber}
                error={rowErrors[subscriber.id]}
                pending={pending[subscriber.id] ?? false}
                onToggle={(enabled) => void setEnabled(subscriber.id, enabled)}
              />
            ))}
          </ul>
        </section>
      );
  }
}
