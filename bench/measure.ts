// Starts the evaluating child process and reads its report.
import { spawn } from "node:child_process";
import * as path from "node:path";
import { CONFIG_ENV, KEY_ENV, REPORT_PREFIX, type ChildConfig, type ChildReport } from "./child-protocol";

const CHILD = path.join(__dirname, "evaluate-child.ts");
/** Loads TypeScript the way bin/fdq.js does (tsx's CommonJS hook, no loader thread), so memory compares. */
const LOADER = `require("tsx/cjs/api").register(); require(${JSON.stringify(CHILD)});`;

/** Set FDQ_BENCH_CPU_PROF=DIR to write a .cpuprofile of every evaluating process into DIR. */
function profileFlags(): string[] {
  const dir = process.env.FDQ_BENCH_CPU_PROF;
  return dir ? ["--cpu-prof", "--cpu-prof-dir", dir] : [];
}

export interface EvaluatorRun {
  readonly report: ChildReport;
  /** From spawn to exit: Node's start-up and module loading included, as a user of `fdq eval` waits. */
  readonly processSeconds: number;
}

export function runEvaluator(config: ChildConfig, apiKey: string): Promise<EvaluatorRun> {
  const start = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...profileFlags(), "-e", LOADER], {
      cwd: path.join(__dirname, ".."),
      env: { ...process.env, [CONFIG_ENV]: JSON.stringify(config), [KEY_ENV]: apiKey },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    child.on("error", reject);
    child.on("close", (code) => {
      const line = stdout.split("\n").find((l) => l.startsWith(REPORT_PREFIX));
      if (code !== 0 || !line) {
        reject(new Error(`The evaluating process failed (exit ${code}): ${stderr.trim().slice(-2000)}`));
        return;
      }
      resolve({
        report: JSON.parse(line.slice(REPORT_PREFIX.length)) as ChildReport,
        processSeconds: (performance.now() - start) / 1000,
      });
    });
  });
}
