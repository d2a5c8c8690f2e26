import type { Universe } from "../../../bench/workloads";

/**
 * A universe shaped like the sandbox's: 3,000 stocks (every third one with data only from 2020, so a
 * 10-year model must skip it), 3,100 rated securities, and 2024 as the last complete fiscal year.
 */
export function fixtureUniverse(): Universe {
  const pad = (i: number): string => String(i).padStart(4, "0");
  return {
    stocks: Array.from({ length: 3000 }, (_, i) => ({
      ticker: `S${pad(i)}`,
      firstYear: i % 3 === 2 ? 2020 : 2008,
    })),
    rated: Array.from({ length: 3100 }, (_, i) => `R${pad(i)}`),
    lastYear: 2024,
  };
}
