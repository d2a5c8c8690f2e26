// Runs the `fdq` command as a process: one way for every CLI test. BIN is bin/fdq.js bundled once per run
// (test/support/fdq-bundle.ts: the same entry and sources without tsx's per-process compile); SOURCE_BIN is
// bin/fdq.js itself, for the tests of how users start it (npx, npm scripts, signals).
import { execFile } from "node:child_process";
import path from "node:path";
import { SOURCE_BIN, testBin } from "../../support/fdq-bundle";

export const ROOT = path.resolve(__dirname, "../../..");
export const BIN = testBin();
export { SOURCE_BIN };

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
