// Sector and industry aggregates, computed from the member companies so that they agree with what
// the other endpoints say about those members (counts from coverage, ratings, sums of datapoints).
import type { SectorDatapoint } from "../catalog";
import { hasData, lastFiscalYear } from "./availability";
import { specError } from "./errors";
import { annual, dayNumber, isoDate } from "./periods";
import { rating } from "./ratings";
import type { Security, Universe } from "./universe";
import { Evaluator } from "./values";

export interface SectorContext {
  readonly universe: Universe;
  readonly seed: number;
  readonly now: Date;
  /** Member values kept between requests ("ticker|name|year|day" -> value); the owner bounds it. */
  readonly memo?: Map<string, number>;
  /** Inputs of quarters before this index are restated (restate.ts); the memo's day keeps them apart. */
  readonly restated?: number;
}

/** Group sums: sector name -> company datapoint. */
const SUMS: Readonly<Record<string, string>> = {
  REVENUE: "REVENUE",
  INCOME_NET: "INCOME_NET",
  NOPAT: "NOPAT",
  FREE_CASH_FLOW: "FREE_CASH_FLOW",
  EQUITY_MARKET_VALUE: "EQUITY_MARKET_VALUE",
  ENTERPRISE_VALUE: "ENTERPRISE_VALUE",
  INVESTED_CAPITAL: "CAPITAL_INVESTED",
  ECONOMIC_BOOK_VALUE: "BOOK_VALUE_ECONOMIC",
  EARNINGS_REPORTED: "INCOME_NET",
  ECONOMIC_EARNINGS: "ECONOMIC_PROFIT",
};

/** Sector rating datapoints -> component rating field. */
const RATING_OF: Readonly<Record<string, string>> = {
  RATING_OVERALL: "rating_overall",
  RATING_FCF_YIELD: "rating_fcf_yield",
  RATING_GAP: "rating_gap",
  RATING_INCOME_NET_ECONOMIC_PROFIT: "rating_income_net_economic_profit",
  RATING_PEBV: "rating_stock_price_sa_p_ebv_p_sosa",
  RATING_ROIC: "rating_roic",
};

/** Company metrics named by sector statistics that are not datapoints themselves. */
const METRIC_ALIASES: Readonly<Record<string, string>> = {
  FCF_YIELD: "FREE_CASH_FLOW_PER_EQUITY_MARKET_VALUE",
  PEBV: "EQUITY_MARKET_VALUE_PER_BOOK_VALUE_ECONOMIC",
  ECONOMIC_PROFIT_GROWTH_PER_SHARE: "ECONOMIC_PROFIT_PER_WABSO_SPLIT_ADJUSTED_YOY_DELTA_PCT",
};

/** COUNT_<X>[_RATING_n]: which members X counts (COUNT_RATING_n counts companies). */
const COUNTED_TYPE: Readonly<Record<string, "stock" | "etf" | "mf">> = {
  COMPANY: "stock",
  RATING: "stock",
  ETF: "etf",
  MF: "mf",
};

/** A company's annual value of a datapoint. */
type ValueOf = (name: string, year: number) => number;
type Metric = (v: ValueOf, year: number) => number;

function metric(name: string): { fn: Metric; years: number } {
  const base = METRIC_ALIASES[name] ?? name;
  const pct = /^(.+)_YOY_DELTA_PCT$/.exec(base)?.[1];
  if (pct) return { fn: (v, y) => yoyPct(v(pct, y), v(pct, y - 1)), years: 2 };
  const delta = /^(.+)_YOY_DELTA$/.exec(base)?.[1];
  if (delta) return { fn: (v, y) => v(delta, y) - v(delta, y - 1), years: 2 };
  return { fn: (v, y) => v(base, y), years: 1 };
}

const yoyPct = (now: number, before: number): number =>
  before === 0 ? 0 : (now - before) / Math.abs(before);

const mean = (xs: readonly number[]): number => xs.reduce((a, b) => a + b, 0) / xs.length;

function median(xs: readonly number[]): number {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
}

export class SectorModel {
  constructor(private readonly ctx: SectorContext) {}

