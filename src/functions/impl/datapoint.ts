import type { DatapointResult } from "../../api";
import type { DoubleValue } from "../cell-values";
import { periodArgs } from "./args";
import { forwarded, type FdqApi } from "./client";
import { dayBeforeOf, sourcedDatapoint } from "./sourced";
import { tickerArg } from "./ticker-arg";

export interface DatapointArgs {
  ticker?: unknown;
  dataset?: unknown;
  name?: unknown;
  year?: unknown;
  quarter?: unknown;
  ttm?: unknown;
}

/**
 * FDQ.DATAPOINT: the value of one datapoint (a number; text for text datapoints). Not `async`: a model
 * has tens of thousands of these cells, and one promise fewer per cell is measurable.
 */
export function datapoint(client: FdqApi, args: DatapointArgs): Promise<number | string>;
export function datapoint(
  client: FdqApi,
  args: DatapointArgs,
  withSource: boolean,
): Promise<number | string | DoubleValue>;
export function datapoint(
  client: FdqApi,
  args: DatapointArgs,
  withSource = false,
): Promise<number | string | DoubleValue> {
  try {
    const period = periodArgs(args.year, args.quarter, args.ttm);
    return client
      .datapoint({
        ticker: forwarded(tickerArg(args.ticker)),
        dataset: forwarded(args.dataset),
        name: forwarded(args.name),
        year: forwarded(period.year),
        quarter: forwarded(period.quarter),
        ttm: forwarded(period.ttm),
      })
      .then(
        withSource
          ? (result: DatapointResult) =>
              sourcedDatapoint(result, { dataset: args.dataset, ...period }, dayBeforeOf(client))
          : valueOf,
      );
  } catch (err) {
    return Promise.reject(err);
  }
}

const valueOf = (result: { value: number | string }): number | string => result.value;
