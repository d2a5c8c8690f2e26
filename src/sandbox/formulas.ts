// Which datapoints the sandbox computes from others, so that one name has one value per ticker and
// period in every dataset. Precedence: explicit formulas, then plugs, then the first walk (in catalog
// order) that computes the name, then the name patterns X_PER_Y and X_MARGIN. Every other name is an
// input drawn by values.ts.
import { DATASETS, findDataset } from "../catalog";
import { quarterAt, startIndex, windowIndexes, periodDays, type Period } from "./periods";
import { evaluateWalk, leafCoefficients, walkFormulas } from "./walks";

// Math.abs from a module constant: global reads are slow inside jest's vm context (see prng.ts).
const abs = Math.abs;

export interface FormulaContext {
  readonly period: Period;
  /** Value of a name in the same period. */
  v(name: string): number;
  /** Value of a name in another period. */
  at(name: string, period: Period): number;
}

export type Formula = (ctx: FormulaContext) => number;

const div = (a: number, b: number): number => (abs(b) < 1e-9 ? 0 : a / b);
const sum = (ctx: FormulaContext, names: readonly string[]): number =>
  names.reduce((acc, n) => acc + ctx.v(n), 0);

/** Inputs that several walks arrive at from different sides; they stay inputs and plugs close the walks. */
const INPUTS = new Set(["INCOME_NET"]);

const beginning =
  (name: string): Formula =>
  (c) =>
    c.at(name, quarterAt(startIndex(c.period)));
const yoyAverage =
  (name: string): Formula =>
  (c) =>
    (beginning(name)(c) + c.v(name)) / 2;

/** Walk lines whose parts come from another walk: [dataset, plug line, result line]. */
const PLUGS: ReadonlyArray<readonly [string, string, string]> = [
  [
    "reconciliation/core-earnings-to-net-income",
    "CORE_EARNINGS_DISTORTION_CHARGES_AFTER_TAX_OTHER",
    "INCOME_NET",
  ],
  ["reconciliation/net-income-to-nopat-detailed", "CLASSIFICATION_DISCLOSURE_ADJUSTMENT", "NOPAT"],
  ["reconciliation/total-assets-to-invested-capital", "ASSETS_UNADJUSTED", "CAPITAL_INVESTED"],
];

/** Reported non-operating pairs of the sum-count walk and the detailed walk's line each one nets to. */
const REPORTED_PAIRS: ReadonlyArray<readonly [string, string]> = [
  ["SUM_EXPENSES_NON_OPERATING_DERIVATIVE", "EXPENSES_DERIVATIVE"],
  ["SUM_EXPENSES_NON_OPERATING_OTHER_FINANCING", "EXPENSES_OTHER_FINANCING"],
  ["SUM_EXPENSES_NON_OPERATING_COMPANY_DEFINED_OTHER", "EXPENSES_NON_OPERATING_COMPANY_DEFINED_OTHER"],
  ["SUM_EXPENSES_NON_OPERATING_ACQUISITION_MERGER", "EXPENSES_ACQUISITION_MERGER"],
];
const REMAINDER_PAIR = "SUM_EXPENSES_NON_OPERATING_LEGAL_REG_INSURANCE";

