import { FdqError, type FdqErrorOptions } from "./fdq-error";

/** 5xx from the service or its gateway (retried first where that can help: 502, 503, 504). */
export class ServiceUnavailableError extends FdqError {
  override name = "ServiceUnavailableError" as const;

  constructor(options: FdqErrorOptions & { status: number }) {
    const said = options.serviceMessage ?? options.detail;
    super(
      options,
      `The FDQ service is unavailable (${options.status}${said ? `: ${said}` : ""}). Try again later, then recalculate.`,
    );
  }
}
