import { DataNotFoundError, InvalidArgumentError } from "../../api";
import { findDatapoint, findDataset } from "../../catalog";
import type { DoubleValue } from "../cell-values";
import { booleanArg, periodArgs } from "./args";
import { forwarded, type FdqApi } from "./client";
import { dayBeforeOf, sourcedRecord } from "./sourced";
import { tickerArg } from "./ticker-arg";

export interface DatasetArgs {
  ticker?: unknown;
  dataset?: unknown;
  year?: unknown;
  quarter?: unknown;
  ttm?: unknown;
  with_signs?: unknown;
}

/**
 * FDQ.DATASET: one row per datapoint in catalog order, [name, value]; with_signs puts the walk's sign
 * ("+", "-", "=", "/" or "" for a standalone line) in front: [sign, name, value].
 */
export async function dataset(
  client: FdqApi,
  args: DatasetArgs,
  withSource = false,
): Promise<(number | string | DoubleValue)[][]> {
  const withSigns = booleanArg(args.with_signs, "with_signs");
  const entry = typeof args.dataset === "string" ? findDataset(args.dataset) : undefined;
  if (withSigns && entry && entry.group !== "reconciliation") {
    throw new InvalidArgumentError({
      argument: "with_signs",
      message: `with_signs applies to reconciliation datasets only; ${entry.path} has no signs.`,
    });
  }
  const period = periodArgs(args.year, args.quarter, args.ttm);
  const result = await client.dataset({
    ticker: forwarded(tickerArg(args.ticker)),
    dataset: forwarded(args.dataset),
    year: forwarded(period.year),
    quarter: forwarded(period.quarter),
    ttm: forwarded(period.ttm),
  });
  // Excel cannot spill an empty array; an empty answer is "no data" like any other.
  if (result.records.length === 0) throw new DataNotFoundError();
  const dayBefore = withSource ? dayBeforeOf(client) : undefined;
  return result.records.map((record, i) => {
    const plain = result.values[i] ?? record.datavalue;
    const value = withSource
      ? sourcedRecord(plain, record, result, { dataset: args.dataset, ...period }, dayBefore)
      : plain;
    if (!withSigns || !entry) return [record.datapoint, value];
    return [findDatapoint(entry, record.datapoint)?.sign ?? "", record.datapoint, value];
  });
}
