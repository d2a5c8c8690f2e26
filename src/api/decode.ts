// From response text to typed records, surviving every variation of docs/production-service.md: the envelope's body as
// an object or a JSON string, gateway bodies that are not the envelope, HTML pages, nulls, missing and
// extra fields.
import { RATING_FIELDS, isPeriodType, periodType, type Period } from "../catalog";
import { BadResponseError } from "./errors";
import { checkTicker, clipName } from "./share-class";
import type {
  CoverageItem,
  DatapointRecord,
  MetadataRecord,
  RatingsRecord,
  SecurityRecord,
  SectorRecord,
} from "./types";

type JsonObject = Record<string, unknown>;

const isObject = (v: unknown): v is JsonObject => typeof v === "object" && v !== null && !Array.isArray(v);

/** What a body that is not JSON looks like, for messages ("an HTML page"). */
export function describeBody(text: string, contentType: string | null): string {
  const trimmed = text.trimStart();
  if (trimmed === "") return "an empty body";
  if (/html/i.test(contentType ?? "") || /^<(!doctype|html|head|body)/i.test(trimmed)) {
    const title = /<title[^>]*>([^<]{1,120})<\/title>/i.exec(trimmed)?.[1]?.trim();
    return title ? `an HTML page "${title}"` : "an HTML page";
  }
  return "text that is not JSON";
}

export function parseJson(text: string): { json: unknown } | undefined {
  try {
    return { json: JSON.parse(text) as unknown };
  } catch {
    return undefined;
  }
}

/** The `message` of an error body: a gateway's `{message}` or an envelope whose body holds one. */
export function errorMessageOf(json: unknown): string | undefined {
  if (!isObject(json)) return undefined;
  if (typeof json.message === "string") return json.message;
  const body = typeof json.body === "string" ? parseJson(json.body)?.json : json.body;
  return isObject(body) && typeof body.message === "string" ? body.message : undefined;
}

export type Envelope =
  | { ok: true; results: unknown }
  /** An envelope that carries a failure status inside a 2xx answer. */
  | { ok: false; status: number; message: string | undefined };

export function decodeEnvelope(json: unknown): Envelope {
  if (!isObject(json)) throw new BadResponseError({ detail: "the answer is not a JSON object" });
  let body: unknown = json;
  if ("body" in json) {
    body = json.body;
    if (typeof body === "string") {
      const parsed = parseJson(body);
      if (!parsed) throw new BadResponseError({ detail: "the envelope's body is not JSON" });
      body = parsed.json;
    }
  }
  const status = typeof json.statusCode === "number" ? json.statusCode : 200;
  if (status < 200 || status > 299) return { ok: false, status, message: errorMessageOf(body) };
  if (!isObject(body) || !("results" in body))
    throw new BadResponseError({ detail: "the answer holds no results" });
  return { ok: true, results: body.results };
}

const text = (v: unknown, fallback = ""): string =>
  typeof v === "string" ? v : typeof v === "number" ? String(v) : fallback;

/** Coverage text fields: null (production) and "NA" (spec) both mean "none" (production-service.md, fact 3). */
const textOrNA = (v: unknown): string => (v === null || v === undefined ? "NA" : text(v, "NA"));

const integer = (v: unknown, fallback: number): number => {
  const n = typeof v === "string" && v.trim() !== "" ? Number(v) : v;
  return typeof n === "number" && Number.isInteger(n) ? n : fallback;
};

const DECIMAL = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;

/**
 * Decimal text to the nearest double (Number() rounds correctly, also for 17 fraction digits); text that is
 * not a decimal number (dates, labels) stays text.
 */
export function toValue(datavalue: string): number | string {
  return DECIMAL.test(datavalue) ? Number(datavalue) : datavalue;
}

const asList = (results: unknown): unknown[] =>
  Array.isArray(results) ? results : results === undefined || results === null ? [] : [results];

function datavalueOf(raw: JsonObject): string {
  const v = raw.datavalue;
  if (typeof v === "string") return v.trim();
  if (typeof v === "number") return String(v);
  throw new BadResponseError({ detail: `datapoint ${text(raw.datapoint, "?")} has no datavalue` });
}

/** What the request asked: a record's missing fields are taken from it. */
export interface RecordDefaults {
  ticker: string;
  year: number;
  period: Period;
}

