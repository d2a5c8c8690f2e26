// The order a full run starts its test files in: the unit tier first, then the browser files alternating with the
// integration files, the longest of each first. The unit files keep the second core busy while the browser
// project's page is built (test/support/browser-page.ts); starting the longest files first (by the measured times
// of test/support/test-durations.js, else jest's cache of the last run) keeps a long file from starting near the end
// while the other worker idles; alternating keeps at most about two Chromiums (a few hundred MB each) open at once.
// The production build's test starts late (test-durations.js: LATE): it reads the run's page build, done by then.
// Within a tier, a file that failed in the last run still comes first, as in jest's own order.
const Sequencer = require("@jest/test-sequencer").default;
const path = require("node:path");
const { DURATIONS, LATE, LATE_TAIL_SECONDS } = require("./test-durations.js");

/** What a file missing from DURATIONS and from jest's cache is counted as, in placing the LATE ones. */
const SHORT_SECONDS = 3;

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
    const late = rest.filter((t) => LATE.includes(relative(t)));
    const early = rest.filter((t) => !LATE.includes(relative(t)));
    const mixed = [];
    while (browser.length > 0 || early.length > 0) {
      if (browser.length > 0) mixed.push(browser.shift());
      if (early.length > 0) mixed.push(early.shift());
    }
    // The late files go where about LATE_TAIL_SECONDS of work still follows them.
    let at = mixed.length;
    for (let tail = 0; at > 0 && tail < LATE_TAIL_SECONDS; at--)
      tail += seconds(mixed[at - 1]) || SHORT_SECONDS;
    mixed.splice(at, 0, ...late);
    return [...unit, ...mixed];
  }
}

module.exports = TierSequencer;
