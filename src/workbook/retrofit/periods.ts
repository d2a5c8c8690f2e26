// The fiscal periods a model's headers name: FY2023, FY23, 2023, 2023A, FY 2023 (a year); Q3 2024, 3Q24,
// Q3'24, Q3 FY2024, 2024Q3 (a quarter); LTM and TTM (the latest twelve months). Estimates (2025E, 2025F,
// 2025P) are the analyst's own numbers, never FDQ data, so they name no period. A number such as 2023 in a
// header cell is a year. Each period becomes the arguments FDQ.DATAPOINT takes after the datapoint.
import type { FormulaArg } from "../../functions/formula";

export type ModelPeriod =
  | { readonly kind: "year"; readonly year: number }
  | { readonly kind: "quarter"; readonly year: number; readonly quarter: number }
  | { readonly kind: "ltm" };

const FIRST_YEAR = 1990;
const LAST_YEAR = 2100;

function fullYear(text: string): number | undefined {
  const n = Number(text);
  const year = text.length === 2 ? 2000 + n : n;
  return year >= FIRST_YEAR && year <= LAST_YEAR ? year : undefined;
}

const YEAR = /^(?:FY\s*'?)?((?:19|20)\d\d|'?\d\d)\s*A?$/i;
const FY_SHORT = /^FY\s*'?(\d\d)\s*A?$/i;
const QUARTERS = [
  /^Q([1-4])\s*(?:FY\s*)?'?((?:19|20)?\d\d)\s*A?$/i,
  /^([1-4])Q\s*(?:FY\s*)?'?((?:19|20)?\d\d)\s*A?$/i,
];
const YEAR_QUARTER = /^((?:19|20)\d\d)\s*[-/]?\s*Q([1-4])\s*A?$/i;

/** The period a header names, or undefined (a label, an estimate, anything else). */
export function parsePeriod(header: number | string | boolean | null): ModelPeriod | undefined {
  if (typeof header === "number") {
    return Number.isInteger(header) && header >= FIRST_YEAR && header <= LAST_YEAR
      ? { kind: "year", year: header }
      : undefined;
  }
  if (typeof header !== "string") return undefined;
  const text = header.trim().replace(/\s+/g, " ");
  if (/^(?:LTM|TTM)$/i.test(text)) return { kind: "ltm" };
  const short = FY_SHORT.exec(text);
  if (short) {
    const year = fullYear(short[1] ?? "");
    return year === undefined ? undefined : { kind: "year", year };
  }
  const y = YEAR.exec(text);
  if (y && !(y[1] ?? "").startsWith("'") && (y[1] ?? "").length === 4) {
    const year = fullYear(y[1] ?? "");
    return year === undefined ? undefined : { kind: "year", year };
  }
  for (const pattern of QUARTERS) {
    const q = pattern.exec(text);
    if (!q) continue;
    const year = fullYear(q[2] ?? "");
    return year === undefined ? undefined : { kind: "quarter", year, quarter: Number(q[1]) };
  }
  const yq = YEAR_QUARTER.exec(text);
  if (yq) {
    const year = fullYear(yq[1] ?? "");
    return year === undefined ? undefined : { kind: "quarter", year, quarter: Number(yq[2]) };
  }
  return undefined;
}

/** The period named somewhere in a label ("Revenue FY2023 ($m)", "EV/EBITDA LTM"), and the label without it. */
export function periodInLabel(label: string): { period: ModelPeriod; rest: string } | undefined {
  const words = label.split(/\s+/);
  for (let i = words.length - 1; i >= 0; i--) {
    for (const span of [2, 1]) {
      if (i - span + 1 < 0) continue;
      const text = words.slice(i - span + 1, i + 1).join(" ");
      const period = parsePeriod(text.replace(/[(),]/g, ""));
      if (period) return { period, rest: [...words.slice(0, i - span + 1), ...words.slice(i + 1)].join(" ") };
    }
  }
  return undefined;
}

/** FDQ.DATAPOINT's arguments after the datapoint's name: year, quarter; or "LTM". */
export function periodArgs(period: ModelPeriod): FormulaArg[] {
  switch (period.kind) {
    case "year":
      return [period.year];
    case "quarter":
      return [period.year, period.quarter];
    case "ltm":
      return ["LTM"];
  }
}

/** "FY2023", "Q3 2024", "LTM": the period in the report's words. */
export function periodText(period: ModelPeriod): string {
  switch (period.kind) {
    case "year":
      return `FY${period.year}`;
    case "quarter":
      return `Q${period.quarter} ${period.year}`;
    case "ltm":
      return "LTM";
  }
}

/** Later periods first (LTM is the latest); used to probe a line at its most recent number. */
export function periodOrder(period: ModelPeriod): number {
  switch (period.kind) {
    case "ltm":
      return 1e9;
    case "year":
      return period.year * 10 + 5;
    case "quarter":
      return period.year * 10 + period.quarter;
  }
}
