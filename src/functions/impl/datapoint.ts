import { numberArg, optionalNumberArg, requireText } from "./args";
import { checkedByClient, type FdqApi } from "./client";

export interface DatapointArgs {
  ticker?: unknown;
  dataset?: unknown;
  name?: unknown;
  year?: unknown;
  quarter?: unknown;
  ttm?: unknown;
}

/** FDQ.DATAPOINT: the value of one datapoint (a number; text for text datapoints). */
export async function datapoint(client: FdqApi, args: DatapointArgs): Promise<number | string> {
  const result = await client.datapoint({
    ticker: checkedByClient(args.ticker),
    dataset: checkedByClient(args.dataset),
    name: requireText(args.name, "name"),
    year: checkedByClient(numberArg(args.year)),
    quarter: checkedByClient(optionalNumberArg(args.quarter)),
    ttm: checkedByClient(optionalNumberArg(args.ttm)),
  });
  return result.value;
}
