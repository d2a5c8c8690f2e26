// The order a full run starts its test files in: jest's own order within each tier (failed first, then the
// slowest), the unit tier first, then the browser files interleaved with the integration files, one browser
// file to two integration files. The unit files keep the second core busy while the browser project's page is
// built (test/support/browser-page.ts); interleaving keeps the long browser files from all starting at the end,
// and keeps at most about two Chromiums (a few hundred MB each) open at once.
const Sequencer = require("@jest/test-sequencer").default;
const path = require("node:path");

const tierOf = (test) => {
  const parts = path.relative(test.context.config.rootDir, test.path).split(path.sep);
  return parts[0] === "test" ? parts[1] : "";
};

class TierSequencer extends Sequencer {
  sort(tests) {
    const sorted = super.sort(tests);
    const unit = sorted.filter((t) => tierOf(t) === "unit");
    const browser = sorted.filter((t) => tierOf(t) === "browser");
    const rest = sorted.filter((t) => tierOf(t) !== "unit" && tierOf(t) !== "browser");
    const mixed = [];
    while (browser.length > 0 || rest.length > 0) {
      if (browser.length > 0) mixed.push(browser.shift());
      mixed.push(...rest.splice(0, 2));
    }
    return [...unit, ...mixed];
  }
}

module.exports = TierSequencer;
