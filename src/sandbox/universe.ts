// The covered securities: built once per seed (about 10,600 small records); their datapoints are
// never stored (values.ts computes them per request).
import type { SecurityType } from "../catalog";
import { companyName, fundName, letters } from "./names";
import { FIRST_FISCAL_YEAR } from "./periods";
import { Rng } from "./prng";
import { INDUSTRIES, SECTORS, type Classification, type IndustryDef, type SectorDef } from "./taxonomy";

export interface Security {
  readonly ticker: string;
  readonly name: string;
  readonly type: SecurityType;
  readonly sector: SectorDef;
  /** Absent for sector records. */
  readonly industry?: IndustryDef;
  /** Absent when the security has none. */
  readonly subsector?: Classification;
  readonly subindustry?: Classification;
  /** Serve a missing subsector/subindustry as null instead of "NA", as production sometimes does. */
  readonly noneAsNull?: boolean;
  /** First fiscal year with data (companies). */
  readonly firstYear: number;
  /** Month (1-12) the fiscal year ends in; December when absent. Fiscal year Y ends in that month of Y. */
  readonly fiscalYearEnd?: number;
  /** Days after a period's end before it is filed (served); 0 when absent. */
  readonly filingLagDays?: number;
  /** Inactive stocks: last fiscal year with data and the last trade date. */
  readonly lastYear?: number;
  readonly lastTradeDate?: string;
}

/** A Security being filled in by generate() (firstYear set last); added once complete. */
type Draft = { -readonly [K in keyof Security]?: Security[K] };

export const UNIVERSE_SIZE = { stock: 2760, etf: 1030, mf: 6480, inactive: 320 } as const;

const industryOf = (id: string): (typeof INDUSTRIES)[number] =>
  INDUSTRIES.find((i) => i.id === id) ?? INDUSTRIES[0]!;

function fixed(
  ticker: string,
  name: string,
  type: SecurityType,
  industryId: string,
  extra: Partial<Security> = {},
): Security {
  const industry = industryOf(industryId);
  return { ticker, name, type, sector: industry.sector, industry, firstYear: FIRST_FISCAL_YEAR, ...extra };
}

/** The identifiers seen in production (production-service.md, fact 8) with invented names, a class-B ticker and reused inactive tickers. */
const FIXED: readonly Security[] = [
  fixed("AAPL", "Aplo Synthetic Holdings", "stock", "TECHHARDWAREI", {
    subsector: { id: "TECHHARDWARESUB", name: "Technology Hardware" },
    subindustry: { id: "CONSUMERDEVICESSUBI", name: "Consumer Devices" },
  }),
  fixed("MSFT", "Mosoft Synthetic Systems", "stock", "SOFTWAREI", {
    subsector: { id: "SOFTWARESERVICESSUB", name: "Software & Services" },
  }),
  fixed("NFLX", "Nelfix Synthetic Media", "stock", "MEDIAENTERTAINMENTI", {
    noneAsNull: true,
    firstYear: 2010,
  }),
  fixed("BF.A", "Brofo Synthetic Distillers", "stock", "BEVERAGESI", {
    subindustry: { id: "DISTILLERSSUBI", name: "Distillers" },
  }),
  // A fiscal year that ends in September, filed 35 days after each quarter (fiscal Q1 ends in December).
  fixed("SEPCO", "Septo Synthetic Retail", "stock", "RETAILI", {
    fiscalYearEnd: 9,
    filingLagDays: 35,
  }),
  fixed("XLF", "Xelfa Synthetic Financials ETF", "etf", "BANKSI"),
  fixed("QQQ", "Quqon Synthetic Hundred ETF", "etf", "SOFTWAREI"),
  fixed("GAFFX", "Gaffo Synthetic Growth Fund", "mf", "SOFTWAREI"),
  fixed("AUENX", "Auveno Synthetic Energy Fund", "mf", "OILGASI"),
  fixed("ENRN:1", "Enrano Synthetic Energy Corp", "inactive", "OILGASI", {
    lastYear: 2011,
    lastTradeDate: "2012-03-15",
  }),
  fixed("X:1", "Xando Synthetic Steel", "inactive", "METALSMININGI", {
    lastYear: 2014,
    lastTradeDate: "2015-02-10",
  }),
  fixed("X:2", "Xeluma Synthetic Networks", "inactive", "WIRELESSI", {
    lastYear: 2019,
    lastTradeDate: "2020-06-30",
    firstYear: 2012,
  }),
];

/** Second share classes: the ticker answers with the primary ticker's data (spec fact 5). */
export const SHARE_CLASS_ALIASES: ReadonlyMap<string, string> = new Map([["BF.B", "BF.A"]]);

export class Universe {
  private readonly byTicker = new Map<string, Security>();
  private readonly byType = new Map<SecurityType, Security[]>();
  private readonly members = new Map<string, Security[]>();

