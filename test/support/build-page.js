// Builds the page the browser tests load (the project's webpack config, development mode: same code, a third of
// the build time) into a folder. `node test/support/build-page.js OUT` is how test/support/browser-page.ts builds
// it once per run, beside the first tests: it writes OUT/.built when done, or OUT/.failed with webpack's errors.
const fs = require("node:fs");
const path = require("node:path");
const webpack = require("webpack");

const ROOT = path.resolve(__dirname, "../..");
const BUILT = ".built";
const FAILED = ".failed";

/** Builds the page into `out` (an existing folder). */
async function buildPage(out) {
  const config = await require(path.join(ROOT, "webpack.config.js"))({}, { mode: "development" });
  config.output = { ...config.output, path: out };
  config.devtool = false;
  config.infrastructureLogging = { level: "error" };
  await new Promise((done, fail) => {
    webpack(config, (err, stats) => {
      if (err) return fail(err);
      if (stats && stats.hasErrors()) return fail(new Error(stats.toString({ all: false, errors: true })));
      done();
    });
  });
}

module.exports = { buildPage, BUILT, FAILED };

if (require.main === module) {
  const out = process.argv[2];
  buildPage(out).then(
    () => fs.writeFileSync(path.join(out, BUILT), ""),
    (err) => fs.writeFileSync(path.join(out, FAILED), String((err && err.stack) || err)),
  );
}
