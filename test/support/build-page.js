// Builds the page the browser tests load into a folder: `npm run build`'s production build (the project's webpack
// config in production mode, for the URL PAGE_URL), so that one build per run serves both the browser tests and
// the production build's own test (test/integration/manifest/build.test.ts reads the same folder). `node
// test/support/build-page.js OUT` is how test/support/browser-page.ts builds it once per run, beside the first
// tests: it writes OUT/.built when done, or OUT/.failed with webpack's errors.
const fs = require("node:fs");
const path = require("node:path");
const webpack = require("webpack");

const ROOT = path.resolve(__dirname, "../..");
const BUILT = ".built";
const FAILED = ".failed";
/** The add-in's URL the build is made for (FDQ_ADDIN_URL): the manifest's URLs move to it; the page does not use it. */
const PAGE_URL = "https://fdq.example.com/addin/";

/** Builds the page into `out` (an existing folder). */
async function buildPage(out) {
  const before = process.env.FDQ_ADDIN_URL;
  process.env.FDQ_ADDIN_URL = PAGE_URL; // read by the config as it is made
  let config;
  try {
    // As `webpack --mode production` (npm run build) makes it: the CLI passes the mode to the config and sets it.
    config = await require(path.join(ROOT, "webpack.config.js"))({}, { mode: "production" });
  } finally {
    if (before === undefined) delete process.env.FDQ_ADDIN_URL;
    else process.env.FDQ_ADDIN_URL = before;
  }
  config.mode = "production";
  config.output = { ...config.output, path: out };
  config.infrastructureLogging = { level: "error" };
  await new Promise((done, fail) => {
    webpack(config, (err, stats) => {
      if (err) return fail(err);
      if (stats && stats.hasErrors()) return fail(new Error(stats.toString({ all: false, errors: true })));
      done();
    });
  });
}

module.exports = { buildPage, BUILT, FAILED, PAGE_URL };

if (require.main === module) {
  const out = process.argv[2];
  buildPage(out).then(
    () => fs.writeFileSync(path.join(out, BUILT), ""),
    (err) => fs.writeFileSync(path.join(out, FAILED), String((err && err.stack) || err)),
  );
}
