import { numberArg, optionalNumberArg } from "./args";
import { checkedByClient, type FdqApi } from "./client";

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
export function datapoint(client: FdqApi, args: DatapointArgs): Promise<number | string> {
  try {
    return client
      .datapoint({
        ticker: checkedByClient(args.ticker),
        dataset: checkedByClient(args.dataset),
        name: checkedByClient(args.name),
        year: checkedByClient(numberArg(args.year)),
        quarter: checkedByClient(optionalNumberArg(args.quarter)),
        ttm: checkedByClient(optionalNumberArg(args.ttm)),
      })
      .then(valueOf);
  } catch (err) {
    return Promise.reject(err);
  }
}

const valueOf = (result: { value: number | string }): number | string => result.value;
