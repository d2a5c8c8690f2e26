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

/** How the evaluating process is started, for bench/warm-instructions.ts (defaults: as `fdq` starts). */
export interface Launch {
  /** A command the process runs under (`valgrind --tool=callgrind ...`): its stderr is then `EvaluatorRun.stderr`. */
  readonly wrapper?: readonly string[];
  /** Node's own flags (`--single-threaded`). */
  readonly nodeFlags?: readonly string[];
  /** The checkout whose bench/evaluate-child.ts (and so whose src/) is run: this one by default. */
  readonly tree?: string;
  /** Another child speaking the same protocol, run in this checkout (bench/floor-child.ts). */
  readonly child?: string;
}

export function runEvaluator(
  config: ChildConfig,
  apiKey: string,
  launch: Launch = {},
): Promise<EvaluatorRun & { stderr: string }> {
  const start = performance.now();
  const tree = launch.tree ?? path.join(__dirname, "..");
  const child = launch.child ?? path.join(tree, "bench/evaluate-child.ts");
  const loader =
    launch.tree === undefined && launch.child === undefined
      ? LOADER
      : `require("tsx/cjs/api").register(); require(${JSON.stringify(child)});`;
  const argv = [...(launch.nodeFlags ?? []), ...profileFlags(), "-e", loader];
  const [command, ...args] = launch.wrapper?.length
    ? [...launch.wrapper, process.execPath, ...argv]
    : [process.execPath, ...argv];
  return new Promise((resolve, reject) => {
    const child = spawn(command!, args, {
      cwd: tree,
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
        stderr,
      });
    });
  });
}
