// The Agent notices tab (seed 000 FR-027…031, its "notifications": what the agent is told while it
// works, not notifications for the user): every loaded subscriber with its switch; a change is saved at
// once and applies to the next event, in running conversations too. Until the server has the route, it
// says so instead of showing an error. Its old address, /settings/notifications, still opens it.

import { SubscriberRow } from "../../../components/subscriber-row";
import { useSubscribers } from "../../../lib/use-subscribers";
import style from "./style.module.css";

export function AgentNotices() {
  const { state, rowErrors, pending, setEnabled } = useSubscribers();
  switch (state.status) {
    case "loading":
      return <p class={style.muted}>Loading…</p>;
    case "unavailable":
      return (
        <p class={style.muted} data-testid="agent-notices-unavailable">
          Agent notices are not available yet
        </p>
      );
    case "failed":
      return <p class={style.error}>Could not load the agent notices: {state.message}</p>;
    case "ready":
      return (
        <section data-testid="agent-notices">
          <h2 class={style.title}>Agent notices</h2>
          <p class={style.intro}>
            What the agent is told while it works: that a tool failed, that its budget is nearly spent, that it seems to
            go in circles, that a message came from outside. They are for the agent, not for you, though each one also
            shows in the chat as a System message. Choose which it gets; those marked Always on keep it working safely,
            so they cannot be turned off. Changes apply at once.
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
