/** Role of a datapoint in a reconciliation walk: added, subtracted, result, divisor, or standalone (""). */
export type SignRole = "+" | "-" | "=" | "/" | "";

export type DatasetGroup = "reconciliation" | "metrics" | "screens" | "fundamentals";

/** Fundamentals category codes of the spec's legend. */
export type CategoryCode =
  | "CIL"
  | "CIA"
  | "SIC"
  | "BSA"
  | "EBVC"
  | "FA"
  | "MV"
  | "PEBV"
  | "CFI"
  | "CFF"
  | "CFO"
  | "IC"
  | "CCR"
  | "ISA"
  | "OTH"
  | "ATC"
  | "CGS"
  | "LTL"
  | "NOP"
  | "EE"
  | "EXP"
  | "PTI"
  | "NIE"
  | "OOI";

export interface CatalogDatapoint {
  readonly name: string;
  readonly sign: SignRole;
  /** Affected by stock price: "(SP)" in the spec. */
  readonly sp?: boolean;
  /** Fundamentals only; null where the spec cuts the category off. */
  readonly category?: CategoryCode | null;
  /** In walks that list a total and then its parts: the total this item is a part of. */
  readonly partOf?: string;
  /** Named in the spec's prose (returned in all-datapoints mode) but not in the dataset's list. */
  readonly unlisted?: boolean;
}

export interface Walk {
  /**
   * flat: the first line and the signed items give each "=" line in order.
   * totals: as flat over the top-level items, while each total equals the signed sum of its parts.
   */
  readonly kind: "flat" | "totals";
  /** The datapoints the walk arrives at. */
  readonly results: readonly string[];
}

export interface Dataset {
  /** Endpoint path after /v1 without the ticker, e.g. "metrics/roic". */
  readonly path: string;
  readonly group: DatasetGroup;
  /** Last path segment, e.g. "roic". */
  readonly slug: string;
  readonly title: string;
  /** filingtype is a documented field of this dataset's records (spec rule 4). */
  readonly hasFilingType: boolean;
  /** All-datapoints mode (datapoint omitted) is documented for this dataset. */
  readonly allDatapointsMode: boolean;
  readonly walk?: Walk;
  /**
   * Set where the spec cuts the list off ("not shown"): a name missing from such a dataset is not
   * proof that the service lacks it, so clients must not reject it before asking the service.
   */
  readonly notShown?: string;
  readonly datapoints: readonly CatalogDatapoint[];
}

/** Prior-year availability group of a sector/industry datapoint. */
export type PriorYearGroup = "none" | "current" | "all";

export interface SectorDatapoint {
  readonly name: string;
  readonly group: PriorYearGroup;
  /** prior_year values the service answers for this datapoint. */
  readonly priorYears: readonly number[];
  /** The value is text (not a number). */
  readonly text?: boolean;
}
