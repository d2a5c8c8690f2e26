// `fdq freeze WORKBOOK -o OUT` turns the FDQ cells into their values, keeping each formula inside the workbook
// (the add-in's Restore formulas and `fdq thaw` bring them back); `fdq thaw WORKBOOK -o OUT` restores them.
// `fdq freeze --share` writes a copy for a colleague without the add-in: the FDQ cells as values, dependents
// intact, and an "FDQ sources" sheet saying where each number came from. Each works on the file as the refresh
// does (src/workbook/freeze/freeze.ts): the cells concerned and the parts that list parts change, every other part is
// copied byte for byte; -o or --in-place is required, the output is checked before any work and written
// atomically. Exit status as fdq refresh's table: 0 done, 1 the write failed, 2 a usage error or a file fdq
// cannot use, 4 some cells were left as they were (listed).
import path from "node:path";
import { sourcesRows, sourcesSheetName } from "../workbook/share/fdq-sources";
import { freezePackage, thawPackage } from "../workbook/freeze/freeze";
import { restoreConstants } from "../workbook/retrofit/apply";
import { KeptConstantsError } from "../workbook/retrofit/kept-constants";
import { FrozenFormatError } from "../workbook/freeze/frozen-formulas";
import { sheetKey } from "../workbook/model";
import { AtomicOutput, FileProblem, OutputWriteError, readInput } from "../workbook/xlsx/node-files";
import { openPackage, PackageError, type WorkbookPackage } from "../workbook/xlsx/package";
import { readWorkbook, type ReadWorkbook } from "../workbook/xlsx/read-model";
import { addSourcesSheet } from "../workbook/share/sources-sheet";
import { openConnection } from "./connection";
import { UsageError, type FreezeOptions } from "./options";
import { outputTarget } from "./output-target";
import { REFRESH_EXIT } from "./refresh-command";
import { readKeptRecords } from "./refresh-records";
import { sourcedCells } from "./share-sources";
import { PackageEditor } from "../workbook/xlsx/structure";

type Command = "freeze" | "thaw";

/** Where the result goes: --share writes a copy, never the workbook itself (the rest is outputTarget's rule). */
function targetOf(command: Command, options: FreezeOptions): Promise<string> {
  if (options.inPlace && options.out === undefined && options.share) {
    throw new UsageError("--share writes a copy: give -o OUT.xlsx (the workbook itself keeps its formulas).");
  }
  return outputTarget(command, "the result", options);
}

function open(
  command: Command,
  file: string,
  bytes: Uint8Array,
): { pkg: WorkbookPackage; read: ReadWorkbook } {
  try {
    const pkg = openPackage(bytes);
    return { pkg, read: readWorkbook(pkg) };
  } catch (err) {
    const reason = err instanceof PackageError ? err.message : `it is damaged: ${(err as Error).message}`;
    throw new FileProblem(`cannot ${command} ${file}: ${reason.replace(/fdq refresh/g, `fdq ${command}`)}`);
  }
}

function checkExtension(pkg: WorkbookPackage, target: string): void {
  const macros = pkg.kind === "xlsm" || pkg.kind === "xltm";
  const ext = path.extname(target).toLowerCase();
  const macroExt = ext === ".xlsm" || ext === ".xltm";
  if (macros !== macroExt) {
    throw new FileProblem(
      macros
        ? `cannot write ${target}: the workbook has macros (.xlsm), and Excel will not open a macro-enabled workbook named ${ext || "without an extension"}; give -o a name ending in .xlsm`
        : `cannot write ${target}: the workbook has no macros, and Excel will not open it named ${ext}; give -o a name ending in .xlsx`,
    );
  }
}

const count = (n: number, one: string, many = `${one}s`): string =>
  `${n.toLocaleString("en-US")} ${n === 1 ? one : many}`;

