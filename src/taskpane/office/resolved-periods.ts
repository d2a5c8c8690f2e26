// What each FDQ cell's relative period (FY0, FQ-1, LTM) resolved to at its last refresh, kept in the workbook
// as a custom XML part in its own namespace (workbook.customXmlParts, ExcelApi 1.5; the format is
// src/workbook/refresh/resolved-periods.ts, the same part `fdq refresh` writes), so the next refresh on any machine can
// say "new period" when FY0 rolled to the next fiscal year.
import {
  parseResolvedPeriods,
  PERIODS_NAMESPACE,
  serializeResolvedPeriods,
  type ResolvedCellPeriods,
} from "../../workbook/refresh/resolved-periods";

/** The kept records (none without the part). */
export async function readResolvedPeriods(context: Excel.RequestContext): Promise<ResolvedCellPeriods[]> {
  const collection = context.workbook.customXmlParts.getByNamespace(PERIODS_NAMESPACE);
  collection.load("items/id");
  await context.sync();
  const xmls = collection.items.map((part) => part.getXml());
  await context.sync();
  return xmls.flatMap((x) => parseResolvedPeriods(x.value));
}

/** Replaces the kept records by `records` (the part goes when there are none): the new part first. */
export async function writeResolvedPeriods(
  context: Excel.RequestContext,
  records: readonly ResolvedCellPeriods[],
): Promise<void> {
  const collection = context.workbook.customXmlParts.getByNamespace(PERIODS_NAMESPACE);
  collection.load("items/id");
  await context.sync();
  const old = collection.items;
  if (records.length > 0) {
    context.workbook.customXmlParts.add(serializeResolvedPeriods(records));
    await context.sync();
  }
  for (const part of old) part.delete();
  await context.sync();
}
