// The time "checked 2 min ago" is counted from, moved on every half minute: enough for words in
// minutes, and no re-render a second.
import { useEffect, useState } from "preact/hooks";

export function useNow(): number {
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 30_000);
    return () => clearInterval(timer);
  }, []);
  return now;
}
