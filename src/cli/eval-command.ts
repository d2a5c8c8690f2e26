// `fdq eval`: parse every formula first (any syntax error is a usage error and nothing is evaluated),
// evaluate them all at once, print one result per formula in order.
import { readFile } from "node:fs/promises";
import { FormulaSyntaxError, parseFormula, type FdqCall } from "../functions/formula";
import { evaluateCalls, formatStats, type Evaluation } from "./connection";
import { formatJson, formatPlain } from "./format";
import { UsageError, type ConnectionOptions, type EvalOptions } from "./options";

export interface SourceLine {
  /** "model.txt:3" or "formula 2", for messages. */
  readonly where: string;
  readonly text: string;
}

/** Formula lines of a file: blank lines and lines starting with # are skipped. */
export function fileLines(name: string, content: string): SourceLine[] {
  // Split at \n only: trim() drops the \r of a \r\n line end.
  return content
    .split("\n")
    .map((text, i) => ({ where: `${name}:${i + 1}`, text: text.trim() }))
    .filter((line) => line.text !== "" && !line.text.startsWith("#"));
}

export function parseAll(lines: readonly SourceLine[]): FdqCall[] {
  const problems: string[] = [];
  const calls: FdqCall[] = [];
  for (const line of lines) {
    try {
      calls.push(parseFormula(line.text));
    } catch (err) {
      if (!(err instanceof FormulaSyntaxError)) throw err;
      problems.push(`${line.where}: ${err.message}`);
    }
  }
  if (problems.length > 0) throw new UsageError(problems.join("\n"));
  return calls;
}

async function readSource(file: string): Promise<string> {
  if (file === "-") {
    const chunks: Buffer[] = [];
    for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks).toString("utf8");
  }
  try {
    return await readFile(file, "utf8");
  } catch (err) {
    throw new UsageError(
      `cannot read ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`,
    );
  }
}

/**
 * What `fdq eval -f FILE` does before printing: reads and parses every formula of FILE ("-" = stdin), then
 * evaluates them all at once (throws UsageError, evaluating nothing, when a line does not parse).
 */
export async function evaluateFile(file: string, options: ConnectionOptions): Promise<Evaluation> {
  const lines = fileLines(file, await readSource(file));
  if (lines.length === 0) {
    throw new UsageError(
      `${file === "-" ? "stdin" : file} holds no formula (only blank lines and # comments).`,
    );
  }
  return evaluateCalls(options, parseAll(lines));
}

export async function runEval(options: EvalOptions): Promise<number> {
  const { outcomes, stats } =
    options.file === undefined
      ? await evaluateCalls(
          options,
          parseAll(options.formulas.map((text, i) => ({ where: `formula ${i + 1}`, text }))),
        )
      : await evaluateFile(options.file, options);
  const format = options.json ? formatJson : formatPlain;
  process.stdout.write(outcomes.map((o) => `${format(o)}\n`).join(""));
  if (options.stats) process.stderr.write(`${formatStats(stats)}\n`);
  return 0;
}
