// Whether the user turned notifications on for this device (Settings → Notifications): the one check
// the chat makes at a turn's end before it loads anything of notifications (finish-notice.ts).

/** "on" while notifications are on here (device-notifications.ts writes it). */
export const NOTIFY_KEY = "oracle.notify";

export function notifyOn(): boolean {
  try {
    return localStorage.getItem(NOTIFY_KEY) === "on";
  } catch {
    return false; // storage unavailable (a private window, say): off
  }
}
