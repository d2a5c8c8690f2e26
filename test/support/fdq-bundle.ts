// `fdq` for the integration tests that run it as a process: bin/fdq.js bundled ONCE per jest run (the integration
// project's globalSetup) into one CommonJS file, so each of the suite's hundreds of `fdq` processes starts in about
// a third of the CPU. bin/fdq.js runs the TypeScript sources through tsx, which costs every process about a second
// of CPU to load and compile its modules; the bundle is the same entry and the same sources (esbuild, the
// transformer tsx itself uses), with tsx's register call left out since nothing is left to compile. What is
// specific to bin/fdq.js as users start it (npx, npm scripts, signals, tsx) is tested on bin/fdq.js itself:
// test/integration/cli/stop.test.ts and the `npx fdq` test of fdq-eval.test.ts.
// FDQ_TEST_FDQ_BIN=bin runs every test on bin/fdq.js instead.
//
// esbuild (MIT): a maintained bundler that bundles the CLI in well under a second; already what tsx runs on.
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { join, resolve } from "node:path";
import { build, stop, type Plugin } from "esbuild";

const ROOT = resolve(__dirname, "../..");
export const SOURCE_BIN = join(ROOT, "bin/fdq.js");
/** The environment variable naming the runnable `fdq` the tests start (a file for `node FILE ...`). */
export const BIN_VARIABLE = "FDQ_TEST_FDQ_BIN";
const BUILT_BY_SETUP = "FDQ_TEST_FDQ_BIN_BUILT";
const REGISTER = 'require("tsx/cjs/api").register();';

/** bin/fdq.js without its tsx register call (which must be there: the bundle fails if bin/fdq.js changes shape). */
const withoutTsx: Plugin = {
  name: "bin-without-tsx",
  setup(b) {
    b.onLoad({ filter: /[\\/]bin[\\/]fdq\.js$/ }, (args) => {
      const text = readFileSync(args.path, "utf8");
      if (!text.includes(REGISTER)) throw new Error(`${args.path} no longer has the line ${REGISTER}`);
      return { contents: text.replace(REGISTER, ""), loader: "js" };
    });
  },
};

/**
 * Bundles bin/fdq.js into a new folder of ROOT/build (two levels under the root, like src/gateway/index.ts, so the
 * gateway's default dist/ folder, found from __dirname, is the project's) and answers the file's path.
 */
export async function bundleFdq(): Promise<string> {
  mkdirSync(join(ROOT, "build"), { recursive: true });
  const dir = mkdtempSync(join(ROOT, "build", "fdq-test-"));
  const file = join(dir, "fdq.js");
  try {
    await build({
      entryPoints: [SOURCE_BIN],
      outfile: file,
      bundle: true,
      platform: "node",
      format: "cjs",
      target: "node20",
      logLevel: "error",
      plugins: [withoutTsx],
    });
  } catch (err) {
    rmSync(dir, { recursive: true, force: true });
    throw err;
  } finally {
    // esbuild's service process would otherwise live as long as jest.
    await stop();
  }
  return file;
}

/** jest globalSetup: bundles fdq for the whole run, unless FDQ_TEST_FDQ_BIN already names one (or "bin"). */
export default async function setup(): Promise<void> {
  if (process.env[BIN_VARIABLE]) return;
  process.env[BIN_VARIABLE] = await bundleFdq();
  process.env[BUILT_BY_SETUP] = "1";
}

/** jest globalTeardown: removes the bundle the setup made. */
export function teardown(): void {
  const file = process.env[BIN_VARIABLE];
  if (file && process.env[BUILT_BY_SETUP] === "1") {
    rmSync(resolve(file, ".."), { recursive: true, force: true });
    delete process.env[BIN_VARIABLE];
    delete process.env[BUILT_BY_SETUP];
  }
}

/** The `fdq` the tests run: the run's bundle, or bin/fdq.js (outside jest's setup, or FDQ_TEST_FDQ_BIN=bin). */
export function testBin(): string {
  const given = process.env[BIN_VARIABLE];
  return given && given !== "bin" ? given : SOURCE_BIN;
}
