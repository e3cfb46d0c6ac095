// A lock between processes on one machine: a file made with O_EXCL that names its owner's pid. A lock
// whose owner is gone (killed mid-work) is taken over rather than waited on for ever.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";

/** Runs `work` holding the lock `file`, waiting (polling every 250 ms) while another live process holds it. */
export async function withFileLock<T>(file: string, work: () => T | Promise<T>): Promise<T> {
  mkdirSync(path.dirname(file), { recursive: true });
  for (;;) {
    try {
      writeFileSync(file, String(process.pid), { flag: "wx" });
      break;
    } catch {
      const owner = Number(readFileSync(file, { encoding: "utf8", flag: "a+" }));
      if (!owner || !alive(owner)) rmSync(file, { force: true });
      else await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
  try {
    return await work();
  } finally {
    rmSync(file, { force: true });
  }
}

/** Whether the process `pid` is still running. */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
