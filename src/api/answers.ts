// From a request's results to the cache value that stores its answer.
import { RecordsAnswer, type CacheValue } from "./cache-codec";
import type { DataKey } from "./call-keys";
import {
  decodeCoverageList,
  decodeDatapointRecords,
  decodeMetadata,
  decodeMetadataList,
  decodeRatings,
  decodeSecurity,
  decodeSector,
  deepFreeze,
  toValue,
} from "./decode";
import { periodType } from "../catalog";
import { BadResponseError, DataNotFoundError } from "./errors";
import { checkTicker, clipName } from "./share-class";
import type { RequestKey } from "./request-key";
import type { DatapointRecord } from "./types";

/**
 * The datapoint records of a data request's answer: the whole dataset, or the one datapoint `name`; an
 * empty answer is DataNotFound.
 */
export function recordsAnswerOf(results: unknown, key: DataKey, name?: string): RecordsAnswer {
  const { ticker, year, period, datapoint } = key.fields;
  let records: readonly DatapointRecord[] = decodeDatapointRecords(results, { ticker, year, period });
  if (records.length === 0) throw new DataNotFoundError();
  checkAgainstRequest(records, key);
  if (datapoint !== undefined) {
    const wanted = name ?? datapoint;
    const found = records.find((r) => r.datapoint === wanted);
    if (!found) {
      throw new BadResponseError({
        detail: `an answer for datapoint ${clipName(records[0]!.datapoint)}, not ${wanted}`,
      });
    }
    records = [found];
  }
  deepFreeze(records);
  return RecordsAnswer.fromRecords(records, records.map(numberOf), toValue);
}

/**
 * Every record must answer the request: its ticker (or the primary ticker of the requested share class),
 * its year, its period and period type (spec rules 1-3), and each datapoint once. A record that does not
 * is a BadResponse, never a value and never cached.
 */
function checkAgainstRequest(records: readonly DatapointRecord[], key: DataKey): void {
  const { ticker, year, period } = key.fields;
  const type = periodType(period);
  const seen = new Set<string>();
  for (const r of records) {
    checkTicker(r.ticker, ticker, `datapoint ${clipName(r.datapoint)}`);
    if (r.year !== year || r.period !== period.n || r.periodtype !== type) {
      throw new BadResponseError({
        detail: `an answer for ${r.periodtype} period ${r.period} of ${r.year}, not ${type} period ${period.n} of ${year} (datapoint ${clipName(r.datapoint)})`,
      });
    }
    if (seen.has(r.datapoint))
      throw new BadResponseError({ detail: `datapoint ${clipName(r.datapoint)} answered twice` });
    seen.add(r.datapoint);
  }
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
    detail: `datapoint ${clipName(record.datapoint)} has no finite decimal value (got "${shown}")`,
  });
}

/**
 * Reads `results` as the answer to `key`, by the decoding the client's call of that endpoint applies, and
 * throws the FdqError the client would meet: an answer for another ticker, year, period, datapoint or sector
 * is a BadResponse, an empty data answer DataNotFound. A relay (the gateway) keeps for the day only what
 * passes, or what fails with an error the day keeps (keptForDay), so that one answer that does not match its
 * request is not served from its store all day to every analyst.
 */
export function checkAnswer(key: RequestKey, results: unknown): void {
  const f = key.fields;
  switch (f.endpoint) {
    case "data":
      recordsAnswerOf(results, key as DataKey, f.datapoint);
      return;
    case "sector":
      decodeSector(results, f.datapoint, f.id);
      return;
    case "ratings":
      decodeRatings(results, f.ticker);
      return;
    case "security":
      decodeSecurity(results, f.ticker);
      return;
    case "coverage":
      decodeCoverageList(results);
      return;
    case "metadata":
      if (f.name === undefined) decodeMetadataList(results);
      else decodeMetadata(results);
      return;
  }
}
