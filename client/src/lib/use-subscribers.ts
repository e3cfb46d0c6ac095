// The Notifications tab's data (seed 000 FR-028/029): GET /api/subscribers, and PUT
// /api/subscribers/:id {enabled} per toggle. A toggle flips at once and flips back if the server says no.
import { useCallback, useEffect, useState } from "preact/hooks";
import { requestJson } from "./api";
import { type Subscriber, SubscriberListSchema, SubscriberSchema } from "./response-schemas";

export type SubscribersState =
  | { status: "loading" }
  | { status: "unavailable" }
  | { status: "failed"; message: string }
  | { status: "ready"; subscribers: Subscriber[] };

export function useSubscribers() {
  const [state, setState] = useState<SubscribersState>({ status: "loading" });
  const [rowErrors, setRowErrors] = useState<Record<string, string>>({});

  useEffect(() => {
    void requestJson("/api/subscribers", SubscriberListSchema).then((result) => {
      if (result.ok) setState({ status: "ready", subscribers: result.data });
      else if (result.error.status === 404) setState({ status: "unavailable" });
      else setState({ status: "failed", message: result.error.message });
    });
  }, []);

  const replace = useCallback((id: string, update: (s: Subscriber) => Subscriber) => {
    setState((current) =>
      current.status === "ready"
        ? { ...current, subscribers: current.subscribers.map((s) => (s.id === id ? update(s) : s)) }
        : current,
    );
  }, []);

  const setEnabled = useCallback(
    async (id: string, enabled: boolean) => {
      replace(id, (s) => ({ ...s, enabled }));
      setRowErrors(({ [id]: _, ...rest }) => rest);
      const path = `/api/subscribers/${encodeURIComponent(id)}`;
      const result = await requestJson(path, SubscriberSchema, "PUT", { enabled });
      if (result.ok) return replace(id, () => result.data);
      replace(id, (s) => ({ ...s, enabled: !enabled }));
      setRowErrors((errors) => ({ ...errors, [id]: result.error.message }));
    },
    [replace],
  );

  return { state, rowErrors, setEnabled };
}