  constructor(seed: number) {
    for (const s of FIXED) this.add(s);
    for (const s of SECTORS)
      this.add({ ticker: s.id, name: s.name, type: "sector", sector: s, firstYear: FIRST_FISCAL_YEAR });
    for (const i of INDUSTRIES)
      this.add({
        ticker: i.id,
        name: i.name,
        type: "industry",
        sector: i.sector,
        industry: i,
        firstYear: FIRST_FISCAL_YEAR,
      });
    const rng = new Rng(seed, "universe");
    this.generate(rng, "stock", () => letters(rng, rng.pick([1, 2, 3, 3, 4, 4, 4])));
    this.generate(rng, "etf", () => letters(rng, rng.int(3, 4)));
    this.generate(rng, "mf", () => `${letters(rng, 4)}X`);
    this.generateInactive(rng);
  }

  /** The security a ticker names (any case; second share classes resolve to the primary). */
  resolve(ticker: string): Security | undefined {
    const upper = ticker.toUpperCase();
    return this.byTicker.get(SHARE_CLASS_ALIASES.get(upper) ?? upper);
  }

  list(type: SecurityType): readonly Security[] {
    return this.byType.get(type) ?? [];
  }

  /** Securities of a type that belong to a sector or industry (by id). */
  membersOf(id: string, type: SecurityType): readonly Security[] {
    return this.members.get(`${id}|${type}`) ?? [];
  }

  private add(s: Security): void {
    this.byTicker.set(s.ticker, s);
    const list = this.byType.get(s.type);
    if (list) list.push(s);
    else this.byType.set(s.type, [s]);
    if (s.type === "sector" || s.type === "industry" || s.type === "inactive") return;
    this.addMember(s.sector.id, s);
    if (s.industry) this.addMember(s.industry.id, s);
  }

  private addMember(id: string, s: Security): void {
    const key = `${id}|${s.type}`;
    const group = this.members.get(key);
    if (group) group.push(s);
    else this.members.set(key, [s]);
  }

  // Each record is built field by field (ticker, name, type, sector, industry, subsector, subindustry,
  // noneAsNull, firstYear) in this order because that is the order the draws from rng define the universe;
  // plain assignments, not object spreads, because this loop runs at every sandbox start.
  private generate(rng: Rng, type: "stock" | "etf" | "mf", ticker: () => string): void {
    let none = 0;
    while (this.list(type).length < UNIVERSE_SIZE[type]) {
      const symbol = ticker();
      if (this.byTicker.has(symbol) || SHARE_CLASS_ALIASES.has(symbol) || symbol === "X") continue;
      const industry = rng.pick(INDUSTRIES);
      const subsector =
        rng.next() < 0.7 && industry.sector.subsectors.length
          ? rng.pick(industry.sector.subsectors)
          : undefined;
      const subindustry =
        rng.next() < 0.5 && industry.subindustries.length ? rng.pick(industry.subindustries) : undefined;
      const hasNone = !subsector || !subindustry;
      const record: Draft = {
        ticker: symbol,
        name: type === "stock" ? companyName(rng) : fundName(rng, type === "etf" ? "ETF" : "Fund"),
        type,
        sector: industry.sector,
        industry,
      };
      if (subsector) record.subsector = subsector;
      if (subindustry) record.subindustry = subindustry;
      // Every ninth record that lacks a subsector or subindustry serves null (production-service.md, fact 3).
      if (hasNone && ++none % 9 === 0) record.noneAsNull = true;
      record.firstYear = rng.next() < 0.7 ? FIRST_FISCAL_YEAR : rng.int(FIRST_FISCAL_YEAR + 1, 2020);
      this.add(record as Security);
    }
  }

  private generateInactive(rng: Rng): void {
    while (this.list("inactive").length < UNIVERSE_SIZE.inactive) {
      const base = letters(rng, rng.int(2, 4));
      const count = rng.next() < 0.06 ? 2 : 1;
      if (this.byTicker.has(`${base}:1`)) continue;
      for (let n = 1; n <= count; n++) {
        const industry = rng.pick(INDUSTRIES);
        const firstYear = rng.next() < 0.6 ? FIRST_FISCAL_YEAR : rng.int(FIRST_FISCAL_YEAR + 1, 2015);
        const lastYear = rng.int(firstYear, 2022);
        const day = String(rng.int(1, 28)).padStart(2, "0");
        const month = String(rng.int(1, 12)).padStart(2, "0");
        this.add({
          ticker: `${base}:${n}`,
          name: companyName(rng),
          type: "inactive",
          sector: industry.sector,
          industry,
          firstYear,
          lastYear,
          lastTradeDate: `${lastYear + 1}-${month}-${day}`,
        });
      }
    }
  }
}

const cache = new Map<number, Universe>();

/** The universe of a seed (built on first use and shared, since it never changes). */
export function universeFor(seed: number): Universe {
  let u = cache.get(seed);
  if (!u) {
    u = new Universe(seed);
    cache.set(seed, u);
  }
  return u;
}
