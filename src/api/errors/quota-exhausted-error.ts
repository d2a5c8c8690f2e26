import { FdqError, type FdqErrorOptions } from "./fdq-error";

/**
 * 429 "Limit Exceeded" (wire-notes 12): the key's monthly quota is spent. Never retried: every call fails
 * the same way until the month turns (the first, US Central) or the plan is raised. `resetsOn` is that date.
 */
export class QuotaExhaustedError extends FdqError {
  override name = "QuotaExhaustedError" as const;

  constructor(options: FdqErrorOptions & { resetsOn?: string } = {}) {
    const said = options.serviceMessage?.trim() || "Limit Exceeded";
    const when = options.resetsOn
      ? ` It resets on ${options.resetsOn} (US Central).`
      : " It resets on the 1st of next month (US Central).";
    super(
      { status: 429, ...options },
      `The monthly quota of this FDQ API key is used up (429: ${said}).${when} No request is sent until then. ${FdqError.hints(options).quota}`,
    );
  }
}