function explicitFormulas(): Map<string, Formula> {
  const f = new Map<string, Formula>();
  // Each hidden line nets its increases and decreases (sum-count walk).
  const sumCount = findDataset("reconciliation/net-income-to-nopat-detailed-sum-count");
  for (const p of sumCount?.datapoints ?? []) {
    const base = /^(HIDDEN_.*)_INCREASE$/.exec(p.name)?.[1];
    if (base) f.set(base, (c) => c.v(`${base}_INCREASE`) - c.v(`${base}_DECREASE`));
  }
  for (const [pair, line] of REPORTED_PAIRS)
    f.set(line, (c) => c.v(`${pair}_INCREASE`) - c.v(`${pair}_DECREASE`));
  f.set(`${REMAINDER_PAIR}_INCREASE`, (c) => {
    const listed = REPORTED_PAIRS.reduce((acc, [, line]) => acc + c.v(line), 0);
    return c.v(`${REMAINDER_PAIR}_DECREASE`) + c.v("EXPENSES_NON_OPERATING") - listed;
  });
  f.set("PROFIT_GROSS", (c) => c.v("REVENUE") - c.v("SALES_COST"));
  f.set("INCOME_PRE_TAX", (c) => c.v("INCOME_NET") + c.v("INCOME_TAX"));
  f.set("WADSO", (c) => c.v("WABSO") * 1.03);
  f.set("WADSO_SPLIT_ADJUSTED", (c) => c.v("WABSO_SPLIT_ADJUSTED") * 1.03);
  // Invested capital variants (metrics/roic).
  f.set("CAPITAL_INVESTED_BEGINNING", beginning("CAPITAL_INVESTED"));
  f.set("CAPITAL_INVESTED_YOY_AVG", yoyAverage("CAPITAL_INVESTED"));
  f.set("CAPITAL_INVESTED_Q_AVG", (c) => {
    const end = windowIndexes(c.period).at(-1) ?? 0;
    return [3, 2, 1, 0].reduce((acc, k) => acc + c.at("CAPITAL_INVESTED", quarterAt(end - k)), 0) / 4;
  });
  // Acquisitions during the period count for half of it.
  f.set("CAPITAL_INVESTED_ADJUSTED", (c) => c.v("CAPITAL_INVESTED_YOY_AVG") + c.v("CAPEX_ACQUISITION") / 2);
  f.set("CAPITAL_INVESTED_GAAP", (c) => sum(c, ["EQUITY_SHAREHOLDER", "DEBT"]));
  f.set("CAPITAL_INVESTED_ADJUSTED_GAAP", yoyAverage("CAPITAL_INVESTED_GAAP"));
  f.set("CAPITAL_INVESTED_GROSS", (c) =>
    sum(c, ["CAPITAL_INVESTED", "DEPRECIATION_AND_AMORTIZATION_ACCUMULATED"]),
  );
  f.set("CAPITAL_INVESTED_GROSS_ADJUSTED", (c) =>
    sum(c, ["CAPITAL_INVESTED_ADJUSTED", "DEPRECIATION_AND_AMORTIZATION_ACCUMULATED"]),
  );
  f.set("NOPAT_GAAP", (c) => sum(c, ["INCOME_NET", "EXPENSES_INTEREST"]));
  f.set("NOPAT_GROSS", (c) => sum(c, ["NOPAT", "DEPRECIATION_AND_AMORTIZATION_CASH_FLOW_SINGLE_PERIOD"]));
  const ratio =
    (num: string, den: string): Formula =>
    (c) =>
      div(c.v(num), c.v(den));
  f.set("ROIC", ratio("NOPAT", "CAPITAL_INVESTED_ADJUSTED"));
  f.set("ROIC_CAPITAL_INVESTED", ratio("NOPAT", "CAPITAL_INVESTED"));
  f.set("ROIC_CAPITAL_INVESTED_BEGINNING", ratio("NOPAT", "CAPITAL_INVESTED_BEGINNING"));
  f.set("ROIC_CAPITAL_INVESTED_Q_AVG", ratio("NOPAT", "CAPITAL_INVESTED_Q_AVG"));
  f.set("ROIC_CAPITAL_INVESTED_YOY_AVG", ratio("NOPAT", "CAPITAL_INVESTED_YOY_AVG"));
  f.set("ROIC_GAAP", ratio("NOPAT_GAAP", "CAPITAL_INVESTED_ADJUSTED_GAAP"));
  f.set("ROGIC", ratio("NOPAT_GROSS", "CAPITAL_INVESTED_GROSS_ADJUSTED"));
  // Free cash flow = NOPAT - net new investment; it telescopes, so quarters add up to the year.
  f.set(
    "FREE_CASH_FLOW",
    (c) => c.v("NOPAT") - (c.v("CAPITAL_INVESTED") - c.v("CAPITAL_INVESTED_BEGINNING")),
  );
  f.set("ECONOMIC_PROFIT", (c) => c.v("NOPAT") - c.v("CAPITAL_CHARGE"));
  f.set("ACCOUNTS_RECEIVABLE_TURNOVER", ratio("REVENUE", "ACCOUNTS_RECEIVABLE"));
  f.set("ACCOUNTS_PAYABLE_TURNOVER", ratio("SALES_COST", "ACCOUNTS_PAYABLE"));
  f.set("CAPITAL_INVESTED_ADJUSTED_TURNS", ratio("REVENUE", "CAPITAL_INVESTED_ADJUSTED"));
  const days =
    (num: string, den: string): Formula =>
    (c) =>
      div(c.v(num), c.v(den)) * periodDays(c.period);
  f.set("DAYS_REVENUE_OUTSTANDING", days("ACCOUNTS_RECEIVABLE", "REVENUE"));
  f.set("DAYS_IN_ACCOUNTS_PAYABLE", days("ACCOUNTS_PAYABLE", "SALES_COST"));
  f.set(
    "CASH_CONVERSION_CYCLE",
    (c) => c.v("DAYS_REVENUE_OUTSTANDING") + c.v("DAYS_IN_INVENTORY") - c.v("DAYS_IN_ACCOUNTS_PAYABLE"),
  );
  return f;
}

