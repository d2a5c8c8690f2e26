// How a fiscal period reads to an analyst, following the service spec's quarter and ttm rules.

export interface PeriodChoice {
  readonly year: number;
  readonly quarter?: number | null;
  readonly ttm?: number | null;
}

/** "FY2023", "Q2 FY2023", "TTM to Q2 FY2023". */
export function periodLabel(p: PeriodChoice): string {
  if (p.quarter) return `Q${p.quarter} FY${p.year}`;
  if (p.ttm) return `TTM to Q${p.ttm} FY${p.year}`;
  return `FY${p.year}`;
}

/** The quarters a period covers, as the spec defines them (ttm=n: quarters n..1 of the year, then the prior year's). */
export function periodDetail(p: PeriodChoice): string {
  if (p.quarter)
    return `Fiscal quarter ${p.quarter} of fiscal year ${p.year} (QUARTERLY, period ${p.quarter}).`;
  const ttm = p.ttm;
  if (ttm) {
    const own = Array.from({ length: ttm }, (_, i) => `Q${ttm - i}`);
    const prior = Array.from({ length: 4 - ttm }, (_, i) => `Q${4 - i}`);
    const covered = [
      `${own.join(", ")} of ${p.year}`,
      ...(prior.length ? [`${prior.join(", ")} of ${p.year - 1}`] : []),
    ];
    return `Trailing twelve months ending with Q${ttm} of fiscal year ${p.year}: ${covered.join(" plus ")} (TTM, period ${ttm}).`;
  }
  return `Fiscal year ${p.year} (ANNUAL, period 5).`;
}
