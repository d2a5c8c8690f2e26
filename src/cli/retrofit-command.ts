// `fdq retrofit MODEL.xlsx`: finds the typed numbers of an analyst's model that are FDQ datapoints and proposes
// the formula for each (src/workbook/retrofit/). The price is printed before any request; --estimate stops
// there (nothing sent), --budget N refuses a run that could spend more than N. --report FILE writes one row
// per number (JSON or CSV by the extension); --apply -o OUT.xlsx writes the formulas over the matched
// constants, keeping them in the workbook for fdq thaw. Exit status: 0 done, 1 a write failed, 2 a usage
// error or a file fdq cannot use (no layout it reads among them), 3 over --budget.
import path from "node:path";
import { CatalogSearchIndex } from "../catalog/search";
import { evaluateAll } from "../functions/evaluate";
import type { FdqCall } from "../functions/formula";
import { csvField } from "../workbook/changes/changes";
import { applyRetrofit } from "../workbook/retrofit/apply";
import { LAYOUTS_READ } from "../workbook/retrofit/layout";
import {
  costOf,
  countRows,
  NO_COST,
  planRetrofit,
  priceRetrofit,
  runRetrofit,
  type RetrofitRow,
  type RetrofitServices,
} from "../workbook/retrofit/retrofit";
import { gridSheets } from "../workbook/retrofit/xlsx-grid";
import {
  AtomicOutput,
  FileProblem,
  OutputWriteError,
  readInput,
  sameFile,
} from "../workbook/xlsx/node-files";
import { openPackage, PackageError, type WorkbookPackage } from "../workbook/xlsx/package";
import { readWorkbook, type ReadWorkbook } from "../workbook/xlsx/read-model";
import { estimateRun } from "./budget";
import { formatStats, openConnection } from "./connection";
import { EXIT } from "./exit-codes";
import { UsageError, type RetrofitOptions } from "./options";
import { outputTarget } from "./output-target";
import { checkExtension } from "./refresh-command";

const count = (n: number, one: string, many = `${one}s`): string =>
  `${n.toLocaleString("en-US")} ${n === 1 ? one : many}`;

function open(file: string, bytes: Uint8Array): { pkg: WorkbookPackage; read: ReadWorkbook } {
  try {
    const pkg = openPackage(bytes);
    return { pkg, read: readWorkbook(pkg) };
  } catch (err) {
    const reason = err instanceof PackageError ? err.message : `it is damaged: ${(err as Error).message}`;
    throw new FileProblem(`cannot read ${file}: ${reason.replace(/fdq refresh/g, "fdq retrofit")}`);
  }
}

export const REPORT_COLUMNS = [
  "sheet",
  "cell",
  "label",
  "status",
  "formula",
  "fdqValue",
  "modelValue",
  "scale",
  "flipped",
  "difference",
  "confidence",
  "candidates",
] as const;

/** The report's rows as JSON or CSV by the file name's extension (".csv" is CSV, anything else JSON). */
export function serializeReport(rows: readonly RetrofitRow[], fileName: string): string {
  const plain = rows.map((r) => ({
    sheet: r.sheet,
    cell: r.cell,
    label: r.label,
    status: r.status,
    formula: r.formula ?? null,
    fdqValue: r.fdqValue ?? null,
    modelValue: r.modelValue,
    scale: r.scale ?? null,
    flipped: r.flipped ?? false,
    difference: r.difference !== undefined && Number.isFinite(r.difference) ? r.difference : null,
    confidence: r.confidence ?? null,
    candidates: r.candidates ?? [],
  }));
  if (!/\.csv$/i.test(fileName)) return JSON.stringify(plain, null, 2) + "\n";
  const lines = [REPORT_COLUMNS.join(",")];
  for (const r of plain) {
    lines.push(
      REPORT_COLUMNS.map((c) => csvField(c === "candidates" ? r.candidates.join(" ") : r[c])).join(","),
    );
  }
  return lines.join("\r\n") + "\r\n";
}

/** The run's services over the CLI's client: prices from its estimate, values through the function code. */
function servicesOf(client: Parameters<typeof estimateRun>[0]): RetrofitServices {
  return {
    price: async (calls: readonly FdqCall[]) =>
      calls.length === 0 ? NO_COST : costOf(await estimateRun(client, calls)),
    fetch: async (calls: readonly FdqCall[]) =>
      (await evaluateAll(client, calls)).map((o) => (o.ok && typeof o.value === "number" ? o.value : null)),
  };
}

