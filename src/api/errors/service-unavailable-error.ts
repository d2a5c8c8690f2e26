import { FdqError, type FdqErrorOptions } from "./fdq-error";

/** 5xx from the service or its gateway (retried first where that can help: 502, 503, 504). */
export class ServiceUnavailableError extends FdqError {
  override name = "ServiceUnavailableError" as const;

  constructor(status: number, detail: string, options: FdqErrorOptions = {}) {
    super(
      `The FDQ service is unavailable (${status}${detail ? `: ${detail}` : ""}). Try again later, then recalculate.`,
      {
        status,
        ...options,
      },
    );
  }
}
