// Where each FDQ cell's value came from, as `fdq refresh` noted it while it evaluated: the service requests that
// answered (path and query, never the key), their refresh day, and the period the cell asked ("FY2023", or a
// relative one with what it resolved to, "FY0 = fiscal 2026"). Kept inside the workbook so that `fdq freeze
// --share` names each value's source on any machine, with or without a day cache. One custom XML part of the
// workbook in its own namespace, beside the resolved periods (src/workbook/refresh/resolved-periods.ts) and the frozen
// formulas; written and read in the package by src/workbook/freeze/frozen-parts.ts. Host-neutral: no Office, no Node.
//
// The part is compact, because a refresh records every FDQ cell (50,000 in a large model): every text (a request,
// a period, a day, a formula) is written once in a table, and each cell is one empty element naming its entries
// by number. The formula (a record of a formula edited since does not describe it) is kept as it reads from A1
// (its relative references moved, as Excel moves them when it copies a formula): the formulas of a filled-down
// block are then one entry. About 45 bytes a cell (2.25 MB for 50,000).
//
// Why a scan of its own elements, not saxes (the package's parser): the part is ours, written by this module in a
// fixed grammar (a table of <t> texts, then empty <c/> elements with four numeric attributes), and a damaged or
// foreign part only loses the sources sheet's precision (parseCellSources then gives no records). The scan reads a
// 50,000-record part in about half the time of saxes building its tree and with about a quarter of the memory
// (bench/xml-readers.ts, bench/README.md "XML readers"), on the path of fdq refresh's 400 MB bound.
import { cellPosition } from "../engine/references";
import { translateFormula } from "../engine/translate";
import { escapeXml } from "../own-parts";

export const SOURCES_NAMESPACE = "urn:fdq-excel:cell-sources";
export const SOURCES_ROOT = "cellSources";
export const SOURCES_VERSION = 1;

export interface CellSourceRecord {
  /** The sheet's name as Excel shows it. */
  readonly sheet: string;
  /** "B2". */
  readonly cell: string;
  /** The formula the record is of, as `positionFree` gives it. */
  readonly formula: string;
  /** The refresh day (YYYY-MM-DD) of the answers. */
  readonly day: string;
  /** What the cell asked, "; "-joined: "FY2023", "FY0 = fiscal 2026", "LTM = TTM to Q3 FY2026"; "" for none. */
  readonly period: string;
  /** The requests that answered, in the order of the cell's calls: "GET /metrics/roic/AAPL?datapoint=ROIC&year=2026". */
  readonly sources: readonly string[];
}

/**
 * A cell's formula (with its "=") as it reads from A1: the same text for every cell of a filled-down block, and
 * another text once the formula is edited. A formula the translation cannot read is kept as it is.
 */
export function positionFree(formula: string, cell: string): string {
  const at = cellPosition(cell);
  if (!at) return formula;
  try {
    return `=${translateFormula(formula.replace(/^=/, ""), at.row, at.col, 1, 1, true)}`;
  } catch {
    return formula;
  }
}

export const sourceCellId = (c: { sheet: string; cell: string }): string =>
  `${c.sheet.toLowerCase()}!${c.cell.toUpperCase()}`;

export function serializeCellSources(records: readonly CellSourceRecord[]): string {
  const table = new Map<string, number>();
  const entry = (text: string): number => {
    let i = table.get(text);
    if (i === undefined) table.set(text, (i = table.size));
    return i;
  };
  const bySheet = new Map<string, string[]>();
  for (const r of records) {
    const list = bySheet.get(r.sheet) ?? [];
    if (list.length === 0) bySheet.set(r.sheet, list);
    list.push(
      `<c r="${r.cell}" f="${entry(r.formula)}" d="${entry(r.day)}" p="${entry(r.period)}" s="${r.sources.map(entry).join(" ")}"/>`,
    );
  }
  const strings = [...table.keys()].map((t) => `<t>${escapeXml(t)}</t>`).join("");
  const sheets = [...bySheet]
    .map(([name, cells]) => `<sheet name="${escapeXml(name)}">${cells.join("")}</sheet>`)
    .join("");
  return (
    `<?xml version="1.0" encoding="UTF-8"?><${SOURCES_ROOT} xmlns="${SOURCES_NAMESPACE}" ` +
    `version="${SOURCES_VERSION}"><strings>${strings}</strings>${sheets}</${SOURCES_ROOT}>`
  );
}

const unescape = (text: string): string =>
  text.replace(
    /&(?:#(\d+)|#x([0-9a-f]+)|(lt|gt|quot|apos|amp));/gi,
    (_, dec?: string, hex?: string, named?: string) => {
      if (dec) return String.fromCodePoint(Number(dec));
      if (hex) return String.fromCodePoint(parseInt(hex, 16));
      return { lt: "<", gt: ">", quot: '"', apos: "'", amp: "&" }[named as "lt"];
    },
  );

/**
 * The records of one part. A part that is not ours, from a newer version or damaged gives none: the records
 * only sharpen the sources sheet (without them it falls back to the formulas and the day cache).
 */
export function parseCellSources(xml: string): CellSourceRecord[] {
  const root = new RegExp(`<${SOURCES_ROOT}\\s[^>]*>`).exec(xml)?.[0];
  if (!root || !root.includes(`xmlns="${SOURCES_NAMESPACE}"`)) return [];
  if (Number(/\sversion="(\d+)"/.exec(root)?.[1] ?? "0") > SOURCES_VERSION) return [];
  const table = [
    ...(/<strings>([\s\S]*?)<\/strings>/.exec(xml)?.[1] ?? "").matchAll(/<t>([\s\S]*?)<\/t>|<t\/>/g),
  ].map((m) => unescape(m[1] ?? ""));
  const at = (i: string | undefined): string | undefined =>
    i !== undefined && /^\d+$/.test(i) ? table[Number(i)] : undefined;
  const out: CellSourceRecord[] = [];
  for (const sheet of xml.matchAll(/<sheet name="([^"]*)">([\s\S]*?)<\/sheet>/g)) {
    const name = unescape(sheet[1] as string);
    for (const c of (sheet[2] as string).matchAll(
      /<c r="([A-Z]{1,3}[1-9]\d*)" f="(\d+)" d="(\d+)" p="(\d+)" s="([\d ]*)"\/>/g,
    )) {
      const formula = at(c[2]);
      const day = at(c[3]);
      const period = at(c[4]);
      const sources = (c[5] as string)
        .split(" ")
        .filter((s) => s !== "")
        .map(at);
      if (formula === undefined || period === undefined) continue;
      if (day === undefined || !/^\d{4}-\d{2}-\d{2}$/.test(day)) continue;
      if (sources.some((s) => s === undefined)) continue;
      out.push({
        sheet: name,
        cell: c[1] as string,
        formula,
        day,
        period,
        sources: sources as string[],
      });
    }
  }
  return out;
}

/** The records after a refresh: those of the cells it refreshed replaced by `updates`, the others kept. */
export function mergeCellSources(
  previous: readonly CellSourceRecord[],
  refreshed: readonly { sheet: string; cell: string }[],
  updates: readonly CellSourceRecord[],
): CellSourceRecord[] {
  const gone = new Set([...refreshed, ...updates].map(sourceCellId));
  return [...previous.filter((r) => !gone.has(sourceCellId(r))), ...updates];
}
