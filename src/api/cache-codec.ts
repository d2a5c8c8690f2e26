// Cache values and their compact persisted form. One datapoint-records answer (a whole dataset, or one
// datapoint in single mode) is ONE entry: its names, value texts and filing types in parallel lists, plus
// the record fields every record shares. Numbers are converted lazily on first use, because a worksheet
// reads only some datapoints of an answer and loading the store must stay cheap; a record object is built
// on each read and not kept, so that an answer is held once, as these lists (a whole-dataset answer of 20
// datapoints kept as 20 record objects beside its lists cost a 50,000-cell refresh about 20 MB).
import { isPeriodType, type PeriodType } from "../catalog";
import type { DatapointRecord } from "./types";

/** Record fields besides name, value and filing type: the same for (nearly) every record of an answer. */
type Header = [ticker: string, year: number, period: number, periodtype: PeriodType, periodstring: string];

/** Filing types: one for every record (the usual case), or one per record. */
type Filing = string | null | readonly (string | null)[];

type EncodedRecords =
  | [4, Header, readonly string[], readonly string[], Filing]
  /** The last item gives the header of each record that differs from the shared one, by index. */
  | [4, Header, readonly string[], readonly string[], Filing, Record<string, Header>];

type Encoded = EncodedRecords | [2, unknown] | [3, string, string, number | null];

const headerOf = (r: DatapointRecord): Header => [r.ticker, r.year, r.period, r.periodtype, r.periodstring];

const sameHeader = (a: Header, b: Header): boolean => a.every((field, i) => field === b[i]);

function isHeader(h: unknown): h is Header {
  return (
    Array.isArray(h) &&
    h.length === 5 &&
    typeof h[0] === "string" &&
    Number.isInteger(h[1]) &&
    Number.isInteger(h[2]) &&
    isPeriodType(h[3]) &&
    typeof h[4] === "string"
  );
}

// Plain loops: a loaded store checks every item of every entry, before the code is warm.
function isStringList(list: unknown, count = -1): list is string[] {
  if (!Array.isArray(list) || (count >= 0 && list.length !== count)) return false;
  for (const item of list) if (typeof item !== "string") return false;
  return true;
}

function isFiling(filing: unknown, count: number): filing is Filing {
  if (filing === null || typeof filing === "string") return true;
  if (!Array.isArray(filing) || filing.length !== count) return false;
  for (const item of filing) if (item !== null && typeof item !== "string") return false;
  return true;
}

function isOddHeaders(odd: unknown, count: number): odd is Record<string, Header> {
  if (typeof odd !== "object" || odd === null || Array.isArray(odd)) return false;
  return Object.entries(odd).every(([i, h]) => Number(i) >= 0 && Number(i) < count && isHeader(h));
}

/** Answers up to this many datapoints are searched name by name (a Map would cost more than it saves). */
const SHORT_ANSWER = 8;
/** Look-ups of a longer answer searched name by name before its name index is built. */
const SCANNED_LOOKUPS = 4;

/** The datapoint records of one answer, in the answer's order. */
export class RecordsAnswer {
  readonly kind = "records";
  private readonly converted: (number | string | undefined)[];
  /** Built once a long answer is looked up often: a linear search would compare every name per cell. */
  private positions: Map<string, number> | undefined;
  private lookups = 0;

  private constructor(
    readonly names: readonly string[],
    private readonly datavalues: readonly string[],
    private readonly filing: Filing,
    private readonly header: Header,
    private readonly odd: Readonly<Record<string, Header>> | undefined,
    private readonly toValue: (datavalue: string) => number | string,
    values?: (number | string)[],
  ) {
    this.converted = values ?? new Array<number | string | undefined>(names.length);
  }

  /** From decoded (frozen) records and their values, as a request answered them. */
  static fromRecords(
    records: readonly DatapointRecord[],
    values: readonly (number | string)[],
    toValue: (datavalue: string) => number | string,
  ): RecordsAnswer {
    const first = records[0];
    const header = first ? headerOf(first) : (["", 0, 0, "ANNUAL", "ANNUAL"] satisfies Header);
    let odd: Record<string, Header> | undefined;
    records.forEach((r, i) => {
      const own = headerOf(r);
      if (!sameHeader(own, header)) (odd ??= {})[i] = own;
    });
    const filings = records.map((r) => r.filingtype ?? null);
    const filing = filings.every((f) => f === filings[0]) ? (filings[0] ?? null) : filings;
    const names = records.map((r) => r.datapoint);
    const datavalues = records.map((r) => r.datavalue);
    return new RecordsAnswer(names, datavalues, filing, header, odd, toValue, [...values]);
  }

