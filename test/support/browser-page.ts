// The page the browser tests load: built ONCE per jest run with the project's webpack config (production mode, as
// `npm run build`; the production build's test reads the same folder),
// into a temporary folder whose path reaches every test file through FDQ_TEST_PAGE_DIR. A build costs 20-60 s of
// CPU; building it per test file cost the suite minutes. The browser project's globalSetup starts the build as a
// process of its own and returns, so the unit tests (which test/support/tier-sequencer.js runs first) use the
// other core meanwhile; each browser test file waits for it in useBrowserRig. The globalTeardown removes the folder.
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
const {
  buildPage: buildInto,
  BUILT,
  FAILED,
  PAGE_URL,
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- a CommonJS module, also run as a process.
} = require("./build-page.js") as {
  buildPage(out: string): Promise<void>;
  BUILT: string;
  FAILED: string;
  PAGE_URL: string;
};

/** The add-in URL the page is built for (the manifest's URLs move to it). */
export { PAGE_URL };

/** The environment variable naming the built page's folder. */
export const PAGE_DIR_VARIABLE = "FDQ_TEST_PAGE_DIR";
/** The build the globalSetup started (the globalTeardown runs in the same process). */
let builder: ChildProcess | undefined;

const newFolder = (): string => mkdtempSync(join(tmpdir(), "fdq-pane-"));

/** Builds the page into a new temporary folder, in this process, and answers its path. */
export async function buildPage(): Promise<string> {
  const out = newFolder();
  try {
    await buildInto(out);
  } catch (err) {
    rmSync(out, { recursive: true, force: true });
    throw err;
  }
  return out;
}

/** Waits for the run's build of `dir` (a build of the globalSetup) to end, and throws its errors if it failed. */
export async function pageBuilt(dir: string, timeoutMs = 400_000): Promise<string> {
  for (const started = Date.now(); ; await sleep(200)) {
    if (existsSync(join(dir, BUILT))) return dir;
    if (existsSync(join(dir, FAILED)))
      throw new Error(`the page's build failed:\n${readFileSync(join(dir, FAILED), "utf8")}`);
    if (Date.now() - started > timeoutMs) throw new Error(`the page's build did not end in ${timeoutMs} ms`);
  }
}

/** jest globalSetup: starts building the page for the whole run, unless FDQ_TEST_PAGE_DIR already names one. */
export default function setup(): void {
  if (process.env[PAGE_DIR_VARIABLE]) return;
  const out = newFolder();
  builder = spawn(process.execPath, [join(__dirname, "build-page.js"), out], { stdio: "ignore" });
  builder.unref();
  process.env[PAGE_DIR_VARIABLE] = out;
}

/** jest globalTeardown: stops the build if it still runs (an interrupted run) and removes the folder. */
export function teardown(): void {
  if (!builder) return;
  if (builder.exitCode === null && builder.signalCode === null) builder.kill("SIGKILL");
  const dir = process.env[PAGE_DIR_VARIABLE];
  if (dir) rmSync(dir, { recursive: true, force: true });
  delete process.env[PAGE_DIR_VARIABLE];
  builder = undefined;
}
