// Where a command that rewrites a workbook (refresh, freeze, thaw, repair) writes: the one rule, so that no command
// can write over its input without --in-place.
import { realpath } from "node:fs/promises";
import { sameFile } from "../workbook/xlsx/node-files";
import { UsageError } from "./parse-args";

export interface OutputChoice {
  workbook: string;
  out?: string;
  inPlace?: boolean;
}

/**
 * The file to write, refused (UsageError, exit 2) when the user has not said where, said both, or named the input
 * with -o. In place through a symbolic link, the file it points at is replaced (not the link by a file).
 * `result` names what is written ("the refreshed workbook").
 */
export async function outputTarget(command: string, result: string, choice: OutputChoice): Promise<string> {
  const { workbook, out, inPlace } = choice;
  if (inPlace && out !== undefined) throw new UsageError("give either -o OUT.xlsx or --in-place, not both.");
  if (inPlace) return realpath(workbook).catch(() => workbook);
  if (out === undefined) {
    throw new UsageError(
      `say where to write ${result}: -o OUT.xlsx for a new file, or --in-place to replace ${workbook} ` +
        `(fdq ${command} never writes over its input unless asked).`,
    );
  }
  if (await sameFile(out, workbook)) {
    throw new UsageError(
      `-o names the input workbook itself: use --in-place to replace ${workbook}, or give another -o path.`,
    );
  }
  return out;
}
