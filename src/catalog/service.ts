// The service's enumerations and named errors from shared/spec/service-spec.md: one source for the
// sandbox (which raises them) and the request module (which recognises them).

export const SECURITY_TYPES = ["stock", "etf", "mf", "inactive", "sector", "industry"] as const;
export type SecurityType = (typeof SECURITY_TYPES)[number];

/** prior_year of the sector endpoint (spec: 0 to 5). Quarter, ttm and fiscal-year bounds are in period.ts. */
export const PRIOR_YEARS = { first: 0, last: 5 } as const;

export type PeriodType = "ANNUAL" | "QUARTERLY" | "TTM";

/** The named errors of the spec, with their fixed status and message. */
export const SPEC_ERRORS = {
  DataPointNotFound: { status: 404, message: "The requested datapoint was not found." },
  InvalidSecurityType: {
    status: 400,
    message: "Invalid security type. Available options: stock, etf, mf, inactive, sector, and industry.",
  },
  SectorDataPointNotFound: {
    status: 404,
    message:
      "No datapoints were found; please check the name of the datapoint and/or try your request without the prior_year parameter. Some datapoints are only available in the current year.",
  },
  InvalidPriorYear: {
    status: 400,
    message: "Invalid prior year. Please submit a prior year value between 0 and 5.",
  },
  DataNotFound: { status: 400, message: "The requested data was not found." },
  RatingNotFound: { status: 404, message: "The requested rating information was not found." },
} as const;

export type SpecErrorName = keyof typeof SPEC_ERRORS;

/** Gateway answers (production-service.md, fact 9); bodies are `{"message": ...}`, not the envelope. */
export const GATEWAY_MESSAGES = {
  forbidden: "Forbidden",
  throttled: "Too Many Requests",
} as const;
