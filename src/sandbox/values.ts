// Datapoint values, generated on demand for one (ticker, period) and never stored beyond a request.
// Inputs are pure functions of (seed, ticker, name, quarter); computed lines come from formulas.ts;
// aggregation over quarters follows classify.ts.
import { DATASETS } from "../catalog";
import { classify, type ValueKind } from "./classify";
import { formulaFor } from "./formulas";
import { quarterIndex, windowIndexes, endIndex, periodKey, FIRST_FISCAL_YEAR, type Period } from "./periods";
import { unit, unitAfter, unitPrefix } from "./prng";
import { restatementFactor } from "./restate";

/** Names flagged (SP) anywhere in the catalog: their inputs move with the daily price. */
export const SP_NAMES: ReadonlySet<string> = new Set(
  DATASETS.flatMap((d) => d.datapoints.filter((p) => p.sp).map((p) => p.name)),
);

/** Share of annual revenue (flows) or of the company's size (balances) for the main lines. */
const WEIGHTS: Readonly<Record<string, number>> = {
  REVENUE: 1,
  SALES_COST: 0.6,
  EXPENSES_OPERATING: 0.8,
  INCOME_OPERATING: 0.04,
  INCOME_NET: 0.08,
  INCOME_TAX: 0.02,
  EXPENSES_SGA: 0.15,
  RESEARCH_AND_DEVELOPMENT_EXPENSE: 0.05,
  EBIT: 0.12,
  EBITA: 0.12,
  NOPBT: 0.13,
  CASH_FLOW_OPERATING: 0.14,
  CAPEX: 0.06,
  CAPITAL_CHARGE: 0.06,
  EQUITY_SHAREHOLDER: 0.8,
  DEBT: 0.45,
  DEBT_ADJUSTED: 0.5,
  ASSETS: 1.6,
  ASSETS_CURRENT: 0.5,
  ASSETS_FIXED: 0.6,
  EQUITY_MARKET_VALUE: 2.2,
  NIBCL: 0.2,
  LIABILITIES_CURRENT: 0.35,
  LIABILITIES_NON_CURRENT: 0.5,
  EARNINGS_RETAINED: 0.5,
  ACCOUNTS_RECEIVABLE: 0.12,
  ACCOUNTS_PAYABLE: 0.1,
  INVENTORY: 0.1,
  DEPRECIATION_AND_AMORTIZATION_ACCUMULATED: 0.4,
};

/** Inputs that can be negative (distortions, deltas, funded status, taxes on non-operating items). */
const SIGNED = /DISTORTION|DELTA|^OCI|PENSION_FUNDED|FOREIGN_CURRENCY|NON_OPERATING_TAXES|DERIVED_DATAPOINTS/;

/** Ranges of ratio inputs (those without a formula). */
const RATIO_RANGES: ReadonlyArray<readonly [RegExp, number, number]> = [
  [/^WACC$/, 0.05, 0.11],
  [/_RATE$/, 0.12, 0.3],
  [/^DAYS_/, 15, 90],
  [/^GAP$/, 0, 40],
];

interface Line {
  readonly kind: ValueKind;
  /** Quarterly scale of flows, size of balances, share count of averages. */
  readonly scale: number;
  readonly signed: boolean;
  /** The day's price effect (1 unless the line is (SP)). */
  readonly price: number;
  /** unitPrefix of the line's per-quarter draws. */
  readonly draws: number;
  /** Factor of the line's restated quarters (1 when nothing is restated). */
  readonly restate: number;
}

const FIRST_QUARTER = quarterIndex(FIRST_FISCAL_YEAR, 1);

// Math.round and -Infinity held in module constants: in a vm context (jest runs every test file in one) each read
// of a global goes through the context's interceptors, which made these per-value paths many times slower there.
const round = Math.round;
const NOTHING_RESTATED = -Infinity;
const cents = (x: number): number => round(x * 100) / 100;
const micro = (x: number): number => round(x * 1e6) / 1e6;

export class Evaluator {
  private readonly memo = new Map<string, number>();
  private readonly active = new Set<string>();
  private readonly lines = new Map<string, Line>();
  private readonly size: number;
  private readonly growth: number;
  /** Inputs of quarters before this index are restated. */
  private readonly restatedBefore: number;