  /** Value of a sector datapoint for a sector/industry record, prior_year already validated. */
  value(group: Security, dp: SectorDatapoint, priorYear: number): number | string {
    return this.compute(group, dp.name, lastFiscalYear(this.ctx.now) - priorYear);
  }

  private stocks(group: Security): readonly Security[] {
    return this.ctx.universe.membersOf(group.ticker, "stock");
  }

  /** Annual values of one member, through the shared memo. */
  private valuesOf(s: Security): ValueOf {
    const day = dayNumber(this.ctx.now);
    let ev: Evaluator | undefined;
    return (name, year) => {
      const key = `${s.ticker}|${name}|${year}|${day}`;
      let v = this.ctx.memo?.get(key);
      if (v === undefined) {
        ev ??= new Evaluator(this.ctx.seed, s.ticker, day, undefined, this.ctx.restated);
        v = ev.value(name, annual(year));
        this.ctx.memo?.set(key, v);
      }
      return v;
    };
  }

  private compute(group: Security, name: string, year: number): number | string {
    if (name === "CATEGORY_TYPE") return group.type;
    if (name === "MODEL_DATE") return isoDate(this.ctx.now);
    const seed = this.ctx.seed;
    const overall = (s: Security): number => rating(seed, s.ticker, "rating_overall");
    const count = /^COUNT_(COMPANY|ETF|MF|RATING)(?:_RATING)?(?:_(\d))?$/.exec(name);
    if (count?.[1]) {
      const members = this.ctx.universe.membersOf(group.ticker, COUNTED_TYPE[count[1]] ?? "stock");
      return count[2] ? members.filter((s) => overall(s) === Number(count[2])).length : members.length;
    }
    const ratingField = RATING_OF[name];
    if (ratingField)
      return Math.round(mean(this.stocks(group).map((s) => rating(seed, s.ticker, ratingField))));
    if (name === "RATING_RANK") return this.rank(group);
    const byRating = /^EQUITY_MARKET_VALUE_RATING_(\d)$/.exec(name)?.[1];
    if (byRating)
      return this.aggregate(
        group,
        year,
        "sum",
        metric("EQUITY_MARKET_VALUE"),
        (s) => overall(s) === Number(byRating),
      );
    const summed = SUMS[name];
    if (summed) return this.aggregate(group, year, "sum", metric(summed));
    const stat = /^(.+)_(AVG|MEDIAN|WAVG)$/.exec(name);
    if (stat?.[1] && stat[2]) return this.aggregate(group, year, stat[2], metric(stat[1]));
    throw specError("SectorDataPointNotFound");
  }

  /** Rank (1 = best) of the group's mean overall rating among groups of its type. */
  private rank(group: Security): number {
    const scored = this.ctx.universe.list(group.type).map((g) => ({
      ticker: g.ticker,
      score: mean(this.stocks(g).map((s) => rating(this.ctx.seed, s.ticker, "rating_overall"))),
    }));
    scored.sort((a, b) => a.score - b.score || a.ticker.localeCompare(b.ticker));
    return scored.findIndex((g) => g.ticker === group.ticker) + 1;
  }

  private aggregate(
    group: Security,
    year: number,
    how: string,
    m: { fn: Metric; years: number },
    split?: (s: Security) => boolean,
  ): number {
    const rows: Array<{ x: number; weight: number }> = [];
    for (const s of this.stocks(group)) {
      if ((split && !split(s)) || !hasData(s, annual(year - m.years + 1), this.ctx.now)) continue;
      if (!hasData(s, annual(year), this.ctx.now)) continue;
      const v = this.valuesOf(s);
      rows.push({ x: m.fn(v, year), weight: how === "WAVG" ? v("EQUITY_MARKET_VALUE", year) : 1 });
    }
    // A split by rating may be empty (no member has that rating); a whole group without data for the
    // year (an early clock with a large prior_year) is not.
    if (how === "sum" && (rows.length > 0 || split)) return rows.reduce((acc, r) => acc + r.x, 0);
    if (rows.length === 0) throw specError("DataNotFound");
    if (how === "MEDIAN") return median(rows.map((r) => r.x));
    const total = rows.reduce((acc, r) => acc + r.weight, 0);
    return rows.reduce((acc, r) => acc + r.x * r.weight, 0) / total;
  }
}
