// The part of the request module the functions use. Implementations take it as a parameter so Excel
// (the shared client), the CLI (its own client) and tests (a client on an in-process sandbox) run the
// same code.
import type { CallOptions, FdqClient } from "../../api";

export type FdqApi = Pick<
  FdqClient,
  "datapoint" | "dataset" | "datapointInfo" | "coverageList" | "security" | "sector" | "ratings"
> &
  /**
   * What a request costs (FDQ.CARD's footer) and the previous refresh day's values (numbers with their source);
   * a recorder of requests has neither.
   */
  Partial<Pick<FdqClient, "plan" | "previousValue">>;

const CACHE_ONLY: CallOptions = { cacheOnly: true };

/**
 * The client's calls reading today's cache only (CallOptions.cacheOnly): what a formula value preview runs the
 * same implementations over, so it sends nothing and an uncached value fails with NotCachedError.
 */
export function cacheOnly(client: FdqApi): FdqApi {
  return {
    datapoint: (request) => client.datapoint(request, CACHE_ONLY),
    dataset: (request) => client.dataset(request, CACHE_ONLY),
    datapointInfo: (name) => client.datapointInfo(name, CACHE_ONLY),
    coverageList: (type) => client.coverageList(type, CACHE_ONLY),
    security: (type, ticker) => client.security(type, ticker, CACHE_ONLY),
    sector: (request) => client.sector(request, CACHE_ONLY),
    ratings: (ticker) => client.ratings(ticker, CACHE_ONLY),
    plan: client.plan ? (request) => client.plan!(request) : undefined,
    previousValue: client.previousValue ? (url, name) => client.previousValue!(url, name) : undefined,
  };
}

/** A cell value; matrices may hold an error in place of a value (Excel shows it in that cell). */
export type CellValue = number | string | boolean;
export type Matrix<E> = (CellValue | E)[][];

/**
 * Types an Excel argument as the request field it is passed as, unchanged and unchecked here: the request
 * module checks every field at run time and names the argument when it is wrong, so checking it here as
 * well would say it twice.
 */
export const forwarded = <T>(value: unknown): T => value as T;
