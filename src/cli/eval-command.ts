// `fdq eval`: parse every formula first, evaluate them all at once, print one result per formula in order.
// Formulas given as arguments are all refused when one does not parse (a usage error; nothing is evaluated).
// In a formula file, a line that does not parse becomes that line's usage error, printed in its place, and the
// other lines are evaluated; the run still ends with the usage error (exit status 2).
import { readFile } from "node:fs/promises";
import { readFdqCall, type FdqCall } from "../functions/formula";
import type { ValueOptions } from "../functions/value-options";
import { FormulaSyntaxError } from "../formula/syntax-error";
import { evaluateCalls, formatStats, type Evaluation } from "./connection";
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

/**
 * What `fdq eval -f FILE` does before printing: reads and parses every formula of FILE ("-" = stdin), then
 * evaluates at once every line that parses. A line that does not is not evaluated: its result and `problems`
 * say why. A file without any formula is a UsageError.
 */
export async function evaluateFile(
  file: string,
  options: ConnectionOptions & { json?: boolean; values?: ValueOptions },
): Promise<EvalResults> {
  const lines = fileLines(file, await readSource(file));
  if (lines.length === 0) {
    throw new UsageError(
      `${file === "-" ? "stdin" : file} holds no formula (only blank lines and # comments).`,
    );
  }
  // Per line, its call or why it has none (a FormulaSyntaxError's message): no wrapper object per line.
  const parsed = new Array<FdqCall | string>(lines.length);
  const calls: FdqCall[] = [];
  const problems: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const source = lines[i]!;
    try {
      calls.push((parsed[i] = readFdqCall(source.text)));
    } catch (err) {
      if (!(err instanceof FormulaSyntaxError)) throw err;
      parsed[i] = err.message;
      problems.push(`${source.where}: ${err.message}`);
    }
  }
  const { outcomes, stats } = await evaluateCalls(options, calls, {
    provenance: options.json,
    values: options.values,
  });
  let next = 0;
  const results = new Array<FormulaResult>(lines.length);
  for (let i = 0; i < lines.length; i++) {
    const { text: formula, line } = lines[i]!;
    const p = parsed[i]!;
    // evaluateCalls gives one outcome per call, in order.
    results[i] =
      typeof p === "string" ? { formula, line, problem: p } : { formula, line, outcome: outcomes[next++]! };
  }
  return { results, stats, problems };
}

/** `fdq eval FORMULA...`: all are refused (a UsageError, nothing evaluated) when one does not parse. */
async function evaluateArguments(
  formulas: readonly string[],
  options: ConnectionOptions & { json?: boolean; values?: ValueOptions },
): Promise<EvalResults> {
  const calls = parseAll(formulas.map((text, i) => ({ where: `formula ${i + 1}`, text })));
  const { outcomes, stats } = await evaluateCalls(options, calls, {
    provenance: options.json,
    values: options.values,
  });
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
