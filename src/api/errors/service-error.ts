import { FdqError, type FdqErrorOptions } from "./fdq-error";

/** Any other non-2xx answer; the message is the service's own text when it sent one. */
export class ServiceError extends FdqError {
  override name = "ServiceError" as const;

  constructor(status: number, serviceMessage: string | undefined, options: FdqErrorOptions = {}) {
    super(serviceMessage || `The FDQ service answered with status ${status}.`, { status, ...options });
  }
}