export async function runRetrofitCommand(options: RetrofitOptions): Promise<number> {
  const target = options.apply ? await outputTarget("retrofit", "the linked workbook", options) : undefined;
  let output: AtomicOutput | undefined;
  let report: AtomicOutput | undefined;
  try {
    const bytes = await readInput(options.workbook);
    const { pkg, read } = open(options.workbook, bytes);
    if (target !== undefined) checkExtension(pkg, target);
    if (options.report !== undefined) {
      if (
        (await sameFile(options.report, options.workbook)) ||
        (target !== undefined && (await sameFile(options.report, target)))
      )
        throw new FileProblem(
          `--report ${options.report} names a workbook; give the report its own file (.json or .csv)`,
        );
      if (/\.xls[xm]$/i.test(options.report))
        throw new FileProblem(
          `--report ${options.report}: the report is JSON or CSV; give a file ending in .json or .csv`,
        );
    }

    const plan = planRetrofit(gridSheets(pkg, read.model), {
      index: CatalogSearchIndex.fromCatalog(),
      ticker: options.ticker,
    });
    for (const sheet of plan.sheets) {
      if (sheet.problem !== undefined && sheet.problem !== "no layout fdq retrofit reads")
        process.stderr.write(`fdq retrofit: sheet "${sheet.sheet}": ${sheet.problem}\n`);
    }
    if (plan.lines.length === 0) {
      const reasons = plan.sheets.some(
        (s) => s.problem !== undefined && s.problem !== "no layout fdq retrofit reads",
      );
      process.stderr.write(
        `fdq retrofit: found no numbers to link in ${options.workbook}${reasons ? " (see the sheets above)" : ""}. ${LAYOUTS_READ}.\n`,
      );
      return EXIT.usage.code;
    }
    if (target !== undefined)
      output = await AtomicOutput.prepare(target, bytes.length + 256 * 1024, options.inPlace);
    if (options.report !== undefined) report = await AtomicOutput.prepare(options.report, 1024 * 1024);

    const connection = await openConnection(options);
    let rows: RetrofitRow[];
    try {
      await connection.client.ready();
      const services = servicesOf(connection.client);
      const price = await priceRetrofit(plan, services);
      const numbers = plan.lines.reduce((n, p) => n + p.line.cells.length, 0);
      const known = plan.lines.filter((p) => p.candidates.length > 0).length;
      const sheets = new Set(plan.lines.map((p) => p.line.sheet)).size;
      process.stdout.write(
        `${count(numbers, "number")} under ${count(plan.lines.length, "label")} on ${count(sheets, "sheet")}; ` +
          `${count(known, "label")} may name FDQ datapoints. This costs at most ${count(price.most, "quota unit")} ` +
          `(${count(price.first, "unit")} for a first look at each label's candidates).\n`,
      );
      if (options.estimate) {
        process.stdout.write("Estimate only: nothing was sent.\n");
        return EXIT.ok.code;
      }
      if (options.budget !== undefined && price.most > options.budget) {
        process.stderr.write(
          `fdq retrofit: this model needs up to ${count(price.most, "quota unit")}; --budget is ${options.budget.toLocaleString("en-US")}. Nothing was sent.\n`,
        );
        return EXIT.budget.code;
      }
      rows = await runRetrofit(plan, services, { tolerance: options.tolerance });
      const stats = connection.client.stats();
      const counts = countRows(rows);
      process.stdout.write(
        `Linked ${count(counts.linked, "number")}; ${counts.ambiguous.toLocaleString("en-US")} ambiguous; ` +
          `${counts.notFound.toLocaleString("en-US")} not found; ${count(counts.noDatapoint, "number")} under labels ` +
          `that name no FDQ datapoint left alone. Spent ${count(stats.unitsSpent, "quota unit")} ` +
          `(${count(stats.requestsSent, "request")}).\n`,
      );
      const ambiguous = new Map<string, RetrofitRow>();
      for (const r of rows) if (r.status === "ambiguous") ambiguous.set(`${r.sheet}\u0000${r.label}`, r);
      for (const r of ambiguous.values())
        process.stdout.write(
          `Ambiguous: ${r.sheet} "${r.label}" could be ${(r.candidates ?? []).join(" or ")}; not linked.\n`,
        );
      if (options.stats) process.stderr.write(`${formatStats(stats)}\n`);
    } finally {
      await connection.close();
    }

    let skipped: string[] = [];
    if (output && target !== undefined) {
      const applied = applyRetrofit(pkg, rows);
      skipped = applied.skipped;
      const { editor } = applied;
      const changed = editor.changedParts().filter((p) => pkg.has(p)).length;
      const added = editor.changedParts().length - changed;
      const kept = pkg.archive.entries.length - changed - editor.removedParts().length;
      await output.commit(editor.write());
      output = undefined;
      process.stdout.write(
        `Wrote ${count(applied.written.length, "FDQ formula")} in place of constants (kept in the workbook for fdq thaw); ` +
          `changed ${count(changed, "part")}${added > 0 ? `, added ${added}` : ""}, kept ${count(kept, "other part")} byte for byte. Wrote ${target}.\n`,
      );
    }
    if (report && options.report !== undefined) {
      await report.commit(new TextEncoder().encode(serializeReport(rows, options.report)));
      report = undefined;
      process.stdout.write(
        `Wrote the report of ${count(rows.length, "number")} to ${path.basename(options.report)}.\n`,
      );
    }
    for (const line of skipped) process.stderr.write(`fdq retrofit: ${line}\n`);
    return EXIT.ok.code;
  } catch (err) {
    if (err instanceof FileProblem) {
      process.stderr.write(`fdq retrofit: ${err.message}\n`);
      return EXIT.usage.code;
    }
    if (err instanceof OutputWriteError) {
      process.stderr.write(`fdq retrofit: ${err.message}\n`);
      return EXIT.failure.code;
    }
    if (err instanceof UsageError) throw err;
    throw err;
  } finally {
    await output?.discard();
    await report?.discard();
  }
}
