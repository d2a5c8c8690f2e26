// Prints the closing line CI reads ("tests: N passed, N failed"), which jest's own summary does not match.
//
// A test file that fails to run (a syntax or import error, a throw at its top level, an error in a top-level hook)
// has no failed test of its own: it counts as one failure. The line is printed when the process exits, after jest's
// summary: by then jest has settled `success` (at onRunComplete it is still false), which also covers what fails
// outside the tests (obsolete snapshots, a reporter's error such as a coverage threshold). A run that fails with no
// failure counted shows "1 failed" and why, so a non-zero exit never comes with "0 failed". In watch mode, where
// the process outlives the runs, each run's line is printed at its end.

/** The parenthesised reasons a run failed besides its failed tests. */
function runProblems(results, exitCode) {
  const problems = [];
  const crashed = results.numRuntimeErrorTestSuites || 0;
  if (crashed > 0) problems.push(`${crashed} test file${crashed === 1 ? "" : "s"} failed to run`);
  if (results.runExecError) problems.push(`jest failed: ${results.runExecError.message}`);
  if (results.wasInterrupted) problems.push("the run was interrupted");
  if (results.snapshot && results.snapshot.failure) problems.push("snapshots failed");
  const counted = (results.numFailedTests || 0) + crashed;
  if (problems.length === 0 && counted === 0) {
    if (exitCode) problems.push(`jest exited with status ${exitCode}`);
    else if (results.success === false) problems.push("jest reported the run as failed");
  }
  return problems;
}

/**
 * The closing line for jest's aggregated results. `settled`: jest has set `results.success` (false while the
 * reporters' onRunComplete run); `exitCode`: the process's exit status when known.
 */
function summaryLine(results, { settled = true, exitCode = 0 } = {}) {
  const problems = runProblems(settled ? results : { ...results, success: undefined }, exitCode);
  const counted = (results.numFailedTests || 0) + (results.numRuntimeErrorTestSuites || 0);
  const failed = counted === 0 && problems.length > 0 ? 1 : counted;
  const skipped = (results.numPendingTests || 0) + (results.numTodoTests || 0);
  const tail = skipped > 0 ? `, ${skipped} skipped` : "";
  const why = problems.length > 0 ? ` (${problems.join("; ")})` : "";
  return `tests: ${results.numPassedTests || 0} passed, ${failed} failed${tail}${why}\n`;
}

class PlainSummaryReporter {
  /** `io` is for the reporter's own tests: the process whose exit prints the line. */
  constructor(globalConfig = {}, _options = {}, _context = {}, io = { process }) {
    this.watching = Boolean(globalConfig.watch || globalConfig.watchAll);
    this.process = io.process;
    this.results = undefined;
  }

  onRunComplete(_contexts, results) {
    if (this.watching) {
      this.process.stdout.write(summaryLine(results, { settled: false }));
      return;
    }
    if (this.results === undefined) {
      this.process.once("exit", (code) => {
        const exitCode = code || Number(this.process.exitCode) || 0;
        this.process.stdout.write(summaryLine(this.results, { exitCode }));
      });
    }
    this.results = results;
  }
}

module.exports = PlainSummaryReporter;
module.exports.summaryLine = summaryLine;
