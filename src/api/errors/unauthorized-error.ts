import { FdqError, type FdqErrorOptions } from "./fdq-error";

/** The gateways' stock texts for 401/403, which add nothing to "refused the API key". */
const STOCK = /^(forbidden|unauthorized)$/i;

/**
 * 401/403: the service (or its gateway) refused the API key. A message other than the stock one is kept:
 * API Gateway answers a wrong path with 403 "Missing Authentication Token", so the base URL is named too.
 * The message never carries the key.
 */
export class UnauthorizedError extends FdqError {
  override name = "UnauthorizedError" as const;

  constructor(options: FdqErrorOptions & { status: number }) {
    const hints = FdqError.hints(options);
    const said = options.serviceMessage?.trim() ?? "";
    const own = said && !STOCK.test(said) ? said : "";
    super(
      options,
      own
        ? `The FDQ service refused the request (${options.status}: ${own}). ${hints.apiKey} ${hints.baseUrl}`
        : `The FDQ service refused the API key (${options.status}). ${hints.apiKey}`,
    );
  }
}
