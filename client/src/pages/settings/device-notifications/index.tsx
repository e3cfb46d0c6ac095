// Settings → Notifications: whether this device tells the user when an answer is ready out of sight
// (docs/protocol.md "Finish notifications"). The browser is asked for its permission only when the user
// clicks "Turn on notifications". By default a notification says only that an answer is ready (no
// title, no text: a lock screen shows it to whoever holds the phone); "Show the answer's text" changes
// that for this device. "Push to this device" (where the browser and the server offer it) reaches the
// device when no tab of the app is open, through the service worker (client/public/sw.js).
import { useState } from "preact/hooks";
import {
  type NotifyChoices,
  notifyChoices,
  notifyPermission,
  saveNotifyChoices,
} from "../../../lib/device-notifications";
import { SwitchRow } from "../../../ui/switch";
import style from "./style.module.css";
import { useDevicePush } from "./use-device-push";

export function DeviceNotifications() {
  const [permission, setPermission] = useState(notifyPermission);
  const [choices, setChoices] = useState(notifyChoices);
  const push = useDevicePush();
  const saved = push.state.status === "ready" ? push.state.saved : undefined;
  const choose = (next: NotifyChoices) => {
    saveNotifyChoices(next);
    setChoices(next);
  };
  const turnOn = async () => {
    // Asked on this click only: the browser's prompt never comes unasked.
    const answer = await Notification.requestPermission();
    setPermission(answer);
    if (answer === "granted") choose({ ...choices, on: true });
  };
  const turnOff = () => {
    choose({ ...choices, on: false });
    if (saved) void push.unsubscribe(saved);
  };
  const showContent = (content: boolean) => {
    choose({ ...choices, content });
    if (saved) void push.showContent(saved, content);
  };
  const on = choices.on && permission === "granted";
  return (
    <section class={style.section} aria-labelledby="device-notifications-heading" data-testid="device-notifications">
      <h2 id="device-notifications-heading" class={style.heading}>
        Notifications
      </h2>
      <p class={style.intro}>
        Oracle can tell you on this device when an answer is ready while you are elsewhere: in another tab or app, or
        after a scheduled run.
      </p>
      {permission === "unsupported" && <p class={style.muted}>This browser cannot show notifications.</p>}
      {permission === "denied" && (
        <p class={style.muted} data-testid="notify-blocked">
          Notifications are blocked for this site. Allow them in your browser's site settings, then reload this page.
        </p>
      )}
      {!on && permission !== "unsupported" && permission !== "denied" && (
        <button type="button" class={style.button} onClick={() => void turnOn()} data-testid="notify-turn-on">
          Turn on notifications
        </button>
      )}
      {on && (
        <>
          <SwitchRow
            id="notify-on"
            label="Notify me on this device"
            hint="When an answer is ready and this tab is in the background."
            checked
            onChange={(next) => !next && turnOff()}
          />
          <SwitchRow
            id="notify-content"
            label="Show the answer's text in notifications"
            hint="Off: a notification says only that an answer is ready, with no title or text, so nothing of your conversations shows on a lock screen."
            checked={choices.content}
            onChange={showContent}
          />
          {push.state.status === "ready" ? (
            <SwitchRow
              id="notify-push"
              label="Push to this device"
              hint="Also when no tab of Oracle is open: a scheduled run, or a long answer after you closed the tab. Stops when you sign out here."
              checked={!!saved}
              onChange={(next) =>
                push.state.status === "ready" &&
                void (next ? push.subscribe(push.state.key, choices.content) : saved && push.unsubscribe(saved))
              }
            />
          ) : (
            push.state.status === "unavailable" && (
              <p class={style.muted} data-testid="notify-push-unavailable">
                Push when no tab is open: {push.state.why}
              </p>
            )
          )}
          {push.error && (
            <p class={style.error} role="alert">
              {push.error}
            </p>
          )}
        </>
      )}
    </section>
  );
}
