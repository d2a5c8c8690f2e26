// `fdq eval`: parse every formula first, evaluate them all at once, print one result per formula in order.
// Formulas given as arguments are all refused when one does not parse (a usage error; nothing is evaluated).
// In a formula file, a line that does not parse becomes that line's usage error, printed in its place, and the
// other lines are evaluated; the run still ends with the usage error (exit status 2).
import { readFile } from "node:fs/promises";
import { FormulaSyntaxError, parseFormula, type FdqCall } from "../functions/formula";
import { evaluateCalls, formatStats, type Evaluation } from "./connection";
import type { Outcome } from "./evaluate";
import { formatResults, type FormulaResult } from "./format";
import { UsageError, type ConnectionOptions, type EvalOptions } from "./options";

export interface SourceLine {
  /** "model.txt:3" or "formula 2", for messages. */
  readonly where: string;
  readonly text: string;
  /** The line number in a formula file (from 1). */
  readonly line?: number;
}

/** What `fdq eval` evaluated, before printing. */
export interface EvalResults {
  /** One per formula, in order. */
  readonly results: FormulaResult[];
  readonly stats: Evaluation["stats"];
  /** "model.txt:3: …" for each formula that was not evaluated; any makes the run a usage error. */
  readonly problems: string[];
}

/** Formula lines of a file: blank lines and lines starting with # are skipped. */
export function fileLines(name: string, content: string): SourceLine[] {
  // Split at \n only: trim() drops the \r of a \r\n line end.
  return content
    .split("\n")
    .map((text, i) => ({ where: `${name}:${i + 1}`, text: text.trim(), line: i + 1 }))
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

/** What the system's codes mean to someone who named a formula file. */
const READ_ERRORS: Readonly<Record<string, string>> = {
  ENOENT: "there is no such file",
  EACCES: "permission denied",
  EISDIR: "it is a folder, not a file",
};

async function readSource(file: string): Promise<string> {
  if (file === "-") {
    const chunks: Buffer[] = [];
    for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks).toString("utf8");
  }
  try {
    return await readFile(file, "utf8");
  } catch (err) {
    // An input named on the command line that cannot be read is a usage error (exit-codes.ts), as in refresh.
    const code = (err as NodeJS.ErrnoException).code;
    const why = code === undefined ? (err as Error).message : (READ_ERRORS[code] ?? code);
    throw new UsageError(`cannot read ${file}: ${why}.`);
  }
}

type Parsed = { readonly source: SourceLine } & ({ readonly call: FdqCall } | { readonly problem: string });

function parseLine(source: SourceLine): Parsed {
  try {
    return { source, call: parseFormula(source.text) };
  } catch (err) {
    if (!(err instanceof FormulaSyntaxError)) throw err;
    return { source, problem: err.message };
  }
}

/**
 * What `fdq eval -f FILE` does before printing: reads and parses every formula of FILE ("-" = stdin), then
 * evaluates at once every line that parses. A line that does not is not evaluated: its result and `problems`
 * say why. A file without any formula is a UsageError.
 */
export async function evaluateFile(
  file: string,
  options: ConnectionOptions & { json?: boolean },
): Promise<EvalResults> {
  const lines = fileLines(file, await readSource(file));
  if (lines.length === 0) {
    throw new UsageError(
      `${file === "-" ? "stdin" : file} holds no formula (only blank lines and # comments).`,
    );
  }
  const parsed = lines.map(parseLine);
  const calls = parsed.flatMap((p) => ("call" in p ? [p.call] : []));
  const { outcomes, stats } = await evaluateCalls(options, calls, { provenance: options.json });
  let next = 0;
  const results = parsed.map((p): FormulaResult => {
    const { text: formula, line } = p.source;
    if ("problem" in p) return { formula, line, problem: p.problem };
    // evaluateCalls gives one outcome per call, in order.
    return { formula, line, outcome: outcomes[next++] as Outcome };
  });
  const problems = parsed.flatMap((p) => ("problem" in p ? [`${p.source.where}: ${p.problem}`] : []));
  return { results, stats, problems };
}

/** `fdq eval FORMULA...`: all are refused (a UsageError, nothing evaluated) when one does not parse. */
async function evaluateArguments(
  formulas: readonly string[],
  options: ConnectionOptions & { json?: boolean },
): Promise<EvalResults> {
  const calls = parseAll(formulas.map((text, i) => ({ where: `formula ${i + 1}`, text })));
  const { outcomes, stats } = await evaluateCalls(options, calls, { provenance: options.json });
  const results = outcomes.map((outcome, i): FormulaResult => ({
    formula: formulas[i] ?? "",
    line: undefined,
    outcome,
  }));
  return { results, stats, problems: [] };
}

export async function runEval(options: EvalOptions): Promise<number> {
  const { results, stats, problems } =
    options.file === undefined
      ? await evaluateArguments(options.formulas, options)
      : await evaluateFile(options.file, options);
  process.stdout.write(formatResults(results, options));
  if (options.stats) process.stderr.write(`${formatStats(stats)}\n`);
  if (problems.length > 0) throw new UsageError(problems.join("\n"));
  return 0;
}
