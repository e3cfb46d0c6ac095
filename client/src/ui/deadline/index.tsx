// When something waiting for the user ends, after a lead ("answer by", "denied if not decided by"): the
// clock time, and the time left in words, counted down each second. Nothing for a deadline that is not
// a date. The question banner and the approval cards share it.
import { useEffect, useState } from "preact/hooks";
import { timeLeftInWords } from "../../lib/time-left";

function useSecondsLeft(deadline: string): number | null {
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [deadline]);
  const end = Date.parse(deadline);
  return Number.isNaN(end) ? null : Math.max(0, Math.round((end - now) / 1000));
}

type Props = { deadline: string; lead: string; class?: string; testid: string };

export function Deadline({ deadline, lead, class: className, testid }: Props) {
  const left = useSecondsLeft(deadline);
  if (left === null) return null;
  const at = new Date(deadline);
  return (
    <span class={className} data-testid={testid} data-deadline={deadline}>
      {" "}
      · {lead}{" "}
      <time dateTime={deadline} title={at.toLocaleString()}>
        {at.toLocaleTimeString()}
      </time>
      , {timeLeftInWords(left)}
    </span>
  );
}
