// What the turn waits for from the user (a question's answer, an approval's decision), seen from the
// object: each kind is kept in storage with a deadline, shares the object's one alarm (alarm.ts), is
// shown to a tab that joins, and gives up at its deadline even after an eviction. The turn host holds
// them in one list (turn-host.ts), so a new kind of wait is a new file here that implements this, and
// the alarm, `hello` and a turn's end reach it without a new branch anywhere.
import type { ServerFrame } from "../../../../protocol";

type Hello = Extract<ServerFrame, { type: "hello" }>;

export interface Wait {
  /** The earliest deadline of anything of this kind still waiting (epoch ms), for the alarm. */
  nextDeadline(): Promise<number | undefined>;
  /** The alarm fired: whatever is past its deadline gives up (and every tab is told). */
  expire(now: number): Promise<void>;
  /** What a tab that joins is shown of it in `hello`. */
  hello(): Promise<Partial<Hello>>;
  /** The turn ended: what this kind keeps only for the length of a turn is dropped. */
  turnEnded?(): Promise<void>;
}
