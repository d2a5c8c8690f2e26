// The benchmark's universe, read from the sandbox's own universe module (no request is spent on it):
// every stock with its first fiscal year, every rated security, and the last complete fiscal year.
import { lastFiscalYear } from "../src/sandbox/availability";
import { isRated } from "../src/sandbox/ratings";
import { universeFor } from "../src/sandbox/universe";
import type { Universe } from "./workloads";

export function sandboxUniverse(seed: number, now: Date): Universe {
  const universe = universeFor(seed);
  return {
    stocks: universe.list("stock").map((s) => ({ ticker: s.ticker, firstYear: s.firstYear })),
    rated: (["stock", "etf", "mf"] as const).flatMap((type) =>
      universe
        .list(type)
        .filter(isRated)
        .map((s) => s.ticker),
    ),
    lastYear: lastFiscalYear(now),
  };
}
