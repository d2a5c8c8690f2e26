// Types of plain-summary-reporter.js, for its tests.
import type { AggregatedResult } from "@jest/test-result";

/** What the reporter uses of the process: where it writes and the exit it waits for. */
export interface ReporterProcess {
  stdout: { write(text: string): unknown };
  once(event: "exit", listener: (code: number) => void): unknown;
  exitCode?: number | string | null | undefined;
}

declare class PlainSummaryReporter {
  constructor(
    globalConfig?: { watch?: boolean; watchAll?: boolean },
    options?: unknown,
    context?: unknown,
    io?: { process: ReporterProcess },
  );
  onRunComplete(contexts: unknown, results: AggregatedResult): void;
  /** The closing line, newline included. */
  static summaryLine(results: AggregatedResult, how?: { settled?: boolean; exitCode?: number }): string;
}

export = PlainSummaryReporter;
