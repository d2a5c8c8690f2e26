// The values the evaluator passes around, and Excel's coercions between them. A reference stays a reference
// (Ref) until a function or operator reads it, because some functions need the reference itself (ROW, INDEX,
// OFFSET, SUMIF's sum range, SUBTOTAL) and aggregates skip text in a range but not in a direct argument.
import { ExcelError, type ErrorCode, type Scalar } from "../model";
import type { Rect } from "./references";

export class Ref {
  constructor(readonly rect: Rect) {}
  get rows(): number {
    return this.rect.bottom - this.rect.top + 1;
  }
  get cols(): number {
    return this.rect.right - this.rect.left + 1;
  }
}

/** An array value (a literal, or what array arithmetic and dynamic-array functions give): rows of scalars. */
export class Arr {
  constructor(readonly rows: Scalar[][]) {}
  get height(): number {
    return this.rows.length;
  }
  get width(): number {
    return this.rows[0]?.length ?? 0;
  }
}

export type Value = Scalar | Ref | Arr;

export const err = (code: ErrorCode, message?: string): ExcelError => new ExcelError(code, message);
export const NA = (): ExcelError => err("#N/A");
export const VALUE = (): ExcelError => err("#VALUE!");
export const DIV0 = (): ExcelError => err("#DIV/0!");
export const NUM = (): ExcelError => err("#NUM!");
export const REF = (): ExcelError => err("#REF!");

export const isError = (v: unknown): v is ExcelError => v instanceof ExcelError;

/**
 * Thrown to stop a formula the engine cannot compute (an unsupported function, a reference it cannot
 * read): the formula keeps its value and is reported. Never an Excel error value: it must not be caught
 * by IFERROR.
 */
export class Unsupported extends Error {
  constructor(
    message: string,
    /** The function that stopped it, if one did (upper case, without _xlfn.). */
    readonly fn?: string,
  ) {
    super(message);
    this.name = "Unsupported";
  }
}

const PLAIN_NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
const GROUPED_NUMBER = /^[+-]?\d{1,3}(,\d{3})+(\.\d*)?$/;
const MONTH =
  "(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)";
const DATE = `(?:\\d{1,4}[-/.]\\d{1,2}(?:[-/.]\\d{1,4})?|\\d{1,2}[-/ ]?${MONTH}\\.?(?:[-/ ,]+\\d{1,4})?|${MONTH}\\.?[-/ ]?\\d{1,4}(?:,?[-/ ]+\\d{1,4})?)`;
const TIME = "(?:\\d{1,2}(?::\\d{1,2}){1,2}(?:\\.\\d*)?(?: ?[ap]m?)?|\\d{1,2} ?[ap]m?)";
/**
 * Texts Excel also reads as numbers and fdq does not: dates ("2023-01-05", "5-Jan", "Jan 5, 2023"), times
 * ("9:30", "3 PM"), fractions ("1 1/2"), currency and accounting negatives ("$1,234", "(100)"), and digits with
 * commas that are not thousands ("1,2").
 */
const EXCEL_ONLY_NUMBER = new RegExp(
  `^(?:${DATE}(?: +${TIME})?|${TIME}|[+-]?(?:\\d+ +)?\\d+/\\d+|[-+]?[(]?[-+]?\\$? ?[\\d,]*\\.?\\d+%?[)]?|[+-]?[\\d,]+(?:\\.\\d*)?)$`,
  "i",
);

/**
 * A number from a text as Excel's coercion reads it ("1,234.5", "12%", " 3 ", "1e3"); undefined if Excel reads
 * none. A text Excel reads as a number in a way fdq does not (a date, a time, a fraction, currency) throws
 * Unsupported: the formula is reported, not given #VALUE! where Excel has a number. Texts are read as Excel
 * reads them in an English (United States) locale.
 */
