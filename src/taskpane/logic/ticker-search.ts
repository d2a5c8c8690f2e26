// Ticker lookup over the coverage lists: by ticker or by words of the security's name.
import type { CoverageItem } from "../../api";

export interface Security {
  readonly ticker: string;
  readonly name: string;
  /** stock, etf, mf or inactive. */
  readonly type: string;
  readonly lastTradeDate: string;
}

interface Indexed {
  readonly security: Security;
  readonly ticker: string;
  readonly name: string;
  readonly words: readonly string[];
}

/** Rank of a match: lower is better; undefined when it does not match. */
function rank(item: Indexed, query: string): number | undefined {
  if (item.ticker === query) return 0;
  if (item.ticker.startsWith(query)) return 1;
  if (item.name.startsWith(query)) return 2;
  if (item.words.some((w) => w.startsWith(query))) return 3;
  if (query.length >= 3 && item.name.includes(query)) return 4;
  return undefined;
}

export class SecurityIndex {
  private readonly items: readonly Indexed[];

  constructor(securities: readonly Security[]) {
    this.items = securities.map((security) => ({
      security,
      ticker: security.ticker.toLowerCase(),
      name: security.name.toLowerCase(),
      words: security.name
        .toLowerCase()
        .split(/[^a-z0-9]+/)
        .filter(Boolean),
    }));
  }

  static fromCoverage(lists: readonly (readonly CoverageItem[])[], types: readonly string[]): SecurityIndex {
    return new SecurityIndex(
      lists.flatMap((list, i) =>
        list.map((c) => ({
          ticker: c.ticker,
          name: c.name,
          type: types[i] ?? c.type,
          lastTradeDate: c.last_trade_date,
        })),
      ),
    );
  }

  get size(): number {
    return this.items.length;
  }

  /** Every security matching the query (all of them for an empty one): tickers first, then names. */
  search(query: string, type?: string): Security[] {
    const q = query.trim().toLowerCase();
    const pool = type ? this.items.filter((i) => i.security.type === type) : this.items;
    if (q === "") return pool.map((i) => i.security);
    const ranked: { item: Indexed; rank: number }[] = [];
    for (const item of pool) {
      const r = rank(item, q);
      if (r !== undefined) ranked.push({ item, rank: r });
    }
    ranked.sort((a, b) => a.rank - b.rank || a.item.ticker.localeCompare(b.item.ticker));
    return ranked.map((r) => r.item.security);
  }
}