export async function runFreeze(command: Command, options: FreezeOptions): Promise<number> {
  const target = await targetOf(command, options);
  let output: AtomicOutput | undefined;
  try {
    const bytes = await readInput(options.workbook);
    const { pkg, read } = open(command, options.workbook, bytes);
    checkExtension(pkg, target);
    if (
      options.sheet !== undefined &&
      !pkg.sheets.some((s) => sheetKey(s.name) === sheetKey(options.sheet as string))
    ) {
      throw new FileProblem(
        `the workbook has no sheet "${options.sheet}"; its sheets are ${pkg.sheets.map((s) => `"${s.name}"`).join(", ")}`,
      );
    }
    output = await AtomicOutput.prepare(target, bytes.length + 256 * 1024, options.inPlace);

    let editor;
    let done: number;
    let skipped: string[];
    let sheetLine = "";
    let constants = 0;
    if (command === "freeze") {
      const result = freezePackage(pkg, read.model, { sheet: options.sheet, now: new Date() });
      ({ editor, skipped } = result);
      done = result.frozen.length;
      if (options.share) {
        const connection = await openConnection(options);
        try {
          const records = readKeptRecords(new PackageEditor(pkg)).sources;
          const cells = await sourcedCells(read.model, result.frozen, connection.client, records);
          const name = sourcesSheetName(pkg.sheets.map((s) => s.name));
          addSourcesSheet(editor, name, sourcesRows(cells));
          sheetLine = ` and listed their sources on the sheet "${name}"`;
        } finally {
          await connection.close();
        }
      }
    } else {
      const result = thawPackage(pkg, { sheet: options.sheet });
      ({ editor, skipped } = result);
      done = result.restored.length;
      // The constants fdq retrofit replaced with FDQ formulas come back too.
      const retrofitted = restoreConstants(editor, { sheet: options.sheet });
      constants = retrofitted.restored.length;
      skipped = [...skipped, ...retrofitted.skipped];
    }
    const changed = editor.changedParts().filter((p) => pkg.has(p)).length;
    const added = editor.changedParts().length - changed;
    const removed = editor.removedParts().length;
    const kept = pkg.archive.entries.length - changed - removed;
    await output.commit(editor.write());
    output = undefined;

    const what =
      command === "freeze"
        ? `Froze ${count(done, "FDQ cell")} to values (formulas kept in the workbook for fdq thaw and Restore formulas)`
        : `Restored ${count(done, "frozen formula")}` +
          (constants > 0 ? ` and ${count(constants, "constant")} fdq retrofit replaced` : "");
    process.stdout.write(
      `${what}${sheetLine}; changed ${count(changed, "part")}${added > 0 ? `, added ${added}` : ""}` +
        `${removed > 0 ? `, removed ${removed}` : ""}, ` +
        `kept ${count(kept, "other part")} byte for byte. Wrote ${target}.\n`,
    );
    for (const line of skipped) process.stderr.write(`fdq ${command}: ${line}\n`);
    return skipped.length > 0 ? REFRESH_EXIT.skipped : REFRESH_EXIT.ok;
  } catch (err) {
    if (err instanceof FileProblem) {
      process.stderr.write(`fdq ${command}: ${err.message}\n`);
      return REFRESH_EXIT.badInput;
    }
    if (err instanceof KeptConstantsError) {
      process.stderr.write(
        `fdq ${command}: cannot read the constants fdq retrofit kept in ${options.workbook}: ${err.message}\n`,
      );
      return REFRESH_EXIT.badInput;
    }
    if (err instanceof FrozenFormatError) {
      process.stderr.write(
        `fdq ${command}: cannot read the frozen formulas of ${options.workbook}: ${err.message}\n`,
      );
      return REFRESH_EXIT.badInput;
    }
    if (err instanceof OutputWriteError) {
      process.stderr.write(`fdq ${command}: ${err.message}\n`);
      return REFRESH_EXIT.failed;
    }
    throw err;
  } finally {
    await output?.discard();
  }
}
