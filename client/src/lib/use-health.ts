// The model behind the agent (GET /api/health), shown in the header so a demo model is never mistaken
// for a real one.
import { useEffect, useState } from "preact/hooks";
import { requestJson } from "./api";
import { type Health, HealthSchema } from "./response-schemas";

export function useHealth(): Health | null {
  const [health, setHealth] = useState<Health | null>(null);
  useEffect(() => {
    let live = true;
    void requestJson("/api/health", HealthSchema).then((result) => {
      if (live && result.ok) setHealth(result.data);
    });
    return () => {
      live = false;
    };
  }, []);
  return health;
}
