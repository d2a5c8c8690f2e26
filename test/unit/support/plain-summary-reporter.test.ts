// The closing line CI reads, from aggregated results built the way jest builds them (@jest/test-result's own
// makeEmptyAggregatedTestResult, addResult and buildFailureTestResult).
import { EventEmitter } from "node:events";
import {
  addResult,
  buildFailureTestResult,
  createEmptyTestResult,
  makeEmptyAggregatedTestResult,
  type AggregatedResult,
  type TestResult,
} from "@jest/test-result";
import PlainSummaryReporter from "../../support/plain-summary-reporter";

/** A test file that ran: its tests passed, failed or were skipped. */
function ran(file: string, passed: number, failed = 0, skipped = 0): TestResult {
  return {
    ...createEmptyTestResult(),
    testFilePath: file,
    numPassingTests: passed,
    numFailingTests: failed,
    numPendingTests: skipped,
    failureMessage: failed > 0 ? "● a test failed" : null,
  };
}

/** A test file that failed to load: jest's own result for it, as its runner reports the error. */
const failedToLoad = (file: string): TestResult =>
  buildFailureTestResult(file, {
    message: "SyntaxError: Unexpected token (3:1)",
    stack: "SyntaxError: Unexpected token (3:1)\n    at Runtime.loadEsmModule",
  });

/** Aggregates results as jest's scheduler does: `success` stays false until every reporter has run. */
function aggregate(...files: TestResult[]): AggregatedResult {
  const results = makeEmptyAggregatedTestResult();
  results.success = false;
  results.numTotalTestSuites = files.length;
  for (const file of files) addResult(results, file);
  return results;
}

/** jest's verdict, set after the reporters' onRunComplete (TestScheduler). */
function settle(results: AggregatedResult, reporterErrors = false): void {
  results.success = !(
    results.numFailedTests > 0 ||
    results.numRuntimeErrorTestSuites > 0 ||
    results.snapshot.failure ||
    reporterErrors
  );
}

/** A process double: the line is written when it exits. */
class FakeProcess extends EventEmitter {
  out = "";
  exitCode: number | undefined = undefined;
  stdout = { write: (text: string) => (this.out += text) };
}

/** Runs the reporter over one jest run; returns what it printed before and at exit. */
function report(
  results: AggregatedResult,
  { reporterErrors = false, exitCode = 0 }: { reporterErrors?: boolean; exitCode?: number } = {},
) {
  const proc = new FakeProcess();
  const reporter = new PlainSummaryReporter({}, {}, {}, { process: proc });
  reporter.onRunComplete(new Set(), results);
  const beforeExit = proc.out;
  settle(results, reporterErrors);
  proc.emit("exit", exitCode);
  return { beforeExit, line: proc.out };
}

describe("plain summary reporter", () => {
  it("prints passed, failed and skipped tests when the process exits, after jest has settled the run", () => {
    const { beforeExit, line } = report(aggregate(ran("a.test.ts", 3, 0, 1), ran("b.test.ts", 2)));
    expect(beforeExit).toBe("");
    expect(line).toBe("tests: 5 passed, 0 failed, 1 skipped\n");
  });

  it("counts failed tests", () => {
    expect(report(aggregate(ran("a.test.ts", 3, 2))).line).toBe("tests: 3 passed, 2 failed\n");
  });

  it("counts a test file that failed to load as a failure, and says so", () => {
    const results = aggregate(ran("a.test.ts", 4), failedToLoad("broken.test.ts"));
    expect([results.numFailedTests, results.numRuntimeErrorTestSuites, results.numFailedTestSuites]).toEqual([
      0, 1, 1,
    ]);
    expect(report(results).line).toBe("tests: 4 passed, 1 failed (1 test file failed to run)\n");
  });

  it("adds files that failed to run to the failed tests of the others", () => {
    const results = aggregate(ran("a.test.ts", 4, 1), failedToLoad("x.test.ts"), failedToLoad("y.test.ts"));
    expect(report(results).line).toBe("tests: 4 passed, 3 failed (2 test files failed to run)\n");
  });

  it("never prints 0 failed for a run jest failed without a failed test", () => {
    expect(report(aggregate(ran("a.test.ts", 4)), { reporterErrors: true }).line).toBe(
      "tests: 4 passed, 1 failed (jest reported the run as failed)\n",
    );
    expect(report(aggregate(ran("a.test.ts", 4)), { exitCode: 1 }).line).toBe(
      "tests: 4 passed, 1 failed (jest exited with status 1)\n",
    );
    const obsolete = aggregate(ran("a.test.ts", 4));
    obsolete.snapshot.failure = true;
    expect(report(obsolete).line).toBe("tests: 4 passed, 1 failed (snapshots failed)\n");
    const interrupted = aggregate(ran("a.test.ts", 1));
    interrupted.wasInterrupted = true;
    expect(report(interrupted).line).toBe("tests: 1 passed, 1 failed (the run was interrupted)\n");
    const crashed = aggregate();
    crashed.runExecError = { message: "worker crashed", stack: "" };
    expect(report(crashed).line).toBe("tests: 0 passed, 1 failed (jest failed: worker crashed)\n");
  });

  it("prints each run's line at its end in watch mode, reading only what jest has settled", () => {
    const proc = new FakeProcess();
    const reporter = new PlainSummaryReporter({ watch: true }, {}, {}, { process: proc });
    reporter.onRunComplete(new Set(), aggregate(ran("a.test.ts", 2)));
    reporter.onRunComplete(new Set(), aggregate(ran("a.test.ts", 1), failedToLoad("b.test.ts")));
    expect(proc.out).toBe(
      "tests: 2 passed, 0 failed\ntests: 1 passed, 1 failed (1 test file failed to run)\n",
    );
  });

  it("is the same line as summaryLine gives for settled results", () => {
    const results = aggregate(ran("a.test.ts", 2, 1, 3));
    settle(results);
    expect(PlainSummaryReporter.summaryLine(results)).toBe("tests: 2 passed, 1 failed, 3 skipped\n");
  });
});
