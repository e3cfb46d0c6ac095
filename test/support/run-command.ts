// A command run to its end without blocking this process's event loop (the e2e warm-up runs in Vitest's
// own process): its exit status and the tail of what it wrote.
import { spawn } from "node:child_process";

export interface CommandResult {
  status: number | null;
  /** stdout and stderr interleaved, the last 20,000 characters. */
  output: string;
  /** Why it did not exit by itself: it could not start, or a signal (the timeout's) ended it. */
  error?: string;
}

export function runCommand(
  command: string,
  args: string[],
  options: { env: NodeJS.ProcessEnv; cwd?: string; timeoutMs?: number },
): Promise<CommandResult> {
  return new Promise((resolve) => {
    const proc = spawn(command, args, {
      cwd: options.cwd,
      env: options.env,
      stdio: ["ignore", "pipe", "pipe"],
      timeout: options.timeoutMs,
    });
    let output = "";
    const collect = (b: Buffer) => {
      output = (output + b.toString("utf8")).slice(-20_000);
    };
    proc.stdout.on("data", collect);
    proc.stderr.on("data", collect);
    proc.once("error", (error) => resolve({ status: null, output, error: error.message }));
    proc.once("close", (status, signal) =>
      resolve({ status, output, ...(signal ? { error: `killed by ${signal}` } : {}) }),
    );
  });
}
