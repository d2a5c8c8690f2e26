// The product under measurement: exactly what `fdq eval -f FILE --json --cache-dir DIR` runs between
// reading its arguments and printing (src/cli/eval-command.ts runEval), in-process so that the
// evaluation is timed without Node's start-up. Output is formatted but not printed.
import { readFile } from "node:fs/promises";
import { openConnection } from "../src/cli/connection";
import { fileLines, parseAll } from "../src/cli/eval-command";
import { evaluateAll, isErrorValue, type Outcome } from "../src/cli/evaluate";
import { formatJson } from "../src/cli/format";

export const EVALUATOR_NAME =
  "src/cli in-process (fileLines + parseAll + openConnection + evaluateAll + formatJson + close, as `fdq eval -f FILE --json`)";

export interface ProductRun {
  readonly base: { readonly baseUrl: string; readonly apiKey: string; readonly cacheDir: string };
  readonly formulasFile: string;
}

export interface EvaluationOutcome {
  readonly cells: number;
  readonly errors: number;
  readonly errorSamples: readonly string[];
}

function tally(outcomes: readonly Outcome[]): EvaluationOutcome {
  let cells = 0;
  let errors = 0;
  const errorSamples: string[] = [];
  const count = (value: unknown): void => {
    cells++;
    if (!isErrorValue(value)) return;
    errors++;
    if (errorSamples.length < 3) errorSamples.push(`${value.error} ${value.message}`);
  };
  for (const outcome of outcomes) {
    if (!outcome.ok) count(outcome.error);
    else if (Array.isArray(outcome.value)) for (const row of outcome.value) row.forEach(count);
    else count(outcome.value);
  }
  return { cells, errors, errorSamples };
}

export async function evaluateWithProduct(run: ProductRun): Promise<EvaluationOutcome> {
  const calls = parseAll(fileLines(run.formulasFile, await readFile(run.formulasFile, "utf8")));
  const connection = await openConnection({
    ...run.base,
    noCache: false,
    sandbox: false,
    stats: false,
  });
  try {
    const outcomes = await evaluateAll(connection.client, calls);
    // What the CLI would print; built so that its cost is measured, then dropped.
    outcomes.map((o) => `${formatJson(o)}\n`).join("");
    return tally(outcomes);
  } finally {
    await connection.close();
  }
}
