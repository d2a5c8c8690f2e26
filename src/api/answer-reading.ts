// What an answer of the FDQ service means: its results, or the error of the one factory (resultsOf), the value
// a request's results become (answerOf: every record checked against the RequestKey it answers), and what of it a
// refresh day keeps (keptForDay). The transport reads every answer of the add-in's client here, once; the gateway
// (src/gateway/proxy.ts) reads and keeps answers by the same functions, so its store and the client's day cache
// keep the same answers.
import { sizeText } from "./body";
import { RecordsAnswer, type CacheValue } from "./cache-codec";
import {
  decodeCoverageList,
  decodeDatapointRecords,
  decodeEnvelope,
  decodeMetadata,
  decodeMetadataList,
  decodeRatings,
  decodeSecurity,
  decodeSector,
  deepFreeze,
  describeBody,
  errorMessageOf,
  parseJson,
  toValue,
} from "./decode";
import { periodType } from "../catalog";
import { BadResponseError, DataNotFoundError, errorFromAnswer, FdqError, type AnswerContext } from "./errors";
import type { DataKey, RequestKey } from "./request-key";
import { checkTicker, clipName, classRoot } from "./share-class";
import type { DatapointRecord } from "./types";

/** An answer as it came off the wire (its body already read within the bound, and redacted). */
export interface WireAnswer {
  status: number;
  contentType: string | null;
  /** Undefined: an error body over the size bound, not read. */
  text: string | undefined;
  retryAfterMs: number | undefined;
}

export interface ReadingContext extends AnswerContext {
  /** The bound the body was read within (for the message of one that was not read). */
  maxBodyBytes: number;
}

/** The results of a good answer; anything else throws its FdqError (errorFromAnswer's). */
export function resultsOf(answer: WireAnswer, context: ReadingContext): unknown {
  const { status, contentType, text, retryAfterMs } = answer;
  const parsed = text === undefined ? undefined : parseJson(text);
  if (status >= 200 && status <= 299) {
    if (!parsed) {
      const detail = `${describeBody(text ?? "", contentType)} instead of JSON`;
      throw new BadResponseError({ detail, hints: context.hints });
    }
    const envelope = decodeEnvelope(parsed.json);
    if (envelope.ok) return envelope.results;
    throw errorFromAnswer({ ...envelope, detail: "an error inside the envelope", retryAfterMs }, context);
  }
  throw errorFromAnswer(
    {
      status,
      message: parsed ? errorMessageOf(parsed.json) : undefined,
      detail: parsed
        ? "a JSON body without a message"
        : text === undefined
          ? `a body larger than ${sizeText(context.maxBodyBytes)}`
          : describeBody(text, contentType),
      retryAfterMs,
    },
    context,
  );
}

export type Outcome = { readonly results: unknown } | { readonly error: FdqError };

/** `resultsOf` as a value: the results, or the FdqError the answer means. */
export function outcomeOf(answer: WireAnswer, context: ReadingContext): Outcome {
  try {
    return { results: resultsOf(answer, context) };
  } catch (error) {
    if (error instanceof FdqError) return { error };
    throw error;
  }
}

/**
 * Whether a refresh day keeps an outcome: what the service answered, and a "does not exist" refusal, which
 * holds all day (a remembered error). Never a transient failure, a throttle, a spent quota, a refused key
 * or a malformed answer: those are asked again.
 */
export function keptForDay(outcome: Outcome): boolean {
  return "results" in outcome || outcome.error.remembered;
}

/**
 * The datapoint records of a data request's answer: the whole dataset, or its one datapoint; an
 * empty answer is DataNotFound.
 */
export function recordsAnswerOf(results: unknown, key: DataKey): RecordsAnswer {
  const { ticker, year, period, datapoint } = key.fields;
  let records: readonly DatapointRecord[] = decodeDatapointRecords(results, { ticker, year, period });
  if (records.length === 0) throw new DataNotFoundError();
  checkAgainstRequest(records, key);
  if (datapoint !== undefined) {
    const wanted = datapoint;
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
  answerOf(key, results);
}

/**
 * The value `results` become as the answer to `key`, as the day cache keeps it: a data answer's records
 * (recordsAnswerOf), every other endpoint's decoded record or list. Throws the FdqError the answer means.
 */
export function answerOf(key: RequestKey, results: unknown): CacheValue {
  const f = key.fields;
  switch (f.endpoint) {
    case "data":
      return recordsAnswerOf(results, key as DataKey);
    case "sector":
      return json(decodeSector(results, f.datapoint, f.id));
    case "ratings":
      return json(decodeRatings(results, f.ticker));
    case "security":
      return json(decodeSecurity(results, f.ticker));
    case "coverage":
      return json(decodeCoverageList(results));
    case "metadata":
      return json(f.name === undefined ? decodeMetadataList(results) : decodeMetadata(results));
  }
}

/** The tickers a coverage list answer lists, and the roots of their share classes, indexed once per answer. */
const LISTED = new WeakMap<
  object,
  { readonly tickers: ReadonlySet<string>; readonly roots: ReadonlySet<string> }
>();

/**
 * Whether a coverage list answer lists `ticker` (upper-case), or a share class of its root (the service answers
 * every class with the primary ticker's data, share-class.ts); undefined for an empty list, which says nothing.
 */
export function coverageListed(value: CacheValue, ticker: string): boolean | undefined {
  if (value.kind !== "json" || !Array.isArray(value.data) || value.data.length === 0) return undefined;
  let index = LISTED.get(value.data);
  if (!index) {
    const tickers = new Set<string>();
    const roots = new Set<string>();
    for (const item of value.data as readonly { ticker?: unknown }[]) {
      if (typeof item?.ticker !== "string") continue;
      const t = item.ticker.trim().toUpperCase();
      tickers.add(t);
      roots.add(classRoot(t));
    }
    index = { tickers, roots };
    LISTED.set(value.data, index);
  }
  return index.tickers.has(ticker) || index.roots.has(classRoot(ticker));
}
