// An injected fetch for unit tests: a tiny FDQ answering from the catalog, with a script of failures,
// and a record of every request (URL, headers) and of the most requests open at once.
import { FdqClient, SECURITY_FIELDS, type ClientOptions } from "../../../src/api";
import { sleep } from "../../../src/api/sleep";
import { SPEC_ERRORS, findDataset } from "../../../src/catalog";
import { EXCEL_HINTS } from "../../../src/host/excel-hints";

export interface SeenRequest {
  url: URL;
  headers: Headers;
}

export type Handler = (url: URL, n: number) => Response | "default" | Promise<Response | "default">;

export const json = (status: number, value: unknown, headers: Record<string, string> = {}): Response =>
  new Response(JSON.stringify(value), {
    status,
    headers: { "content-type": "application/json", ...headers },
  });

/** The production envelope: body as a JSON string (or as an object). */
export const envelope = (results: unknown, bodyAsObject = false): Response =>
  json(200, {
    statusCode: 200,
    headers: { "Content-Type": "application/json" },
    body: bodyAsObject ? { results } : JSON.stringify({ results }),
  });

export const specError = (name: keyof typeof SPEC_ERRORS): Response =>
  json(SPEC_ERRORS[name].status, { message: SPEC_ERRORS[name].message });

/** A deterministic value per ticker, datapoint and period, with 17 fraction digits as the service sends. */
export function valueText(ticker: string, name: string, year: number, period: number): string {
  let h = year * 31 + period;
  for (const c of `${ticker}/${name}`) h = (h * 131 + c.charCodeAt(0)) % 1_000_003;
  return `${h % 2 ? "-" : ""}${h}.${String(h).padStart(17, "0").slice(0, 17)}`;
}

function record(ticker: string, name: string, url: URL): Record<string, unknown> {
  const year = Number(url.searchParams.get("year"));
  const quarter = url.searchParams.get("quarter");
  const ttm = url.searchParams.get("ttm");
  const period = Number(quarter ?? ttm ?? 5);
  const periodtype = quarter ? "QUARTERLY" : ttm ? "TTM" : "ANNUAL";
  return {
    ticker,
    year,
    period,
    periodtype,
    periodstring: periodtype,
    datapoint: name,
    datavalue: valueText(ticker, name, year, period),
    filingtype: "10-K",
  };
}

/** The stocks the fake's coverage list lists (its other lists are empty). */
export const LISTED_STOCKS = ["AAPL", "MSFT", "NODATA"];

/**
 * Data endpoints from the catalog; ticker NODATA answers DataNotFound; every ticker's coverage record; the
 * stock coverage list of LISTED_STOCKS.
 */
export function defaultAnswer(url: URL, bodyAsObject = false): Response {
  const parts = url.pathname.split("/").slice(2); // after "", "v1"
  if (parts[0] === "coverage" && parts.length === 2) {
    const listed = parts[1] === "stock" ? LISTED_STOCKS : [];
    const items = listed.map((ticker) => ({
      ticker,
      name: `${ticker} Inc`,
      type: "stock",
      sector: "X",
      last_trade_date: "2026-11-20",
    }));
    return envelope(items, bodyAsObject);
  }
  const ticker = decodeURIComponent(parts[parts.length - 1] ?? "");
  if (parts[0] === "coverage" && parts.length === 3) {
    // Every ticker is covered (NODATA too: a covered ticker without data for the period asked).
    const fields = SECURITY_FIELDS.map((f) => [
      f,
      f === "last_trade_date" ? "2026-11-20" : `${f} of ${ticker}`,
    ]);
    return envelope([{ ...Object.fromEntries(fields), ticker, type: parts[1] }], bodyAsObject);
  }
  const dataset = findDataset(parts.slice(0, 2).join("/"));
  if (!dataset) return json(404, { message: "Not Found" });
  if (ticker === "NODATA") return specError("DataNotFound");
  const name = url.searchParams.get("datapoint");
  if (name === null) {
    return envelope(
      dataset.datapoints.map((d) => record(ticker, d.name, url)),
      bodyAsObject,
    );
  }
  if (!dataset.datapoints.some((d) => d.name === name)) return specError("DataPointNotFound");
  const one = record(ticker, name, url);
  return envelope(dataset.group === "fundamentals" ? one : [one], bodyAsObject);
}

export class FakeFetch {
  readonly seen: SeenRequest[] = [];
  open = 0;
  maxOpen = 0;
  /** Milliseconds each answer takes (real timers), so concurrency can build up. */
  latencyMs = 0;

  constructor(private readonly handler: Handler = () => "default") {}

  get count(): number {
    return this.seen.length;
  }

  readonly fetch: typeof fetch = async (input, init) => {
    const url = new URL(String(input));
    const headers = new Headers(init?.headers);
    this.seen.push({ url, headers });
    this.open++;
    this.maxOpen = Math.max(this.maxOpen, this.open);
    try {
      if (this.latencyMs > 0) await sleep(this.latencyMs);
      const answer = await this.handler(url, this.seen.length);
      return answer === "default" ? defaultAnswer(url) : answer;
    } finally {
      this.open--;
    }
  };
}

export const BASE_URL = "https://fdq.test/v1";
export const API_KEY = "test-key-0123456789";

/**
 * A client on the fake service, with instant retry waits. Billing is `per-request` (whole datasets: the fast
 * plan) unless a test says otherwise: the transport, cache and coalescing tests describe that path;
 * planner.test.ts covers the default `per-datapoint` planning. The coverage check is `after` unless a test says
 * otherwise, for the same reason: these tests count the requests of the data path, which the default `list`
 * rule would open with one coverage list request per client; ticker-coverage.test.ts, cache-only.test.ts
 * (a preview's price) and taskpane/quota.test.ts (the pane's estimate against what a calculation spends) pass
 * the default `list`.
 */
export function makeClient(fake: FakeFetch, extra: Partial<ClientOptions> = {}): FdqClient {
  return new FdqClient({
    baseUrl: BASE_URL,
    apiKey: API_KEY,
    fetch: fake.fetch,
    sleep: async () => undefined,
    coalesceWindowMs: 1,
    billing: "per-request",
    coverageCheck: "after",
    // Messages worded as the add-in's clients word them, so the tests read what an Excel user reads.
    hints: EXCEL_HINTS,
    ...extra,
  });
}
