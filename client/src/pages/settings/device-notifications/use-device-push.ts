// Web push for this browser (Settings → Notifications): whether the server offers it (`GET /api/push`
// names the operator's key, or null) and the browser can take it (a service worker with a push
// manager), and whether this browser is subscribed: its push subscription, matched by endpoint with
// the user's subscriptions on the server. Subscribing asks the browser (`pushManager.subscribe`), then
// saves it (`POST /api/push/subscriptions`); unsubscribing removes both.
import { useCallback, useEffect, useState } from "preact/hooks";
import {
  PushSettingsSchema,
  PushSubscriptionSchema,
  type PushSubscription as SavedPush,
} from "../../../../../protocol/push";
import { requestEmpty, requestJson } from "../../../lib/api";

export type PushState =
  | { status: "loading" }
  /** The browser cannot (no service worker or push manager here), or the server does not offer it. */
  | { status: "unavailable"; why: string }
  | { status: "ready"; key: string; saved: SavedPush | undefined };

async function pushManager(): Promise<PushManager | undefined> {
  if (!("serviceWorker" in navigator) || typeof PushManager === "undefined") return undefined;
  const registration = await navigator.serviceWorker.getRegistration().catch(() => undefined);
  return registration?.pushManager;
}

export function useDevicePush() {
  const [state, setState] = useState<PushState>({ status: "loading" });
  const [error, setError] = useState<string | null>(null);

  const load = useCallback(async () => {
    const manager = await pushManager();
    if (!manager) return setState({ status: "unavailable", why: "This browser cannot get push notifications here." });
    const settings = await requestJson("/api/push", PushSettingsSchema);
    if (!settings.ok) return setState({ status: "unavailable", why: settings.error.message });
    const key = settings.data.public_key;
    if (!key) return setState({ status: "unavailable", why: "Push is not set up on this server." });
    const endpoint = (await manager.getSubscription().catch(() => null))?.endpoint;
    const saved = settings.data.subscriptions.find((s) => s.endpoint === endpoint);
    setState({ status: "ready", key, saved });
  }, []);

  useEffect(() => void load(), [load]);

  const subscribe = useCallback(async (key: string, showContent: boolean) => {
    setError(null);
    const manager = await pushManager();
    if (!manager) return;
    try {
      // A subscription made with another key (the operator changed it) cannot be reused.
      await (await manager.getSubscription())?.unsubscribe();
      const browser = (await manager.subscribe({ userVisibleOnly: true, applicationServerKey: key })).toJSON();
      const saved = await requestJson("/api/push/subscriptions", PushSubscriptionSchema, "POST", {
        endpoint: browser.endpoint,
        keys: browser.keys,
        show_content: showContent,
      });
      if (!saved.ok) {
        await (await manager.getSubscription())?.unsubscribe();
        return setError(saved.error.message);
      }
      setState({ status: "ready", key, saved: saved.data });
    } catch (e) {
      setError(`The browser did not subscribe: ${e instanceof Error ? e.message : String(e)}`);
    }
  }, []);

  const unsubscribe = useCallback(async (saved: SavedPush) => {
    setError(null);
    const removed = await requestEmpty(`/api/push/subscriptions/${encodeURIComponent(saved.id)}`, "DELETE");
    if (!removed.ok && removed.error.status !== 404) return setError(removed.error.message);
    await (await (await pushManager())?.getSubscription())?.unsubscribe().catch(() => undefined);
    setState((s) => (s.status === "ready" ? { ...s, saved: undefined } : s));
  }, []);

  const showContent = useCallback(async (saved: SavedPush, show: boolean) => {
    const patched = await requestJson(
      `/api/push/subscriptions/${encodeURIComponent(saved.id)}`,
      PushSubscriptionSchema,
      "PATCH",
      { show_content: show },
    );
    if (!patched.ok) return setError(patched.error.message);
    setState((s) => (s.status === "ready" ? { ...s, saved: patched.data } : s));
  }, []);

  return { state, error, subscribe, unsubscribe, showContent };
}
