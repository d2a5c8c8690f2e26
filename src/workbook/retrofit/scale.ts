// Whether a number typed in a model is an FDQ value, at the scales models use: ones, thousands, millions,
// billions, a ratio typed as a percent (14.6 for 0.146), and a flipped sign (costs typed as negatives). The
// match counts only within a tolerance: by default the rounding of the cell's own number format (a cell shown
// as "#,##0.0" matches a value within half of 0.1); in General format, the rounding of the digits typed. The
// relative difference is recorded for the report.

export type ScaleName = "ones" | "thousands" | "millions" | "billions" | "percent";

export interface Scale {
  readonly name: ScaleName;
  /** The model's number is FDQ's value × factor (1e-6 for millions, 100 for a percent). */
  readonly factor: number;
  /** What a formula appends to the FDQ call: "/1000000", "*100", "". */
  readonly suffix: string;
}

export const SCALES: readonly Scale[] = [
  { name: "ones", factor: 1, suffix: "" },
  { name: "thousands", factor: 1e-3, suffix: "/1000" },
  { name: "millions", factor: 1e-6, suffix: "/1000000" },
  { name: "billions", factor: 1e-9, suffix: "/1000000000" },
  { name: "percent", factor: 100, suffix: "*100" },
];

/**
 * FDQ's value at `scale`, computed as the formula computes it (value/1000000, not value×1e-6, which differs in
 * the last digits): the cached value --apply writes is then the one Excel gives.
 */
export function scaled(value: number, scale: Scale): number {
  return scale.factor >= 1 ? value * scale.factor : value / Math.round(1 / scale.factor);
}

export interface ScaleMatch {
  readonly scale: Scale;
  /** -1: the model types the value with its sign flipped. */
  readonly sign: 1 | -1;
  /** FDQ's value as the model shows it: value × factor × sign. */
  readonly expected: number;
  /** (model − expected) / |expected| (0 when both are 0). */
  readonly difference: number;
  /** The largest absolute difference that counts as a match. */
  readonly tolerance: number;
}

/** A number format's sections without quoted text, escapes and colours ("#,##0.0;(#,##0.0)"). */
function formatBody(format: string): string {
  return format
    .split(";")[0]!
    .replace(/"[^"]*"/g, "")
    .replace(/\\./g, "")
    .replace(/\[[^\]]*\]/g, "")
    .replace(/_./g, "")
    .replace(/\*./g, "");
}

/** Whether a number format shows a date or a time (d, m, y, h, s outside quotes and colours). */
export function isDateFormat(format: string | undefined): boolean {
  if (format === undefined) return false;
  return /[dmyhs]/i.test(
    formatBody(format)
      .replace(/General/gi, "")
      .replace(/E[+-]/gi, ""),
  );
}

/** Whether a number format shows a percent. */
export const isPercentFormat = (format: string | undefined): boolean =>
  format !== undefined && formatBody(format).includes("%");

/**
 * The smallest step the cell shows, as a power of ten: 0.1 for "#,##0.0", 0.001 for "0.0%" (a percent of a
 * ratio), 1000 for "#,##0," (thousands by a trailing comma); in General, the last digit typed.
 */
export function displayStep(value: number, format: string | undefined): number {
  const body = format === undefined || /^general$/i.test(format.trim()) ? "" : formatBody(format);
  if (body === "" || /e[+-]/i.test(body)) {
    const text = Math.abs(value).toPrecision(15).replace(/0+$/, "").replace(/\.$/, "");
    const decimals = text.includes(".") ? text.length - text.indexOf(".") - 1 : 0;
    return 10 ** -decimals;
  }
  const number = /[0#?][0#?,]*(?:\.[0#?]*)?,*/.exec(body)?.[0] ?? "";
  const decimals = /\.([0#?]*)/.exec(number)?.[1]?.length ?? 0;
  // Commas after the last digit divide by 1,000 each ("#,##0," shows thousands).
  const thousands = /,*$/.exec(number)?.[0].length ?? 0;
  const percent = body.includes("%") ? 2 : 0;
  return 10 ** (3 * thousands - decimals - percent);
}

/**
 * The widest tolerance, relative to the value, that still says something: a number typed with fewer
 * significant digits (0 for a ROIC of 0.146, "1" for 1.23 billion) matches nothing.
 */
export const MAX_RELATIVE_TOLERANCE = 0.05;

/**
 * How `model` (a number typed in a cell of `format`) matches FDQ's `value`, trying each scale and sign; the
 * closest match within the tolerance, or undefined (always for an FDQ value of 0, which says nothing). `tolerance` overrides the format's rounding (a relative
 * difference, e.g. 0.005 for half a percent). A cell formatted as a percent holds the ratio itself, so only
 * "ones" fits it; a percent scale fits only a ratio (|value| under 10).
 */
export function matchScale(
  model: number,
  value: number,
  format: string | undefined,
  tolerance?: number,
): ScaleMatch | undefined {
  if (!Number.isFinite(model) || !Number.isFinite(value) || value === 0) return undefined;
  const step = displayStep(model, format);
  let best: ScaleMatch | undefined;
  for (const scale of SCALES) {
    if (isPercentFormat(format) && scale.name !== "ones") continue;
    if (scale.name === "percent" && Math.abs(value) >= 10) continue;
    for (const sign of [1, -1] as const) {
      const expected = scaled(value, scale) * sign;
      const allowed =
        tolerance === undefined ? step / 2 + Math.abs(expected) * 1e-12 : Math.abs(expected) * tolerance;
      const off = Math.abs(model - expected);
      if (off > allowed || allowed > Math.abs(expected) * MAX_RELATIVE_TOLERANCE) continue;
      const difference = (model - expected) / Math.abs(expected);
      if (best === undefined || Math.abs(difference) < Math.abs(best.difference)) {
        best = { scale, sign, expected, difference, tolerance: allowed };
      }
    }
  }
  return best;
}
