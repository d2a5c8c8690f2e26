// The page the browser tests load: built ONCE per jest run (the browser project's globalSetup) with the project's
// webpack config, in development mode (same code, a third of the build time), into a temporary folder whose path
// reaches every test file through FDQ_TEST_PAGE_DIR. A build costs 20-60 s of CPU; building it per test file
// cost the suite minutes. The tests only read the folder; the globalTeardown removes it.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import webpack from "webpack";

const ROOT = resolve(__dirname, "../..");

/** The environment variable naming the built page's folder. */
export const PAGE_DIR_VARIABLE = "FDQ_TEST_PAGE_DIR";

/** Builds the page into a new temporary folder and answers its path. */
export async function buildPage(): Promise<string> {
  const out = mkdtempSync(join(tmpdir(), "fdq-pane-"));
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the config is a CommonJS module.
  const makeConfig = require(join(ROOT, "webpack.config.js")) as (
    env: Record<string, unknown>,
    argv: { mode: string },
  ) => Promise<webpack.Configuration>;
  const config = await makeConfig({}, { mode: "development" });
  config.output = { ...config.output, path: out };
  config.devtool = false;
  config.infrastructureLogging = { level: "error" };
  try {
    await new Promise<void>((done, fail) => {
      webpack(config, (err, stats) => {
        if (err) return fail(err);
        if (stats?.hasErrors()) return fail(new Error(stats.toString({ all: false, errors: true })));
        done();
      });
    });
  } catch (err) {
    rmSync(out, { recursive: true, force: true });
    throw err;
  }
  return out;
}

/** jest globalSetup: builds the page for the whole run, unless a folder is already given. */
export default async function setup(): Promise<void> {
  if (process.env[PAGE_DIR_VARIABLE]) return;
  process.env[PAGE_DIR_VARIABLE] = await buildPage();
  process.env.FDQ_TEST_PAGE_BUILT_BY_SETUP = "1";
}

/** jest globalTeardown: removes the folder the setup built. */
export function teardown(): void {
  const dir = process.env[PAGE_DIR_VARIABLE];
  if (dir && process.env.FDQ_TEST_PAGE_BUILT_BY_SETUP === "1") {
    rmSync(dir, { recursive: true, force: true });
    delete process.env[PAGE_DIR_VARIABLE];
    delete process.env.FDQ_TEST_PAGE_BUILT_BY_SETUP;
  }
}
