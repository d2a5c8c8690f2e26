// `fdq repair WORKBOOK -o OUT` stores every FDQ formula Excel no longer recognises (#NAME? after the workbook
// was saved without the add-in, or beside a COM add-in: _xludf.FDQ., [2]!_xldudf_FDQ_, 'C:\...\x.xla'!, lower
// case) the way Excel stores a loaded add-in's function, and drops the external links only those formulas used
// (src/workbook/repair/repair.ts). As fdq refresh does, it changes only those formulas and the parts that list parts,
// copies every other part byte for byte, needs -o or --in-place, checks the output before any work and writes it
// atomically. It sends nothing. Exit status as fdq refresh's table: 0 done (nothing to repair included), 1 the
// write failed, 2 a usage error or a file fdq cannot use, 4 some calls were left as they were (listed).
import { repairPackage, type RepairOutcome } from "../workbook/repair/repair";
import { AtomicOutput, FileProblem, OutputWriteError, readInput } from "../workbook/xlsx/node-files";
import { openPackage, PackageError, type WorkbookPackage } from "../workbook/xlsx/package";
import type { RepairOptions } from "./options";
import { outputTarget } from "./output-target";
import { checkExtension, REFRESH_EXIT } from "./refresh-command";

function open(file: string, bytes: Uint8Array): WorkbookPackage {
  try {
    return openPackage(bytes);
  } catch (err) {
    if (!(err instanceof PackageError)) throw err;
    throw new FileProblem(`cannot repair ${file}: ${err.message.replace(/fdq refresh/g, "fdq repair")}`);
  }
}

const count = (n: number, one: string, many = `${one}s`): string =>
  `${n.toLocaleString("en-US")} ${n === 1 ? one : many}`;

const quoted = (sheet: string): string =>
  /^[A-Za-z_][A-Za-z0-9_.]*$/.test(sheet) ? sheet : `'${sheet.replace(/'/g, "''")}'`;

const linkName = (l: { part: string; target: string | undefined }): string =>
  l.target === undefined ? l.part : `${l.part} (${l.target})`;

/** The summary line and one line per repaired cell and name: "Model!B2: =before -> =after". */
function report(
  outcome: RepairOutcome,
  changed: number,
  removed: number,
  kept: number,
  target: string,
): string {
  const { cells, names, droppedLinks } = outcome;
  const lines: string[] = [];
  const total = cells.length + names.length;
  const what =
    total === 0
      ? "Nothing to repair: every FDQ formula is in a form Excel recognises"
      : `Repaired ${count(total, "FDQ formula")} Excel no longer recognised (${count(cells.length, "cell")}` +
        `${names.length > 0 ? `, ${count(names.length, "defined name")}` : ""})`;
  const links =
    droppedLinks.length === 0
      ? ""
      : `; removed the external ${droppedLinks.length === 1 ? "link" : "links"} ${droppedLinks.map(linkName).join(", ")}, which only they used`;
  lines.push(
    `${what}${links}; changed ${count(changed, "part")}${removed > 0 ? `, removed ${removed}` : ""}, ` +
      `kept ${count(kept, "other part")} byte for byte. Wrote ${target}.`,
  );
  for (const c of cells) lines.push(`${quoted(c.sheet)}!${c.cell}: ${c.before} -> ${c.after}`);
  for (const n of names) {
    lines.push(
      `name ${n.scope !== undefined ? `${quoted(n.scope)}!` : ""}${n.name}: ${n.before} -> ${n.after}`,
    );
  }
  if (total > 0) {
    lines.push(
      "The repaired cells keep their saved values until they are calculated: run fdq refresh on the file, or Refresh in Excel.",
    );
  }
  return `${lines.join("\n")}\n`;
}

export async function runRepair(options: RepairOptions): Promise<number> {
  const target = await outputTarget("repair", "the repaired workbook", options);
  let output: AtomicOutput | undefined;
  try {
    const bytes = await readInput(options.workbook);
    const pkg = open(options.workbook, bytes);
    checkExtension(pkg, target);
    output = await AtomicOutput.prepare(target, bytes.length + 64 * 1024, options.inPlace);
    const outcome = repairPackage(pkg);
    const { editor } = outcome;
    const changed = editor.changedParts().length;
    const removed = editor.removedParts().length;
    const kept = pkg.archive.entries.length - changed - removed;
    await output.commit(changed + removed === 0 ? bytes : editor.write());
    output = undefined;
    process.stdout.write(report(outcome, changed, removed, kept, target));
    for (const link of outcome.keptLinks) {
      process.stderr.write(`fdq repair: kept the external link ${linkName(link)}: ${link.reason}\n`);
    }
    for (const line of outcome.left) process.stderr.write(`fdq repair: ${line}\n`);
    return outcome.left.length > 0 ? REFRESH_EXIT.skipped : REFRESH_EXIT.ok;
  } catch (err) {
    if (err instanceof FileProblem) {
      process.stderr.write(`fdq repair: ${err.message}\n`);
      return REFRESH_EXIT.badInput;
    }
    if (err instanceof OutputWriteError) {
      process.stderr.write(`fdq repair: ${err.message}\n`);
      return REFRESH_EXIT.failed;
    }
    throw err;
  } finally {
    await output?.discard();
  }
}