export function numberOfText(text: string): number | undefined {
  const t = text.trim();
  if (t === "") return undefined;
  const percent = t.endsWith("%");
  const body = percent ? t.slice(0, -1) : t;
  if (PLAIN_NUMBER.test(body) || GROUPED_NUMBER.test(body)) {
    const n = Number(body.replace(/,/g, ""));
    return percent ? n / 100 : n;
  }
  if (/\d/.test(t) && EXCEL_ONLY_NUMBER.test(t)) {
    throw new Unsupported(`reads the text "${t}" as a number, which Excel does and fdq does not`);
  }
  return undefined;
}

/** A scalar as a number for arithmetic: empty is 0, TRUE 1, a numeric text its number, other text #VALUE!. */
export function toNumber(v: Scalar): number | ExcelError {
  if (typeof v === "number") return v;
  if (v === null) return 0;
  if (typeof v === "boolean") return v ? 1 : 0;
  if (v instanceof ExcelError) return v;
  const n = numberOfText(v);
  return n === undefined ? VALUE() : n;
}

/** A scalar as text, as & and the text functions read it. */
export function toText(v: Scalar): string | ExcelError {
  if (v === null) return "";
  if (typeof v === "string") return v;
  if (typeof v === "boolean") return v ? "TRUE" : "FALSE";
  if (v instanceof ExcelError) return v;
  return numberText(v);
}

/**
 * A number as Excel's General format shows it in text (up to 15 significant digits). Where Excel switches to
 * scientific notation for very small or very large numbers is not followed exactly: those are reported.
 */
export function numberText(n: number): string {
  if (n !== 0 && (Math.abs(n) < 1e-4 || Math.abs(n) >= 1e15)) {
    throw new Unsupported(`turns the number ${n} into text, which Excel may write in scientific notation`);
  }
  // Between 1e-4 and 1e15 JavaScript writes a number without an exponent, as Excel does.
  return String(Number(n.toPrecision(15)));
}

/** A scalar as a logical: numbers are TRUE unless 0, "TRUE"/"FALSE" texts read, other text #VALUE!. */
export function toBool(v: Scalar): boolean | ExcelError {
  if (typeof v === "boolean") return v;
  if (v === null) return false;
  if (typeof v === "number") return v !== 0;
  if (v instanceof ExcelError) return v;
  const upper = v.toUpperCase();
  if (upper === "TRUE") return true;
  if (upper === "FALSE") return false;
  return VALUE();
}

/**
 * Compares two numbers. Two different numbers that agree to 15 significant digits (0.1+0.2 and 0.3) are
 * reported: Excel may take them as equal, and fdq does not know its rule exactly.
 */
export function compareNumbers(x: number, y: number): number {
  if (x === y) return 0;
  if (Math.abs(x - y) <= 1e-14 * Math.max(Math.abs(x), Math.abs(y))) {
    throw new Unsupported(
      `compares ${x} with ${y}, which agree to 15 significant digits (Excel may take them as equal)`,
    );
  }
  return x < y ? -1 : 1;
}

/** Excel's ordering of different types in comparisons: numbers < text < logicals. */
const typeRank = (v: Scalar): number => (typeof v === "number" ? 0 : typeof v === "string" ? 1 : 2);

/** Compares two non-error scalars as Excel's = < > do (text case-insensitively; empty as 0, "" or FALSE). */
export function compare(a: Scalar, b: Scalar): number {
  let x = a;
  let y = b;
  if (x === null) x = typeof y === "string" ? "" : typeof y === "boolean" ? false : 0;
  if (y === null) y = typeof x === "string" ? "" : typeof x === "boolean" ? false : 0;
  const rx = typeRank(x);
  const ry = typeRank(y);
  if (rx !== ry) return rx - ry;
  if (typeof x === "number" && typeof y === "number") return compareNumbers(x, y);
  if (typeof x === "string" && typeof y === "string") {
    const lx = x.toLowerCase();
    const ly = y.toLowerCase();
    return lx === ly ? 0 : lx < ly ? -1 : 1;
  }
  return Number(x) - Number(y);
}

/** The result of arithmetic: Infinity and NaN are #NUM! in Excel. */
export const checked = (n: number): number | ExcelError => (Number.isFinite(n) ? n : NUM());
