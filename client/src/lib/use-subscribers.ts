// The Notifications tab's data (seed 000 FR-028/029/031): GET /api/subscribers, and PUT
// /api/subscribers/:id {enabled} per toggle. A toggle flips at once (optimistic) and flips back, with
// the server's reason shown on its row, if the server says no (e.g. 409 for a core subscriber).
import { useCallback, useEffect, useRef, useState } from "preact/hooks";
import { z } from "zod";
import { type SubscriberInfo, SubscriberInfoSchema } from "../../../protocol";
import { requestJson } from "./api";

const SubscriberListSchema = z.array(SubscriberInfoSchema);

export type SubscribersState =
  | { status: "loading" }
  | { status: "unavailable" }
  | { status: "failed"; message: string }
  | { status: "ready"; subscribers: SubscriberInfo[] };

export function useSubscribers() {
  const [state, setState] = useState<SubscribersState>({ status: "loading" });
  const [rowErrors, setRowErrors] = useState<Record<string, string>>({});
  const [pending, setPending] = useState<Record<string, boolean>>({});
  // The latest request per subscriber: an older answer arriving late must not undo a newer toggle.
  const latest = useRef<Record<string, number>>({});

  useEffect(() => {
    let live = true;
    void requestJson("/api/subscribers", SubscriberListSchema).then((result) => {
      if (!live) return;
      if (result.ok) setState({ status: "ready", subscribers: result.data });
      else if (result.error.status === 404) setState({ status: "unavailable" });
      else setState({ status: "failed", message: result.error.message });
    });
    return () => {
      live = false;
    };
  }, []);

  const replace = useCallback((id: string, update: (s: SubscriberInfo) => SubscriberInfo) => {
    setState((current) =>
      current.status === "ready"
        ? { ...current, subscribers: current.subscribers.map((s) => (s.id === id ? update(s) : s)) }
        : current,
    );
  }, []);

  const setEnabled = useCallback(
    async (id: string, enabled: boolean) => {
      const request = (latest.current[id] ?? 0) + 1;
      latest.current[id] = request;
      replace(id, (s) => ({ ...s, enabled }));
      setRowErrors(({ [id]: _, ...rest }) => rest);
      setPending((p) => ({ ...p, [id]: true }));
      const path = `/api/subscribers/${encodeURIComponent(id)}`;
      const result = await requestJson(path, SubscriberInfoSchema, "PUT", { enabled });
      if (latest.current[id] !== request) return;
      setPending(({ [id]: _, ...rest }) => rest);
      if (result.ok) return replace(id, () => result.data);
      replace(id, (s) => ({ ...s, enabled: !enabled }));
      setRowErrors((errors) => ({ ...errors, [id]: `Could not save: ${result.error.message}` }));
    },
    [replace],
  );

  return { state, rowErrors, pending, setEnabled };
}
