import { FdqError, type FdqErrorOptions } from "./fdq-error";
import { EXCEL_HINTS } from "./hints";

/** The gateways' stock texts for 401/403, which add nothing to "refused the API key". */
const STOCK = /^(forbidden|unauthorized)$/i;

/**
 * 401/403: the service (or its gateway) refused the API key. A message other than the stock one is kept:
 * API Gateway answers a wrong path with 403 "Missing Authentication Token", so the base URL is named too.
 * The message never carries the key.
 */
export class UnauthorizedError extends FdqError {
  override name = "UnauthorizedError" as const;

  constructor(status: number, options: FdqErrorOptions = {}, serviceMessage?: string, hints = EXCEL_HINTS) {
    const own = serviceMessage?.trim() && !STOCK.test(serviceMessage.trim()) ? serviceMessage.trim() : "";
    super(
      own
        ? `The FDQ service refused the request (${status}: ${own}). ${hints.apiKey} ${hints.baseUrl}`
        : `The FDQ service refused the API key (${status}). ${hints.apiKey}`,
      { status, ...options },
    );
  }
}
