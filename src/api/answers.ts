// From a request's results to the cache value that stores its answer.
import { RecordsAnswer, type CacheValue } from "./cache-codec";
import type { DataKey } from "./call-keys";
import { decodeDatapointRecords, deepFreeze, toValue } from "./decode";
import { BadResponseError, DataNotFoundError } from "./errors";
import type { DatapointRecord } from "./types";

/**
 * The datapoint records of a data request's answer: the whole dataset, or the one datapoint `name`; an
 * empty answer is DataNotFound.
 */
export function recordsAnswerOf(results: unknown, key: DataKey, name?: string): RecordsAnswer {
  const { ticker, year, period, datapoint } = key.fields;
  let records: readonly DatapointRecord[] = decodeDatapointRecords(results, { ticker, year, period });
  if (datapoint !== undefined) {
    const found = records.find((r) => r.datapoint === (name ?? datapoint)) ?? records[0];
    records = found ? [found] : [];
  }
  if (records.length === 0) throw new DataNotFoundError();
  deepFreeze(records);
  return RecordsAnswer.fromRecords(records, records.map(numberOf), toValue);
}

/** The decoded answer of the endpoints other than data, and how it is cached. */
export const json = (data: unknown): CacheValue => ({ kind: "json", data: deepFreeze(data) });

/**
 * The value of a dataset record: every datapoint of the datasets is a number, so its datavalue must be a
 * finite decimal ("1e999" would be Infinity, "" a blank text cell): anything else is a BadResponse naming
 * the datapoint, never a value.
 */
function numberOf(record: DatapointRecord): number {
  const value = toValue(record.datavalue);
  if (typeof value === "number" && Number.isFinite(value)) return value;
  const shown = record.datavalue.length > 40 ? `${record.datavalue.slice(0, 40)}…` : record.datavalue;
  throw new BadResponseError({
    detail: `datapoint ${record.datapoint} has no finite decimal value (got "${shown}")`,
  });
}
