// The exit statuses of `fdq`: one table that every command returns from, that `fdq --help` prints and that
// docs/command-line.md shows (test/unit/cli/command-line-docs.test.ts checks the docs against it).

export interface ExitCode {
  readonly code: number;
  /** A short name, for code and for the docs' table. */
  readonly name: string;
  /** What the status means, in one sentence. */
  readonly meaning: string;
}

export const EXIT = {
  ok: {
    code: 0,
    name: "ok",
    meaning:
      "done: formulas were evaluated (even to Excel errors such as #N/A), the search or report printed, `fdq serve` stopped by SIGTERM or Ctrl+C",
  },
  failure: {
    code: 1,
    name: "failure",
    meaning:
      "the command was right but could not be done: an output file that cannot be written, a port in use, an unexpected error",
  },
  usage: {
    code: 2,
    name: "usage",
    meaning:
      "a usage error: an unknown command or option, a missing or bad value, an input file that cannot be read (missing, unreadable, not an .xlsx) or holds no formula, a formula fdq cannot evaluate; nothing was done (in a -f file, the other lines were evaluated)",
  },
  budget: {
    code: 3,
    name: "budget",
    meaning: "the run would spend more quota units than its --budget: nothing was sent",
  },
  skipped: {
    code: 4,
    name: "skipped",
    meaning:
      "fdq refresh skipped formulas it could not evaluate: their old values were kept, the file was written",
  },
} as const satisfies Record<string, ExitCode>;

export const EXIT_CODES: readonly ExitCode[] = Object.values(EXIT);

/** The table as `fdq --help` prints it: the status, then its meaning wrapped at `width` columns. */
export function exitCodeHelp(width = 110): string {
  const indent = "  ";
  const lines = ["Exit status:"];
  for (const e of EXIT_CODES) {
    const head = `${indent}${e.code}  `;
    const words = e.meaning.replaceAll("`", "").split(" ");
    let line = head;
    for (const word of words) {
      if (line.length + word.length + 1 > width && line.trim() !== String(e.code)) {
        lines.push(line.trimEnd());
        line = " ".repeat(head.length);
      }
      line += `${word} `;
    }
    lines.push(line.trimEnd());
  }
  return `${lines.join("\n")}\n`;
}

/** The table as docs/command-line.md shows it (Markdown). */
export function exitCodeMarkdown(): string {
  const rows = EXIT_CODES.map((e) => `| ${e.code} | ${e.name} | ${e.meaning} |`);
  return ["| Status | Name | Meaning |", "|---|---|---|", ...rows].join("\n") + "\n";
}

/** The command was right but could not be done (a port in use...): "fdq: MESSAGE" and the failure status. */
export class CommandFailed extends Error {
  override name = "CommandFailed";
}
