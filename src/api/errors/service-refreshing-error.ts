import { FdqError, type FdqErrorOptions } from "./fdq-error";

/** A 503 or a timeout during the vendor's daily refresh, 5:00-5:20 AM US Central (wire-notes 13). */
export class ServiceRefreshingError extends FdqError {
  override name = "ServiceRefreshingError" as const;

  constructor(options: FdqErrorOptions = {}) {
    super(
      options,
      "FDQ is refreshing its data until 5:20 AM CT (US Central) and may not answer until then. Recalculate after 5:20 AM CT.",
    );
  }
}
