// The product under measurement: exactly what `fdq eval -f FILE --json --cache-dir DIR` runs between
// reading its arguments and printing (src/cli evaluateFile, then formatResults), in-process so that the
// evaluation is timed without Node's start-up. Output is formatted but not printed.
import type { BillingModel } from "../src/api";
import { evaluateFile } from "../src/cli/eval-command";
import { isErrorValue } from "../src/functions/evaluate";
import { formatResults, type FormulaResult } from "../src/cli/format";

export const EVALUATOR_NAME =
  "src/cli in-process (evaluateFile + formatResults, as `fdq eval -f FILE --json --concurrency N --billing B`)";

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

function tally(results: readonly FormulaResult[]): EvaluationOutcome {
  let cells = 0;
  let errors = 0;
  const errorSamples: string[] = [];
  const count = (value: unknown): void => {
    cells++;
    if (!isErrorValue(value)) return;
    errors++;
    if (errorSamples.length < 3) errorSamples.push(`${value.error} ${value.message}`);
  };
  for (const result of results) {
    if ("problem" in result) {
      count({ error: "usage error", message: `at line ${result.line}: ${result.problem}` });
      continue;
    }
    const { outcome } = result;
    if (!outcome.ok) count(outcome.error);
    else if (Array.isArray(outcome.value)) for (const row of outcome.value) row.forEach(count);
    else count(outcome.value);
  }
  return { cells, errors, errorSamples };
}

export async function evaluateWithProduct(run: ProductRun): Promise<EvaluationOutcome> {
  // `json: true` as `fdq eval --json` passes it: every value's outcome then says where its answers came from.
  const { results } = await evaluateFile(run.formulasFile, {
    ...run.base,
    noCache: false,
    sandbox: false,
    stats: false,
    json: true,
  });
  // What the CLI would print; built so that its cost is measured, then dropped.
  formatResults(results, { json: true, valuesOnly: false });
  return tally(results);
}
