// Prints the closing line CI reads ("tests: N passed, N failed"), which jest's own summary does not match.
class PlainSummaryReporter {
  onRunComplete(_contexts, results) {
    const skipped = results.numPendingTests + results.numTodoTests;
    const tail = skipped > 0 ? `, ${skipped} skipped` : "";
    process.stdout.write(
      `tests: ${results.numPassedTests} passed, ${results.numFailedTests} failed${tail}\n`,
    );
  }
}
module.exports = PlainSummaryReporter;