  /**
   * @param ticker primary ticker of a company
   * @param day UTC day number: only (SP) inputs depend on it
   * @param onInput called with every input name read (used to find what a name depends on)
   * @param restatedBefore inputs of quarters before this quarter index are restated (restate.ts): each
   *   input line is scaled by its own fixed factor, so everything computed from the inputs moves with them
   */
  constructor(
    private readonly seed: number,
    private readonly ticker: string,
    private readonly day: number,
    private readonly onInput?: (name: string) => void,
    restatedBefore?: number,
  ) {
    this.size = 10 ** (7.5 + 3.5 * unit(seed, ticker, "size"));
    this.growth = -0.04 + 0.18 * unit(seed, ticker, "growth");
    this.restatedBefore = restatedBefore ?? NOTHING_RESTATED;
  }

  value(name: string, p: Period): number {
    const key = `${name}@${periodKey(p)}`;
    const known = this.memo.get(key);
    if (known !== undefined) return known;
    if (this.active.has(key)) throw new Error(`formula cycle at ${key}`);
    this.active.add(key);
    const formula = formulaFor(name);
    const result = formula
      ? formula({ period: p, v: (n) => this.value(n, p), at: (n, q) => this.value(n, q) })
      : this.input(name, p);
    this.active.delete(key);
    this.memo.set(key, result);
    return result;
  }

  private input(name: string, p: Period): number {
    this.onInput?.(name);
    const kind = classify(name);
    if (kind === "ratio" || kind === "derived") return this.ratioInput(name, p);
    if (kind === "balance") return this.quarterInput(name, endIndex(p));
    const quarters = windowIndexes(p).map((i) => this.quarterInput(name, i));
    const total = quarters.reduce((a, b) => a + b, 0);
    return kind === "average" ? total / quarters.length : total;
  }

  /** The price effect of the day on (SP) inputs: +-10% around the fundamentals. */
  private priceFactor(name: string): number {
    return SP_NAMES.has(name) ? 0.9 + 0.2 * unit(this.seed, this.ticker, "price", this.day) : 1;
  }

  /** What does not change from quarter to quarter: the line's scale for this company and its kind. */
  private lineOf(name: string): Line {
    let line = this.lines.get(name);
    if (!line) {
      const kind = classify(name);
      const weight = WEIGHTS[name] ?? (kind === "flow" ? 0.001 : 0.01) * 15 ** unit(0, "weight", name);
      const company = 0.5 + unit(this.seed, this.ticker, name, "company");
      const scale =
        kind === "average"
          ? this.size / (20 + 180 * unit(this.seed, this.ticker, name, "price"))
          : this.size * weight * company * (kind === "flow" ? 0.25 : 1);
      line = {
        kind,
        scale,
        signed: SIGNED.test(name),
        price: this.priceFactor(name),
        draws: unitPrefix(this.seed, this.ticker, name),
        restate:
          this.restatedBefore === NOTHING_RESTATED ? 1 : restatementFactor(this.seed, this.ticker, name),
      };
      this.lines.set(name, line);
    }
    return line;
  }

  private quarterInput(name: string, index: number): number {
    const line = this.lineOf(name);
    const u = unitAfter(line.draws, index);
    const level = (1 + this.growth) ** ((index - FIRST_QUARTER) / 4);
    let x: number;
    if (line.kind === "average") x = line.scale * (0.99 + 0.02 * u);
    else if (line.kind === "balance") x = line.scale * level * (0.97 + 0.06 * u);
    else x = line.scale * level * (0.85 + 0.3 * u);
    // The low bits of the same draw decide the sign, so signed lines cost no second hash.
    if (line.signed && (u * 1000) % 1 < 0.35) x = -x;
    // Multiplying by 1 is exact: without a restatement the values are those of before.
    return cents(x * line.price * (index < this.restatedBefore ? line.restate : 1));
  }

  private ratioInput(name: string, p: Period): number {
    const [, lo, hi] = RATIO_RANGES.find(([re]) => re.test(name)) ?? [null, 0.01, 0.5];
    const u = unit(this.seed, this.ticker, name, periodKey(p));
    const restate = endIndex(p) < this.restatedBefore ? this.lineOf(name).restate : 1;
    return micro((lo + (hi - lo) * u) * this.priceFactor(name) * restate);
  }
}

/** Decimal text with exactly 17 digits after the point and at most 15 significant digits. */
export function formatDecimal(x: number): string {
  const value = Number.isFinite(x) ? x : 0;
  const abs = Math.abs(value);
  const intDigits = abs < 1 ? 1 : Math.floor(Math.log10(abs)) + 1;
  const fixed = value.toFixed(Math.max(0, Math.min(17, 15 - intDigits)));
  const [whole = "0", frac = ""] = fixed.split(".");
  const sign = whole.startsWith("-") && /[1-9]/.test(fixed) ? "-" : "";
  return `${sign}${whole.replace("-", "")}.${frac.padEnd(17, "0")}`;
}
