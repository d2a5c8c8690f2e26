// How a call's period reads to an analyst: the catalog's Period words for the quarter and ttm arguments as
// a call states them (unchecked: an invalid pair reads as the annual figure, and Explain shows the error).
import {
  ANNUAL,
  periodDetail as detailOf,
  periodLabel as labelOf,
  periodOfArgs,
  type Period,
} from "../../catalog";

export interface PeriodChoice {
  readonly year: number;
  readonly quarter?: number | null;
  readonly ttm?: number | null;
}

const periodOf = (p: PeriodChoice): Period => {
  const period = periodOfArgs(p.quarter || null, p.ttm || null);
  return "problem" in period ? ANNUAL : period;
};

/** "FY2023", "Q2 FY2023", "TTM to Q2 FY2023". */
export const periodLabel = (p: PeriodChoice): string => labelOf(periodOf(p), p.year);

/** The quarters a period covers, as the spec defines them. */
export const periodDetail = (p: PeriodChoice): string => detailOf(periodOf(p), p.year);