function plugFormula(datasetPath: string, plug: string, result: string): Formula {
  const dataset = findDataset(datasetPath);
  if (!dataset) throw new Error(`unknown dataset ${datasetPath}`);
  const coefs = leafCoefficients(dataset, result);
  const own = coefs.get(plug);
  if (!own) throw new Error(`${plug} is not an input of ${result} in ${datasetPath}`);
  const others = [...coefs].filter(([name]) => name !== plug);
  return (c) => (c.v(result) - others.reduce((acc, [name, k]) => acc + k * c.v(name), 0)) / own;
}

function buildFormulas(): Map<string, Formula | null> {
  const formulas: Map<string, Formula | null> = explicitFormulas();
  for (const [dataset, plug, result] of PLUGS) formulas.set(plug, plugFormula(dataset, plug, result));
  for (const dataset of DATASETS) {
    for (const walk of walkFormulas(dataset)) {
      if (formulas.has(walk.name) || INPUTS.has(walk.name)) continue;
      formulas.set(walk.name, (c) => evaluateWalk(walk, c.v));
    }
  }
  return formulas;
}

/** `_PER_ASSETS` in the earnings-distortion datasets divides by the total assets shown beside it. */
const DENOMINATOR_ALIASES: Readonly<Record<string, string>> = { ASSETS: "ASSETS_UNADJUSTED" };

function patternFormula(name: string): Formula | undefined {
  const per = /^(.+?)_PER_(.+)$/.exec(name);
  if (per?.[1] && per[2]) {
    const [num, den] = [per[1], DENOMINATOR_ALIASES[per[2]] ?? per[2]];
    return (c) => div(c.v(num), c.v(den));
  }
  const margin = /^(.+)_MARGIN$/.exec(name)?.[1];
  if (margin) return (c) => div(c.v(margin), c.v("REVENUE"));
  return undefined;
}

let table: Map<string, Formula | null> | undefined;

/** The formula that computes a name, or undefined when the name is an input. */
export function formulaFor(name: string): Formula | undefined {
  table ??= buildFormulas();
  let formula = table.get(name);
  if (formula === undefined) {
    // Inputs are remembered as null; callers pass catalog and formula names only, so this stays small.
    formula = patternFormula(name) ?? null;
    table.set(name, formula);
  }
  return formula ?? undefined;
}
