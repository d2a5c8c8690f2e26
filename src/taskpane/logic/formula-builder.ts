// The FDQ.DATAPOINT formula the builder inserts, written by src/functions' own formatter. A new formula asks
// for a relative period by default (FY0, FQ0 or LTM: the model then rolls forward by itself); a fixed fiscal
// year, quarter or ttm window is one choice away.
import { isFiscalYear, isPeriodNumber, PERIOD_NUMBERS, type PeriodKind } from "../../catalog";
import { formatFormula } from "../../functions/formula";

export type { PeriodKind };

/** The builder's period choices: a relative period, or a fixed fiscal year (with `kind` and `quarter`). */
export type BuilderWhen = "FY0" | "FQ0" | "LTM" | "fixed";

/** The choices in the order the builder offers them, with their words; the first is the default. */
export const BUILDER_WHEN: readonly { readonly value: BuilderWhen; readonly label: string }[] = [
  { value: "FY0", label: "Latest fiscal year (FY0)" },
  { value: "FQ0", label: "Latest quarter (FQ0)" },
  { value: "LTM", label: "Last twelve months (LTM)" },
  { value: "fixed", label: "A fixed fiscal year" },
];

export const DEFAULT_WHEN: BuilderWhen = "FY0";

export interface BuilderChoice {
  readonly ticker: string;
  readonly dataset: string;
  readonly datapoint: string;
  /** A relative period, or "fixed" (the default when left out) for `year`, `kind` and `quarter`. */
  readonly when?: BuilderWhen;
  readonly year: number;
  readonly kind: PeriodKind;
  /** 1..4, for quarter and ttm. */
  readonly quarter: number;
}

const isFixed = (choice: BuilderChoice): boolean => (choice.when ?? "fixed") === "fixed";

/** Why the choice cannot make a formula yet, or undefined when it can. */
export function builderProblem(choice: BuilderChoice): string | undefined {
  if (!/^[A-Za-z0-9.:\-^/]+$/.test(choice.ticker.trim())) return "Enter a ticker, e.g. AAPL.";
  if (!isFixed(choice)) return undefined;
  if (!isFiscalYear(choice.year)) return "Enter a fiscal year.";
  if (choice.kind !== "annual" && !isPeriodNumber(choice.quarter)) {
    return `Choose a quarter from ${PERIOD_NUMBERS[0]} to ${PERIOD_NUMBERS[PERIOD_NUMBERS.length - 1]}.`;
  }
  return undefined;
}

export function builderFormula(choice: BuilderChoice): string {
  const head = [choice.ticker.trim().toUpperCase(), choice.dataset, choice.datapoint];
  if (!isFixed(choice)) return formatFormula({ name: "DATAPOINT", args: [...head, choice.when!] });
  const quarter = choice.kind === "quarter" ? choice.quarter : null;
  const ttm = choice.kind === "ttm" ? choice.quarter : null;
  return formatFormula({ name: "DATAPOINT", args: [...head, choice.year, quarter, ttm] });
}
