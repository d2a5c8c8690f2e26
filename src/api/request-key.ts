// RequestKey: the one identity of an FDQ request. Everything that names a request (the URL sent, the day
// cache's entry, the in-flight map, invalidation by ticker, the serialised form another process such as the
// gateway shares, and the request's price in quota units) comes from here, so no module builds a request
// string or parses one back on its own.
//
// The canonical path (relative to the base URL, query parameters in the spec's order, tickers upper-case and
// percent-encoded) is at once the URL tail, the cache key and the serialised form: `RequestKey.parse` reads
// it back, and a URL in another parameter order or case parses to the same key.
import {
  DATASETS,
  PRIOR_YEARS,
  SECURITY_TYPES,
  isFiscalYear,
  periodOfArgs,
  periodQuery,
  type Dataset,
  type Period,
  type SecurityType,
} from "../catalog";

/** A data request's checked fields: the dataset, ticker and period (src/api/call-requests.ts checks them). */
export interface DatasetTarget {
  dataset: Dataset;
  ticker: string;
  year: number;
  period: Period;
}

/** A single datapoint's checked fields. */
export interface DatapointTarget extends DatasetTarget {
  name: string;
}

export type Endpoint = "data" | "sector" | "ratings" | "coverage" | "security" | "metadata";

/** The fields of each kind of request, already checked (call-requests.ts checks what a caller gives). */
export type RequestFields =
  | {
      readonly endpoint: "data";
      readonly dataset: Dataset;
      readonly ticker: string;
      readonly year: number;
      readonly period: Period;
      /** One datapoint, or undefined for the all-datapoints answer of the dataset. */
      readonly datapoint: string | undefined;
    }
  | {
      readonly endpoint: "sector";
      /** Sector or industry identifier. */
      readonly id: string;
      readonly datapoint: string;
      readonly priorYear: number | undefined;
    }
  | { readonly endpoint: "ratings"; readonly ticker: string }
  | { readonly endpoint: "coverage"; readonly type: SecurityType }
  | { readonly endpoint: "security"; readonly type: SecurityType; readonly ticker: string }
  /** One datapoint's metadata, or undefined for the list of every datapoint. */
  | { readonly endpoint: "metadata"; readonly name: string | undefined };

type FieldsOf<E extends Endpoint> = Extract<RequestFields, { endpoint: E }>;

const enc = encodeURIComponent;

function pathOf(f: RequestFields): string {
  switch (f.endpoint) {
    case "data": {
      const name = f.datapoint === undefined ? "" : `datapoint=${enc(f.datapoint)}&`;
      return `${f.dataset.path}/${enc(f.ticker)}?${name}year=${f.year}${periodQuery(f.period)}`;
    }
    case "sector": {
      const prior = f.priorYear === undefined ? "" : `&prior_year=${f.priorYear}`;
      return `sector/${enc(f.id)}?datapoint=${enc(f.datapoint)}${prior}`;
    }
    case "ratings":
      return `ratings/component/${enc(f.ticker)}`;
    case "coverage":
      return `coverage/${f.type}`;
    case "security":
      return `coverage/${f.type}/${enc(f.ticker)}`;
    case "metadata":
      return f.name === undefined ? "datapoint" : `datapoint/${enc(f.name)}`;
  }
}

export class RequestKey {
  /**
   * The canonical path after the base URL: the request's URL tail, its cache key and its serialised form.
   * Computed once per key: a worksheet builds one key per cell.
   */
  readonly path: string;
  /**
   * Quota units the answer costs, once known (set by the pricing of the quota work); undefined until then.
   */
  units: number | undefined;

  private constructor(readonly fields: RequestFields) {
    this.path = pathOf(fields);
  }

  static data(
    dataset: Dataset,
    ticker: string,
    year: number,
    period: Period,
    datapoint?: string,
  ): RequestKey & { readonly fields: FieldsOf<"data"> } {
    return new RequestKey({ endpoint: "data", dataset, ticker, year, period, datapoint }) as never;
  }

  static sector(id: string, datapoint: string, priorYear?: number): RequestKey {
    return new RequestKey({ endpoint: "sector", id, datapoint, priorYear });
  }

  static ratings(ticker: string): RequestKey {
    return new RequestKey({ endpoint: "ratings", ticker });
  }

