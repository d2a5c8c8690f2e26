// `fdq eval`: parse every formula first, evaluate them all at once, print one result per formula in order. With
// --json or --values-only each result is formatted as soon as it settles and only its text is kept.
// Formulas given as arguments are all refused when one does not parse (a usage error; nothing is evaluated).
// In a formula file, a line that does not parse becomes that line's usage error, printed in its place, and the
// other lines are evaluated; the run still ends with the usage error (exit status 2).
import { readFile } from "node:fs/promises";
import { readFdqCall, type FdqCall } from "../functions/formula";
import type { ValueOptions } from "../functions/value-options";
import { FormulaSyntaxError } from "../formula/syntax-error";
import { evaluateCalls, formatStats, type Evaluation } from "./connection";
import { formatResult, formatResults, formatsAlone, type FormulaResult } from "./format";
import { UsageError, type ConnectionOptions, type EvalOptions } from "./options";

export interface SourceLine {
  /** "model.txt:3" or "formula 2", for messages. */
  readonly where: string;
  readonly text: string;
  /** The line number in a formula file (from 1). */
  readonly line?: number;
}

/** What `fdq eval` evaluated, before printing: each formula's result, or what `each` made of it. */
export interface EvalResults<T = FormulaResult> {
  /** One per formula, in order. */
  readonly results: T[];
  readonly stats: Evaluation["stats"];
  /** "model.txt:3: …" for each formula that was not evaluated; any makes the run a usage error. */
  readonly problems: string[];
}

/** A line of a formula file; its "model.txt:3" is composed only when a message needs it. */
class FileLine implements SourceLine {
  constructor(
    private readonly file: string,
    readonly text: string,
    readonly line: number,
  ) {}

  get where(): string {
    return `${this.file}:${this.line}`;
  }
}

/**
 * Formula lines of a file: blank lines and lines starting with # are skipped. One pass and one object per
 * formula line: a model's file has tens of thousands of lines.
 */
export function fileLines(name: string, content: string): SourceLine[] {
  const lines: SourceLine[] = [];
  let start = 0;
  for (let n = 1; start <= content.length; n++) {
    const newline = content.indexOf("\n", start);
    const end = newline < 0 ? content.length : newline;
    // Split at \n only: trim() drops the \r of a \r\n line end.
    const text = content.slice(start, end).trim();
    if (text !== "" && !text.startsWith("#")) lines.push(new FileLine(name, text, n));
    start = end + 1;
  }
  return lines;
}

export function parseAll(lines: readonly SourceLine[]): FdqCall[] {
  const problems: string[] = [];
  const calls: FdqCall[] = [];
  for (const line of lines) {
    try {
      calls.push(readFdqCall(line.text));
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

type EvalRunOptions = ConnectionOptions & { json?: boolean; values?: ValueOptions };

const asIs = (result: FormulaResult): FormulaResult => result;

/**
 * What `fdq eval -f FILE` does before printing: reads and parses every formula of FILE ("-" = stdin), then
 * evaluates at once every line that parses. A line that does not is not evaluated: its result and `problems`
 * say why. A file without any formula is a UsageError. With `each`, every result is turned into what is kept
 * (the printed text) as soon as its outcome settles.
 */
export function evaluateFile(file: string, options: EvalRunOptions): Promise<EvalResults>;
export function evaluateFile<T>(
  file: string,
  options: EvalRunOptions,
  each: (result: FormulaResult) => T,
): Promise<EvalResults<T>>;
export async function evaluateFile<T>(
  file: string,
  options: EvalRunOptions,
  each: (result: FormulaResult) => T | FormulaResult = asIs,
): Promise<EvalResults<T | FormulaResult>> {
  const lines = fileLines(file, await readSource(file));
  if (lines.length === 0) {
    throw new UsageError(
      `${file === "-" ? "stdin" : file} holds no formula (only blank lines and # comments).`,
    );
  }
  const results = new Array<T | FormulaResult>(lines.length);
  const calls: FdqCall[] = [];
  // The line of each call, by call index; a line that does not parse has its result at once.
  const lineOfCall: number[] = [];
  const problems: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const source = lines[i]!;
    try {
      calls.push(readFdqCall(source.text));
      lineOfCall.push(i);
    } catch (err) {
      if (!(err instanceof FormulaSyntaxError)) throw err;
      problems.push(`${source.where}: ${err.message}`);
      results[i] = each({ formula: source.text, line: source.line, problem: err.message });
    }
  }
  const { stats } = await evaluateCalls(
    options,
    calls,
    { provenance: options.json, values: options.values },
    (outcome, k) => {
      const i = lineOfCall[k]!;
      const { text: formula, line } = lines[i]!;
      results[i] = each({ formula, line, outcome });
    },
  );
  return { results, stats, problems };
}

/** `fdq eval FORMULA...`: all are refused (a UsageError, nothing evaluated) when one does not parse. */
async function evaluateArguments<T>(
  formulas: readonly string[],
  options: EvalRunOptions,
  each: (result: FormulaResult) => T,
): Promise<EvalResults<T>> {
  const calls = parseAll(formulas.map((text, i) => ({ where: `formula ${i + 1}`, text })));
  const { outcomes: results, stats } = await evaluateCalls(
    options,
    calls,
    { provenance: options.json, values: options.values },
    (outcome, i) => each({ formula: formulas[i] ?? "", line: undefined, outcome }),
  );
  return { results, stats, problems: [] };
}

/** Evaluates the file's or the arguments' formulas; `each` as in evaluateFile. */
function evaluateFormulas<T>(
  options: EvalOptions,
  each: (result: FormulaResult) => T,
): Promise<EvalResults<T>> {
  return options.file === undefined
    ? evaluateArguments(options.formulas, options, each)
    : evaluateFile(options.file, options, each);
}

export async function runEval(options: EvalOptions): Promise<number> {
  const { output, stats, problems } = await evaluateAndFormat(options);
  process.stdout.write(output);
  if (options.stats) process.stderr.write(`${formatStats(stats)}\n`);
  if (problems.length > 0) throw new UsageError(problems.join("\n"));
  return 0;
}

/** What `fdq eval` prints on stdout, with the run's stats and its formulas' problems. */
async function evaluateAndFormat(
  options: EvalOptions,
): Promise<Omit<EvalResults, "results"> & { output: string }> {
  if (formatsAlone(options)) {
    const { results, stats, problems } = await evaluateFormulas(options, (r) => formatResult(r, options));
    return { output: results.join(""), stats, problems };
  }
  const { results, stats, problems } = await evaluateFormulas(options, asIs);
  return { output: formatResults(results, options), stats, problems };
}
