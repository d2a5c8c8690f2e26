// What each FDQ cell with a relative period (FY0, FQ-1, LTM) resolved to at its last refresh, kept inside the
// workbook so the next refresh, on any machine, can tell a relative period that moved (FY0: FY2024 -> FY2025,
// the change report's "new period") from a restatement of the same period. One custom XML part of the
// workbook in its own namespace, as the frozen formulas are kept (src/workbook/freeze/frozen-formulas.ts): `fdq
// refresh` writes it in the package (src/workbook/freeze/frozen-parts.ts), the task pane with Office's customXmlParts.
// Host-neutral: no Office, no Node. Only cells with a relative period have a record; a workbook without one
// gets no part.
//
// Read with the package's XML parser (saxes, through ourPartRoot), written with own-parts' escapes.
import { escapeXml, ourPartRoot } from "../own-parts";
import { childrenNamed, type XmlNode } from "../xlsx/xml";

/** The namespace of the part: Office finds it with `customXmlParts.getByNamespace(PERIODS_NAMESPACE)`. */
export const PERIODS_NAMESPACE = "urn:fdq-excel:resolved-periods";
export const PERIODS_ROOT = "resolvedPeriods";
export const PERIODS_VERSION = 1;

export interface ResolvedCellPeriods {
  /** The sheet's name as Excel shows it. */
  readonly sheet: string;
  /** "B2". */
  readonly cell: string;
  /** The formula the periods are of, with its "=": a formula edited since is not compared. */
  readonly formula: string;
  /** The fiscal periods the cell's calls resolved to, "; "-joined ("FY2024", "Q3 FY2025; FY2024"). */
  readonly periods: string;
  /** The refresh day (YYYY-MM-DD) they were resolved on. */
  readonly day: string;
}

export const periodsCellId = (c: { sheet: string; cell: string }): string =>
  `${c.sheet.toLowerCase()}!${c.cell.toUpperCase()}`;

/**
 * A relative period's "before" for a refresh: what it resolved to at the last refresh, as kept for the cell at
 * `at`, when the record is of this very formula (with its "="); undefined without one.
 */
export function keptPeriods(
  kept: ReadonlyMap<string, ResolvedCellPeriods>,
  at: { sheet: string; cell: string },
  formula: string,
): string | undefined {
  const record = kept.get(periodsCellId(at));
  return record?.formula === formula ? record.periods : undefined;
}

export function serializeResolvedPeriods(records: readonly ResolvedCellPeriods[]): string {
  const cells = records
    .map(
      (r) =>
        `<cell sheet="${escapeXml(r.sheet)}" cell="${escapeXml(r.cell)}" day="${escapeXml(r.day)}" ` +
        `periods="${escapeXml(r.periods)}">${escapeXml(r.formula)}</cell>`,
    )
    .join("");
  return (
    `<?xml version="1.0" encoding="UTF-8"?><${PERIODS_ROOT} xmlns="${PERIODS_NAMESPACE}" ` +
    `version="${PERIODS_VERSION}">${cells}</${PERIODS_ROOT}>`
  );
}

/**
 * The records of one part. A part that is not ours, from a newer version or damaged gives none: the records
 * only sharpen the change report (without them a moved relative period is reported as restated).
 */
export function parseResolvedPeriods(xml: string): ResolvedCellPeriods[] {
  let root: XmlNode | undefined;
  try {
    root = ourPartRoot(xml, PERIODS_ROOT, PERIODS_NAMESPACE);
  } catch {
    return [];
  }
  if (!root || Number(root.attributes.version) > PERIODS_VERSION) return [];
  const out: ResolvedCellPeriods[] = [];
  for (const c of childrenNamed(root, "cell")) {
    const { sheet, cell, day, periods } = c.attributes;
    const formula = c.text;
    if (
      typeof sheet === "string" &&
      typeof cell === "string" &&
      /^[A-Z]{1,3}[1-9]\d*$/.test(cell) &&
      typeof day === "string" &&
      /^\d{4}-\d{2}-\d{2}$/.test(day) &&
      typeof periods === "string" &&
      formula.startsWith("=")
    )
      out.push({ sheet, cell, formula, periods, day });
  }
  return out;
}

/**
 * The records after a refresh: those of cells it refreshed replaced by `updates` (a refreshed cell without an
 * update, no longer relative or failed, loses its record), the others kept.
 */
export function mergeResolvedPeriods(
  previous: readonly ResolvedCellPeriods[],
  refreshed: readonly { sheet: string; cell: string }[],
  updates: readonly ResolvedCellPeriods[],
): ResolvedCellPeriods[] {
  const gone = new Set([...refreshed, ...updates].map(periodsCellId));
  return [...previous.filter((r) => !gone.has(periodsCellId(r))), ...updates];
}
