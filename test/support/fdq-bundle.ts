// `fdq` for the integration tests that run it as a process: bin/fdq.js bundled ONCE per jest run (the integration
// project's globalSetup) into one CommonJS file, so each of the suite's hundreds of `fdq` processes starts in about
// a third of the CPU. bin/fdq.js runs the TypeScript sources through tsx, which costs every process about a second
// of CPU to load and compile its modules; the bundle is the same entry and the same sources (esbuild, the
// transformer tsx itself uses), with tsx's register call left out since nothing is left to compile. What is
// specific to bin/fdq.js as users start it (npx, npm scripts, signals, tsx) is tested on bin/fdq.js itself:
// test/integration/cli/stop.test.ts and the `npx fdq` test of fdq-eval.test.ts.
// Each process still read and compiled the 2 MB bundle (about 0.1 CPU-s of its 0.3): the bundle is minified (names
// kept, so errors and classes are named as in the sources) and started through a small loader that compiles it with
// a V8 code cache, made once by the setup from one `fdq eval --sandbox` run. The cache only skips compiling: V8
// rejects one that does not match the source or the flags, and the loader then compiles as Node would.
// FDQ_TEST_FDQ_BIN=bin runs every test on bin/fdq.js instead.
//
// esbuild (MIT): a maintained bundler that bundles the CLI in well under a second; already what tsx runs on.
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { build, stop, type Plugin } from "esbuild";

const ROOT = resolve(__dirname, "../..");
export const SOURCE_BIN = join(ROOT, "bin/fdq.js");
/** The environment variable naming the runnable `fdq` the tests start (a file for `node FILE ...`). */
export const BIN_VARIABLE = "FDQ_TEST_FDQ_BIN";
const BUILT_BY_SETUP = "FDQ_TEST_FDQ_BIN_BUILT";
const REGISTER = 'require("tsx/cjs/api").register();';
/** Set to a file, the loader writes the code cache of the bundle there when the process exits. */
const WRITE_CACHE = "FDQ_TEST_WRITE_CODE_CACHE";

/**
 * The file the tests run (`node fdq.js ...`): compiles bundle.js as Node's CommonJS loader would (Module.wrap, the
 * bundle's own __filename and __dirname) but with bundle.cache as V8's code cache when there is one.
 */
const LOADER = `"use strict";
const { readFileSync, writeFileSync } = require("node:fs");
const { join } = require("node:path");
const { wrap } = require("node:module");
const { Script } = require("node:vm");
const file = join(__dirname, "bundle.js");
let cachedData;
try {
  cachedData = readFileSync(join(__dirname, "bundle.cache"));
} catch {
  cachedData = undefined;
}
const script = new Script(wrap(readFileSync(file, "utf8")), { filename: file, cachedData });
const cacheFile = process.env.${WRITE_CACHE};
if (cacheFile) process.once("exit", () => writeFileSync(cacheFile, script.createCachedData()));
script.runInThisContext()(module.exports, require, module, file, __dirname);
`;

/** A run that compiles what most test runs compile: the cache then holds the functions they call, not only the top. */
const WARM_UP = ["eval", "--sandbox", '=FDQ.DATAPOINT("AAPL","metrics/roic","ROIC",2023)'];

/** bin/fdq.js without its tsx register call (which must be there: the bundle fails if bin/fdq.js changes shape). */
const withoutTsx: Plugin = {
  name: "bin-without-tsx",
  setup(b) {
    b.onLoad({ filter: /[\\/]bin[\\/]fdq\.js$/ }, (args) => {
      const text = readFileSync(args.path, "utf8");
      if (!text.includes(REGISTER)) throw new Error(`${args.path} no longer has the line ${REGISTER}`);
      // The shebang too: the loader compiles the bundle as a function body, where "#!" is not allowed.
      return { contents: text.replace(REGISTER, "").replace(/^#!.*\n/, ""), loader: "js" };
    });
  },
};

/**
 * Bundles bin/fdq.js into a new folder of ROOT/build (two levels under the root, like src/gateway/index.ts, so the
 * gateway's default dist/ folder, found from __dirname, is the project's) with its loader and code cache, and
 * answers the loader's path.
 */
export async function bundleFdq(): Promise<string> {
  mkdirSync(join(ROOT, "build"), { recursive: true });
  const dir = mkdtempSync(join(ROOT, "build", "fdq-test-"));
  const file = join(dir, "fdq.js");
  try {
    await build({
      entryPoints: [SOURCE_BIN],
      outfile: join(dir, "bundle.js"),
      bundle: true,
      platform: "node",
      format: "cjs",
      target: "node20",
      minify: true,
      keepNames: true,
      logLevel: "error",
      plugins: [withoutTsx],
    });
    writeFileSync(file, LOADER);
    writeCodeCache(dir, file);
  } catch (err) {
    rmSync(dir, { recursive: true, force: true });
    throw err;
  } finally {
    // esbuild's service process would otherwise live as long as jest.
    await stop();
  }
  return file;
}

/**
 * Runs WARM_UP once (its own cache home, no service from the environment), which leaves DIR/bundle.cache whatever
 * its status: a failing fdq is for the tests to report, with or without the cache.
 */
function writeCodeCache(dir: string, file: string): void {
  const home = join(dir, "warm-up-home");
  spawnSync(process.execPath, [file, ...WARM_UP], {
    cwd: ROOT,
    stdio: "ignore",
    env: {
      ...process.env,
      XDG_CACHE_HOME: home,
      FDQ_BASE_URL: "",
      FDQ_API_KEY: "",
      [WRITE_CACHE]: join(dir, "bundle.cache"),
    },
  });
  rmSync(home, { recursive: true, force: true });
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
