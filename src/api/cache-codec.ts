// Cache values and their compact persisted form. A datapoint record is stored as its value text (plus the
// filing type, and the ticker only when the service answered with another one): everything else is in
// the key, which is the relative URL of the single-datapoint request.
import type { PeriodType } from "../catalog";
import type { DatapointRecord } from "./types";

export type CacheValue =
  | { kind: "record"; record: DatapointRecord; value: number | string }
  /** Datapoint names of an all-datapoints answer, in its order (the records have their own entries). */
  | { kind: "names"; names: readonly string[] }
  /** Decoded answer of the other endpoints (metadata, coverage, sector, ratings). */
  | { kind: "json"; data: unknown }
  /** A remembered "does not exist" answer. */
  | { kind: "missing"; error: string; message: string; status: number | undefined };

type Encoded =
  | [0, string, string | null]
  | [0, string, string | null, string]
  | [1, string]
  | [2, unknown]
  | [3, string, string, number | null];

export function encodeValue(rel: string, value: CacheValue): Encoded {
  switch (value.kind) {
    case "record": {
      const { datavalue, filingtype, ticker } = value.record;
      const base: [0, string, string | null] = [0, datavalue, filingtype ?? null];
      return ticker === keyTicker(rel) ? base : [...base, ticker];
    }
    case "names":
      return [1, value.names.join(",")];
    case "json":
      return [2, value.data];
    case "missing":
      return [3, value.error, value.message, value.status ?? null];
  }
}

/** Rebuilds a value, or undefined when `encoded` is not a value this version writes. */
export function decodeValue(
  rel: string,
  encoded: unknown,
  toValue: (datavalue: string) => number | string,
): CacheValue | undefined {
  if (!Array.isArray(encoded)) return undefined;
  const [kind, a, b, c] = encoded as unknown[];
  if (kind === 0 && typeof a === "string" && (b === null || typeof b === "string")) {
    const record = recordFromKey(rel, a, b, typeof c === "string" ? c : undefined);
    return record && { kind: "record", record, value: toValue(a) };
  }
  if (kind === 1 && typeof a === "string") return { kind: "names", names: a === "" ? [] : a.split(",") };
  if (kind === 2 && encoded.length === 2) return { kind: "json", data: a };
  if (kind === 3 && typeof a === "string" && typeof b === "string" && (c === null || typeof c === "number")) {
    return { kind: "missing", error: a, message: b, status: c ?? undefined };
  }
  return undefined;
}

/** The ticker (or sector id) a key is about; undefined for keys about no ticker (metadata, coverage lists). */
export function keyTicker(rel: string): string | undefined {
  const segments = rel.split("?", 1)[0]!.split("/");
  if (segments[0] === "datapoint" || (segments[0] === "coverage" && segments.length < 3)) return undefined;
  const last = segments[segments.length - 1];
  return last === undefined ? undefined : decodeURIComponent(last);
}

function recordFromKey(
  rel: string,
  datavalue: string,
  filingtype: string | null,
  ticker: string | undefined,
): DatapointRecord | undefined {
  const query = new URLSearchParams(rel.slice(rel.indexOf("?") + 1));
  const datapoint = query.get("datapoint");
  const year = Number(query.get("year"));
  const quarter = query.get("quarter");
  const ttm = query.get("ttm");
  if (!datapoint || !Number.isInteger(year)) return undefined;
  const periodtype: PeriodType = quarter ? "QUARTERLY" : ttm ? "TTM" : "ANNUAL";
  const record: DatapointRecord = {
    ticker: ticker ?? keyTicker(rel) ?? "",
    year,
    period: Number(quarter ?? ttm ?? 5),
    periodtype,
    periodstring: periodtype,
    datapoint,
    datavalue,
  };
  if (filingtype !== null) record.filingtype = filingtype;
  return record;
}
