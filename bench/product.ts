// The product under measurement: exactly what `fdq eval -f FILE --json --cache-dir DIR` runs between
// reading its arguments and printing (src/cli evaluateFile, each result formatted by formatResult as it
// settles, then joined), in-process so that the evaluation is timed without Node's start-up. Output is
// formatted but not printed.
import type { BillingModel } from "../src/api";
import { evaluateFile } from "../src/cli/eval-command";
import { isErrorValue } from "../src/functions/evaluate";
import { formatResult, type FormulaResult } from "../src/cli/format";

export const EVALUATOR_NAME =
  "src/cli in-process (evaluateFile + formatResult, as `fdq eval -f FILE --json --concurrency N --billing B`)";

export interface ProductRun {
  readonly base: {
    readonly baseUrl: string;
    readonly apiKey: string;
    readonly cacheDir: string;
    /** `--concurrency`: the sandbox's cap, which is also the request module's default. */
    readonly concurrency: number;
    /** `--billing`: how the account is billed, which decides how cells are grouped into requests. */
    readonly billing: BillingModel;
  };
  readonly formulasFile: string;
}

export interface EvaluationOutcome {
  readonly cells: number;
  readonly errors: number;
  readonly errorSamples: readonly string[];
}

/** Counts each result's cells and errors as it is formatted. */
class Tally {
  cells = 0;
  errors = 0;
  readonly errorSamples: string[] = [];

  private count(value: unknown): void {
    this.cells++;
    if (!isErrorValue(value)) return;
    this.errors++;
    if (this.errorSamples.length < 3) this.errorSamples.push(`${value.error} ${value.message}`);
  }

  add(result: FormulaResult): void {
    if ("problem" in result) {
      this.count({ error: "usage error", message: `at line ${result.line}: ${result.problem}` });
      return;
    }
    const { outcome } = result;
    if (!outcome.ok) this.count(outcome.error);
    else if (Array.isArray(outcome.value))
      for (const row of outcome.value) for (const v of row) this.count(v);
    else this.count(outcome.value);
  }
}

const JSON_OUTPUT = { json: true, valuesOnly: false } as const;

export async function evaluateWithProduct(run: ProductRun): Promise<EvaluationOutcome> {
  const tally = new Tally();
  // `json: true` as `fdq eval --json` passes it: every value's outcome then says where its answers came from.
  const { results } = await evaluateFile(
    run.formulasFile,
    { ...run.base, noCache: false, sandbox: false, stats: false, json: true },
    (result) => {
      tally.add(result);
      return formatResult(result, JSON_OUTPUT);
    },
  );
  // What the CLI would print; built so that its cost is measured, then dropped.
  results.join("");
  return { cells: tally.cells, errors: tally.errors, errorSamples: tally.errorSamples };
}
