// Runs the `fdq` command as a process (bin/fdq.js, as `npx fdq` runs it): one way for every CLI test.
import { execFile } from "node:child_process";
import path from "node:path";

export const ROOT = path.resolve(__dirname, "../../..");
export const BIN = path.join(ROOT, "bin/fdq.js");

export interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** `command` defaults to Node on bin/fdq.js; `env` is added to this process's environment. */
export function runFdq(
  args: string[],
  env: NodeJS.ProcessEnv = process.env,
  command: readonly string[] = [process.execPath, BIN],
): Promise<Run> {
  const [file, ...pre] = command as [string, ...string[]];
  return new Promise((resolve) => {
    execFile(file, [...pre, ...args], { cwd: ROOT, env }, (err, stdout, stderr) =>
      resolve({ code: err ? Number(err.code) : 0, stdout, stderr }),
    );
  });
}
