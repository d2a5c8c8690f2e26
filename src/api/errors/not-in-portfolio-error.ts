import { FdqError, type FdqErrorOptions } from "./fdq-error";

/**
 * A portfolio-limited plan refused a security (wire-notes 14): company data is served only for the member's
 * portfolio, from the day after a ticker is added. Status and words are not documented: a 403 or 404 whose
 * message speaks of the portfolio. The service's own message is shown.
 */
export class NotInPortfolioError extends FdqError {
  override name = "NotInPortfolioError" as const;

  constructor(options: FdqErrorOptions & { status: number }) {
    super(
      options,
      `The FDQ service refused this security for your plan (${options.status}: ${options.serviceMessage ?? "not in your portfolio"}). Individual plans serve company data only for securities in the member's portfolio, from the day after one is added.`,
    );
  }
}