  static coverage(type: SecurityType): RequestKey {
    return new RequestKey({ endpoint: "coverage", type });
  }

  static security(type: SecurityType, ticker: string): RequestKey {
    return new RequestKey({ endpoint: "security", type, ticker });
  }

  static metadata(name?: string): RequestKey {
    return new RequestKey({ endpoint: "metadata", name });
  }

  get endpoint(): Endpoint {
    return this.fields.endpoint;
  }

  /** The base URL and full URL `url` answered last: the cells a key serves share one string. */
  private urlBase: string | undefined;
  private fullUrl = "";

  /** The full URL under `baseUrl` (which includes /v1 and has no trailing slash). */
  url(baseUrl: string): string {
    if (baseUrl !== this.urlBase) {
      this.fullUrl = `${baseUrl}/${this.path}`;
      this.urlBase = baseUrl;
    }
    return this.fullUrl;
  }

  /** The day cache's key of the answer. */
  get cacheKey(): string {
    return this.path;
  }

  /** Identical requests of one refresh day share one flight; a call after the day's boundary never joins. */
  inFlightKey(refreshDay: string): string {
    return `${refreshDay} ${this.path}`;
  }

  /** The ticker (or sector/industry id) the answer is about; undefined for lists and metadata. */
  get subject(): string | undefined {
    const f = this.fields;
    switch (f.endpoint) {
      case "data":
      case "ratings":
      case "security":
        return f.ticker;
      case "sector":
        return f.id;
      default:
        return undefined;
    }
  }

  /** Whether invalidating `ticker` (already upper-case) drops this answer. */
  matches(ticker: string): boolean {
    return this.subject === ticker;
  }

  /** A stable text another process can share and `RequestKey.parse` reads back. */
  serialize(): string {
    return this.path;
  }

  /**
   * The key of a request path (as `serialize` writes it, or as a URL tail after the base URL, in any
   * parameter order and case), or undefined when it names no request of the spec.
   */
  static parse(text: string): RequestKey | undefined {
    try {
      return parsePath(text);
    } catch {
      return undefined; // a malformed percent-encoding
    }
  }
}

/** The key of a data request: a dataset's whole answer, or with `name` that datapoint's own. */
export type DataKey = ReturnType<typeof RequestKey.data>;

/** The key of a dataset's whole answer, or with `name` of that datapoint's own. */
export function dataKey(t: DatasetTarget, name?: string): DataKey {
  return RequestKey.data(t.dataset, t.ticker, t.year, t.period, name);
}

/**
 * The whole-dataset keys asked lately, by dataset, period, year and ticker: the cells of a worksheet ask the
 * same few (W1: 1,500 distinct keys for 22,500 cells), and building one (its fields and canonical path, then
 * hashing that path in the cache's look-up) costs a cached cell more than the look-up itself. Keys are never
 * changed once built, so one serves every call that names it. Bounded: past WHOLE_KEYS_KEPT the lot is dropped.
 */
const wholeKeys = new Map<Dataset, Map<Period, Map<number, Map<string, DataKey>>>>();
let wholeKeysHeld = 0;
const WHOLE_KEYS_KEPT = 20_000;

/** The key of a dataset's whole answer for `t` (dataKey without a name), shared by the calls that name it. */
export function wholeDataKey(t: DatasetTarget): DataKey {
  let byPeriod = wholeKeys.get(t.dataset);
  if (!byPeriod) wholeKeys.set(t.dataset, (byPeriod = new Map()));
  let byYear = byPeriod.get(t.period);
  if (!byYear) byPeriod.set(t.period, (byYear = new Map()));
  let byTicker = byYear.get(t.year);
  if (!byTicker) byYear.set(t.year, (byTicker = new Map()));
  let key = byTicker.get(t.ticker);
  if (!key) {
    if (wholeKeysHeld >= WHOLE_KEYS_KEPT) {
      wholeKeys.clear();
      wholeKeysHeld = 0;
      return wholeDataKey(t);
    }
    key = dataKey(t);
    byTicker.set(t.ticker, key);
    wholeKeysHeld++;
  }
  return key;
}

