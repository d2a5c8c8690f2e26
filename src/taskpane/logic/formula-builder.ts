// The FDQ.DATAPOINT formula the builder inserts, written by src/functions' own formatter.
import { isFiscalYear, isPeriodNumber, type PeriodKind } from "../../catalog";
import { formatFormula } from "../../functions/formula";

export type { PeriodKind };

export interface BuilderChoice {
  readonly ticker: string;
  readonly dataset: string;
  readonly datapoint: string;
  readonly year: number;
  readonly kind: PeriodKind;
  /** 1..4, for quarter and ttm. */
  readonly quarter: number;
}

/** Why the choice cannot make a formula yet, or undefined when it can. */
export function builderProblem(choice: BuilderChoice): string | undefined {
  if (!/^[A-Za-z0-9.:\-^/]+$/.test(choice.ticker.trim())) return "Enter a ticker, e.g. AAPL.";
  if (!isFiscalYear(choice.year)) return "Enter a fiscal year.";
  if (choice.kind !== "annual" && !isPeriodNumber(choice.quarter)) return "Choose a quarter from 1 to 4.";
  return undefined;
}

export function builderFormula(choice: BuilderChoice): string {
  const quarter = choice.kind === "quarter" ? choice.quarter : null;
  const ttm = choice.kind === "ttm" ? choice.quarter : null;
  return formatFormula({
    name: "DATAPOINT",
    args: [choice.ticker.trim().toUpperCase(), choice.dataset, choice.datapoint, choice.year, quarter, ttm],
  });
}
