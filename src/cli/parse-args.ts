// Node's util.parseArgs (strict) for every fdq command, with its errors turned into usage errors that say what to do:
// Node's own messages quote unevenly and suggest `--` for a positional, which no fdq command wants.
import { parseArgs, type ParseArgsConfig } from "node:util";

/** A mistake in how fdq was called: printed with the usage, exit status 2. */
export class UsageError extends Error {
  override name = "UsageError";
}

/** "--port" and "-f/--file" from Node's "Option '--port <value>' ..." and "Option '-f, --file <value>' ...". */
function optionOf(message: string): string {
  const quoted = /'([^']*)'/.exec(message)?.[1] ?? "";
  return quoted.replace(/ <value>$/, "").replace(", ", "/");
}

/** The option names of `options`, as a user types them: --json, -f/--file. */
function optionNames(options: NonNullable<ParseArgsConfig["options"]>): string[] {
  return Object.entries(options).map(([name, o]) => (o.short ? `-${o.short}/--${name}` : `--${name}`));
}

/** Edits (insert, delete, replace, swap two neighbours) from `a` to `b`: optimal string alignment distance. */
function edits(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  const at = (i: number, j: number): number => d[i]?.[j] ?? Infinity;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(at(i - 1, j) + 1, at(i, j - 1) + 1, at(i - 1, j - 1) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        best = Math.min(best, at(i - 2, j - 2) + 1);
      (d[i] as number[])[j] = best;
    }
  }
  return at(a.length, b.length);
}

/** The options a mistyped `--flag` was probably meant to be (a prefix of one, or one or two edits away). */
function closeTo(flag: string, names: readonly string[]): string[] {
  const typed = flag.replace(/^-+/, "").split("=")[0] ?? "";
  if (typed.length < 3) return [];
  return names
    .map((n) => n.replace(/^-\w\//, "").replace(/^--/, ""))
    .filter((n) => n.startsWith(typed) || typed.startsWith(n) || edits(typed, n) <= (n.length > 6 ? 2 : 1))
    .map((n) => `--${n}`);
}

/**
 * Node's parseArgs, strict, its errors turned into usage errors that say what to do (Node's own messages quote
 * unevenly and suggest `--` for a positional, which no fdq command wants).
 */
export function parse<T extends NonNullable<ParseArgsConfig["options"]>>(
  command: string,
  args: string[],
  options: T,
) {
  try {
    return parseArgs({ args, options, allowPositionals: true, strict: true as const });
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    const names = optionNames(options);
    if (e.code === "ERR_PARSE_ARGS_UNKNOWN_OPTION") {
      const flag = optionOf(e.message);
      const close = closeTo(flag, names);
      const hint = close.length > 0 ? ` Did you mean ${close.join(" or ")}?` : "";
      throw new UsageError(`fdq ${command} has no option ${flag}.${hint} Its options: ${names.join(", ")}.`);
    }
    if (e.code === "ERR_PARSE_ARGS_INVALID_OPTION_VALUE") {
      const flag = optionOf(e.message);
      if (/ambiguous/.test(e.message)) {
        const long = flag.split("/").pop() ?? flag;
        throw new UsageError(
          `the value after ${flag} starts with "-", which is ambiguous: write ${long}=VALUE for such a value.`,
        );
      }
      if (/does not take an argument/.test(e.message)) {
        throw new UsageError(`${flag} takes no value (give ${flag} alone).`);
      }
      throw new UsageError(`${flag} needs a value (${flag} VALUE).`);
    }
    throw new UsageError(e.message);
  }
}