  /** Rebuilds an answer from its persisted form, or undefined when `e` is not one this version writes. */
  static decode(
    e: readonly unknown[],
    toValue: (datavalue: string) => number | string,
  ): RecordsAnswer | undefined {
    if (e.length !== 5 && e.length !== 6) return undefined;
    // Indexed, not destructured (the iterator protocol): this runs once per stored answer in a cold process.
    const header = e[1];
    const names = e[2];
    const datavalues = e[3];
    const filing = e[4];
    const odd = e[5];
    if (!isHeader(header) || !isStringList(names) || !isStringList(datavalues, names.length))
      return undefined;
    if (!isFiling(filing, names.length)) return undefined;
    if (e.length === 6 && !isOddHeaders(odd, names.length)) return undefined;
    return new RecordsAnswer(
      names,
      datavalues,
      filing,
      header,
      odd as Record<string, Header> | undefined,
      toValue,
    );
  }

  get size(): number {
    return this.names.length;
  }

  /** Index of datapoint `name`, or -1. */
  indexOf(name: string): number {
    // A short answer, or the first few look-ups of a long one (a warm run often reads one or two names of an
    // answer: a map of every name would cost more than it saves), search name by name.
    if (this.names.length <= SHORT_ANSWER || this.lookups++ < SCANNED_LOOKUPS)
      return this.names.indexOf(name);
    let positions = this.positions;
    if (positions === undefined) {
      positions = this.positions = new Map();
      // The first of repeated names wins, as with indexOf.
      for (let i = this.names.length - 1; i >= 0; i--) positions.set(this.names[i]!, i);
    }
    return positions.get(name) ?? -1;
  }

  /** The record at `i`, built anew (frozen) on each read. */
  record(i: number): DatapointRecord {
    const h = this.odd?.[i] ?? this.header;
    const record: DatapointRecord = {
      ticker: h[0],
      year: h[1],
      period: h[2],
      periodtype: h[3],
      periodstring: h[4],
      datapoint: this.names[i]!,
      datavalue: this.datavalues[i]!,
    };
    const filing = typeof this.filing === "object" && this.filing !== null ? this.filing[i] : this.filing;
    if (filing !== null && filing !== undefined) record.filingtype = filing;
    return Object.freeze(record);
  }

  value(i: number): number | string {
    let value = this.converted[i];
    if (value === undefined) this.converted[i] = value = this.toValue(this.datavalues[i]!);
    return value;
  }

  records(): DatapointRecord[] {
    return this.names.map((_, i) => this.record(i));
  }

  values(): (number | string)[] {
    return this.names.map((_, i) => this.value(i));
  }

  encode(): EncodedRecords {
    const base: EncodedRecords = [4, this.header, this.names, this.datavalues, this.filing];
    return this.odd ? [...base, this.odd] : base;
  }
}

export type CacheValue =
  | RecordsAnswer
  /** Decoded answer of the other endpoints (metadata, coverage, sector, ratings). */
  | { kind: "json"; data: unknown }
  /** A remembered "does not exist" answer. */
  | { kind: "missing"; error: string; message: string; status: number | undefined };

/** How many cached items a value counts for in the cache's bound: each record of an answer counts. */
export const weightOf = (value: CacheValue): number =>
  value.kind === "records" ? Math.max(1, value.size) : 1;

export function encodeValue(value: CacheValue): Encoded {
  switch (value.kind) {
    case "records":
      return value.encode();
    case "json":
      return [2, value.data];
    case "missing":
      return [3, value.error, value.message, value.status ?? null];
  }
}

/** Rebuilds a value, or undefined when `encoded` is not a value this version writes. */
export function decodeValue(
  encoded: unknown,
  toValue: (datavalue: string) => number | string,
): CacheValue | undefined {
  if (!Array.isArray(encoded)) return undefined;
  // Indexed, not destructured (the iterator protocol): this runs once per stored answer in a cold process.
  const kind: unknown = encoded[0];
  const a: unknown = encoded[1];
  const b: unknown = encoded[2];
  const c: unknown = encoded[3];
  if (kind === 4) return RecordsAnswer.decode(encoded, toValue);
  if (kind === 2 && encoded.length === 2) return { kind: "json", data: a };
  if (kind === 3 && typeof a === "string" && typeof b === "string" && (c === null || typeof c === "number")) {
    return { kind: "missing", error: a, message: b, status: c ?? undefined };
  }
  return undefined;
}
