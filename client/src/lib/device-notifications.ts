// Notifications on this device (Settings → Notifications, docs/protocol.md "Finish notifications"): the
// user's choices, kept in this browser's storage (they are about this device and its lock screen), and
// how a notification is shown: through the service worker where there is one (a phone's browser shows
// none otherwise, and its click is the worker's: client/public/sw.js), else with `new Notification`.
import type { PushMessage } from "../../../protocol/push";
import { NOTIFY_KEY, notifyOn } from "./notify-on";

/** "on": notifications here show the conversation's title and the answer's text. */
const CONTENT_KEY = "oracle.notify-content";

export interface NotifyChoices {
  on: boolean;
  content: boolean;
}

const read = (key: string): boolean => {
  try {
    return localStorage.getItem(key) === "on";
  } catch {
    return false; // storage unavailable (a private window, say): off
  }
};

export function notifyChoices(): NotifyChoices {
  return { on: notifyOn(), content: read(CONTENT_KEY) };
}

export function saveNotifyChoices({ on, content }: NotifyChoices): void {
  try {
    for (const [key, value] of [
      [NOTIFY_KEY, on],
      [CONTENT_KEY, content],
    ] as const) {
      if (value) localStorage.setItem(key, "on");
      else localStorage.removeItem(key);
    }
  } catch {
    // storage unavailable: the choice holds for this page only
  }
}

/** The browser's permission, or "unsupported" where it has no Notifications API. */
export function notifyPermission(): NotificationPermission | "unsupported" {
  return typeof Notification === "undefined" ? "unsupported" : Notification.permission;
}

/** Shows `message` as a notification, if the user allowed them; a click brings the conversation forward. */
export async function showNotice(message: PushMessage): Promise<void> {
  if (notifyPermission() !== "granted") return;
  const options = { body: message.body, tag: message.tag, icon: "/icons/icon-192.png", data: { url: message.url } };
  const registration = await navigator.serviceWorker?.getRegistration().catch(() => undefined);
  if (registration) return registration.showNotification(message.title, options);
  const notice = new Notification(message.title, options);
  notice.onclick = () => {
    window.focus();
    // The router follows popstate (router.ts); importing it here would split it out of the first load.
    if (location.pathname !== message.url) {
      history.pushState(null, "", message.url);
      dispatchEvent(new PopStateEvent("popstate"));
    }
    notice.close();
  };
}
