// The order a full run starts its test files in: the unit tier first, then the browser files alternating with the
// integration files, the longest of each first. The unit files keep the second core busy while the browser
// project's page is built (test/support/browser-page.ts); starting the longest files first (by the measured times
// of test/support/test-durations.js, else jest's cache of the last run) keeps a long file from starting near the end
// while the other worker idles; alternating keeps at most about two Chromiums (a few hundred MB each) open at once.
// Within a tier, a file that failed in the last run still comes first, as in jest's own order.
const Sequencer = require("@jest/test-sequencer").default;
const path = require("node:path");
const DURATIONS = require("./test-durations.js");

const relative = (test) => path.relative(test.context.config.rootDir, test.path).split(path.sep).join("/");
const tierOf = (test) => {
  const parts = relative(test).split("/");
  return parts[0] === "test" ? parts[1] : "";
};

class TierSequencer extends Sequencer {
  sort(tests) {
    // jest's order: failed first, then by its cached duration, then by size; the sort below is stable.
    const jestOrder = super.sort(tests);
    const failed = (test) => Boolean(this.hasFailed(test));
    const seconds = (test) => DURATIONS[relative(test)] ?? (this.time(test) ?? 0) / 1000;
    const byLength = (list) =>
      [...list].sort((a, b) => Number(failed(b)) - Number(failed(a)) || seconds(b) - seconds(a));
    const unit = byLength(jestOrder.filter((t) => tierOf(t) === "unit"));
    const browser = byLength(jestOrder.filter((t) => tierOf(t) === "browser"));
    const rest = byLength(jestOrder.filter((t) => tierOf(t) !== "unit" && tierOf(t) !== "browser"));
    const mixed = [];
    while (browser.length > 0 || rest.length > 0) {
      if (browser.length > 0) mixed.push(browser.shift());
      if (rest.length > 0) mixed.push(rest.shift());
    }
    return [...unit, ...mixed];
  }
}

module.exports = TierSequencer;