/** Datapoint records from `results` (an array, or one object as fundamentals answer in single mode). */
export function decodeDatapointRecords(results: unknown, defaults: RecordDefaults): DatapointRecord[] {
  return asList(results).map((raw) => {
    if (!isObject(raw) || typeof raw.datapoint !== "string") {
      throw new BadResponseError({ detail: "a result is not a datapoint record" });
    }
    const asked = periodType(defaults.period);
    const answered = text(raw.periodtype).toUpperCase();
    const record: DatapointRecord = {
      ticker: text(raw.ticker, defaults.ticker),
      year: integer(raw.year, defaults.year),
      period: integer(raw.period, defaults.period.n),
      periodtype: isPeriodType(answered) ? answered : asked,
      periodstring: text(raw.periodstring, asked),
      datapoint: raw.datapoint.trim().toUpperCase(),
      datavalue: datavalueOf(raw),
    };
    if (typeof raw.filingtype === "string") record.filingtype = raw.filingtype;
    return record;
  });
}

function metadataRecord(raw: unknown): MetadataRecord {
  if (!isObject(raw)) throw new BadResponseError({ detail: "a result is not a datapoint metadata record" });
  const name = text(raw.name) || text(raw.api_data_key_name);
  if (!name) throw new BadResponseError({ detail: "a datapoint metadata record has no name" });
  return { name, description: text(raw.description), endpoints: text(raw.endpoints) };
}

export const decodeMetadataList = (results: unknown): MetadataRecord[] => asList(results).map(metadataRecord);

export function decodeMetadata(results: unknown): MetadataRecord {
  const [first] = decodeMetadataList(results);
  if (!first) throw new BadResponseError({ detail: "the answer holds no datapoint metadata" });
  return first;
}

/** Fields of a coverage list item, in the spec's order. */
export const COVERAGE_FIELDS = [
  "ticker",
  "name",
  "type",
  "sector",
  "last_trade_date",
] as const satisfies readonly (keyof CoverageItem)[];

/** Fields of a single-security coverage record, in the spec's order. */
export const SECURITY_FIELDS = [
  ...COVERAGE_FIELDS,
  "sector_name",
  "subsector",
  "subsector_name",
  "industry",
  "industry_name",
  "subindustry",
  "subindustry_name",
] as const satisfies readonly (keyof SecurityRecord)[];

function pick<K extends string>(raw: unknown, fields: readonly K[]): Record<K, string> {
  if (!isObject(raw)) throw new BadResponseError({ detail: "a result is not a coverage record" });
  const out = {} as Record<K, string>;
  for (const f of fields) out[f] = textOrNA(raw[f]);
  return out;
}

export const decodeCoverageList = (results: unknown): CoverageItem[] =>
  asList(results).map((raw) => pick(raw, COVERAGE_FIELDS));

/** The coverage record of `ticker` (another ticker's is a BadResponse, see share-class.ts). */
export function decodeSecurity(results: unknown, ticker?: string): SecurityRecord {
  const [first] = asList(results);
  if (first === undefined) throw new BadResponseError({ detail: "the answer holds no coverage record" });
  const record = pick(first, SECURITY_FIELDS);
  if (ticker !== undefined) checkTicker(record.ticker === "NA" ? ticker : record.ticker, ticker, "coverage");
  return record;
}

/**
 * The record of datapoint `name` of sector or industry `id`: a record for another datapoint or another id
 * is a BadResponse, never a value. (A record without a datapoint or ticker is taken as the one asked.)
 */
export function decodeSector(results: unknown, name: string, id?: string): SectorRecord {
  const list = asList(results).filter(isObject);
  const raw = list.find((r) => [name, ""].includes(text(r.datapoint).trim().toUpperCase()));
  if (!raw) {
    if (list.length === 0) throw new BadResponseError({ detail: "the answer holds no sector record" });
    throw new BadResponseError({
      detail: `an answer for datapoint ${clipName(text(list[0]!.datapoint))}, not ${name}`,
    });
  }
  const answered = text(raw.ticker);
  if (id !== undefined && answered !== "" && answered.toUpperCase() !== id.toUpperCase()) {
    throw new BadResponseError({
      detail: `an answer for ${clipName(answered)}, not ${id} (datapoint ${name})`,
    });
  }
  return {
    ticker: text(raw.ticker),
    name: text(raw.name),
    prior_year: integer(raw.prior_year, 0),
    datapoint: text(raw.datapoint, name).toUpperCase(),
    datavalue: datavalueOf(raw),
  };
}

export function decodeRatings(results: unknown, ticker: string): RatingsRecord {
  const [raw] = asList(results);
  if (!isObject(raw)) throw new BadResponseError({ detail: "the answer holds no ratings record" });
  const ratings: Record<string, number> = {};
  for (const { field } of RATING_FIELDS) {
    if (field === "name") continue;
    const n = integer(raw[field], Number.NaN);
    if (!Number.isNaN(n)) ratings[field] = n;
  }
  const answered = text(raw.ticker, ticker);
  checkTicker(answered, ticker, "ratings");
  return { ticker: answered, name: text(raw.name), ratings };
}

/** Freezes a decoded answer deeply: cached answers are shared by every caller and must not change. */
export function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}