/**
 * The path of a data request without its datapoint (its dataset's whole request, as `dataKey` without a name
 * writes it), read from the canonical path, whose query starts with `datapoint=`: no parsing, for the day turn,
 * which reads every answer of a day. Any other path is answered as it is.
 */
export function pathWithoutDatapoint(path: string): string {
  const q = path.indexOf("?datapoint=");
  if (q < 0 || path.startsWith("sector/")) return path;
  const amp = path.indexOf("&", q);
  return amp < 0 ? path.slice(0, q) : `${path.slice(0, q + 1)}${path.slice(amp + 1)}`;
}

/** The whole-dataset request that also answers a single-datapoint request, where the spec documents one. */
export function wholeOf(key: RequestKey): RequestKey | undefined {
  const f = key.fields;
  if (f.endpoint !== "data" || f.datapoint === undefined || !f.dataset.allDatapointsMode) return undefined;
  return RequestKey.data(f.dataset, f.ticker, f.year, f.period);
}

const DATASET_BY_PATH = new Map(DATASETS.map((d) => [d.path, d]));
const SECURITY_TYPE_SET = new Set<string>(SECURITY_TYPES);

const INTEGER = /^\d{1,4}$/;
const integer = (text: string | null): number | undefined =>
  text !== null && INTEGER.test(text) ? Number(text) : undefined;

/** A decoded identifier segment, upper-case as the client sends it; undefined when empty. */
function identifier(segment: string | undefined): string | undefined {
  if (segment === undefined) return undefined;
  const text = decodeURIComponent(segment).trim().toUpperCase();
  return text === "" || /^\.+$/.test(text) ? undefined : text;
}

function parsePath(text: string): RequestKey | undefined {
  const q = text.indexOf("?");
  const segments = (q < 0 ? text : text.slice(0, q)).replace(/^\/+/, "").split("/");
  const query = new URLSearchParams(q < 0 ? "" : text.slice(q + 1));
  const [first, second, third] = segments;
  const known = (names: string[]): boolean => [...query.keys()].every((k) => names.includes(k));
  switch (first) {
    case "datapoint": {
      if (segments.length > 2 || !known([])) return undefined;
      if (segments.length === 1) return RequestKey.metadata();
      const name = identifier(second);
      return name === undefined ? undefined : RequestKey.metadata(name);
    }
    case "coverage": {
      const type = second?.toLowerCase();
      if (type === undefined || !SECURITY_TYPE_SET.has(type) || segments.length > 3 || !known([]))
        return undefined;
      if (segments.length === 2) return RequestKey.coverage(type as SecurityType);
      const ticker = identifier(third);
      return ticker === undefined ? undefined : RequestKey.security(type as SecurityType, ticker);
    }
    case "ratings": {
      const ticker = identifier(third);
      if (second !== "component" || segments.length !== 3 || ticker === undefined || !known([]))
        return undefined;
      return RequestKey.ratings(ticker);
    }
    case "sector": {
      const id = identifier(second);
      const name = identifier(query.get("datapoint") ?? undefined);
      if (segments.length !== 2 || id === undefined || name === undefined) return undefined;
      if (!known(["datapoint", "prior_year"])) return undefined;
      const raw = query.get("prior_year");
      const prior = integer(raw);
      if (raw !== null && (prior === undefined || prior < PRIOR_YEARS.first || prior > PRIOR_YEARS.last))
        return undefined;
      return RequestKey.sector(id, name, prior);
    }
    default: {
      const dataset = DATASET_BY_PATH.get(segments.slice(0, -1).join("/"));
      const ticker = identifier(segments[segments.length - 1]);
      const year = integer(query.get("year"));
      if (!dataset || ticker === undefined || !isFiscalYear(year)) return undefined;
      if (!known(["datapoint", "year", "quarter", "ttm"])) return undefined;
      const number = (name: string): number | string | undefined => {
        const raw = query.get(name);
        return raw === null ? undefined : (integer(raw) ?? raw);
      };
      const period = periodOfArgs(number("quarter"), number("ttm"));
      if ("problem" in period) return undefined;
      const raw = query.get("datapoint");
      const name = raw === null ? undefined : identifier(raw);
      if (raw !== null && name === undefined) return undefined;
      return RequestKey.data(dataset, ticker, year, period, name);
    }
  }
}
