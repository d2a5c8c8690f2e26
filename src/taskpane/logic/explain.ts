// "Explain this cell": for each FDQ call of the selected cell's formula, what it resolved to (cell references
// read, arguments read as the functions read them), where its value comes from and the request it makes.
// Answers from the shared client's cache only; it never sends a request of its own.
import {
  DEFAULTS,
  RefreshDayClock,
  type DatapointRecord,
  type DatapointRequest,
  type DatasetRequest,
  type RequestPlan as ClientPlan,
  type ResolvedPeriod,
} from "../../api";
import { findDatapoint, findDataset, type CatalogDatapoint, type Dataset } from "../../catalog";
import { isFdqFormula, type CellSnapshot, type CellValue, type WorkbookAccess } from "../office/workbook";
import { requestsOf, type ServiceRequest } from "../../functions/requests";
import { explainLifted, type LiftedExplanation } from "./explain-lifted";
import { resolveCells, type ArgInput, type ResolvedCall } from "./fdq-call";
import { messageOf } from "./message";
import type { PaneClient } from "./pane-client";
import { periodDetail, periodLabel, resolvedText } from "./period";
import { unitsText } from "./quota";
import { DEFAULT_KEEP_DAYS, saverVerdict, type Serving } from "./saver";

export type ValueSource =
  | {
      readonly kind: "cache";
      readonly refreshDay: string;
      readonly record: DatapointRecord;
      readonly value: number | string;
      /** What a relative period (FY0...) named, and on which refresh day it was found. */
      readonly resolved?: ResolvedPeriod;
      /** Said by the change report's hook (ExplainOptions.restatementOf) when the value restates one seen before. */
      readonly restatement?: string;
    }
  | { readonly kind: "not-cached" }
  | { readonly kind: "error"; readonly message: string };

export type DatasetSource =
  | {
      readonly kind: "cache";
      readonly refreshDay: string;
      readonly rows: number;
      readonly resolved?: ResolvedPeriod;
    }
  | { readonly kind: "not-cached" }
  | { readonly kind: "error"; readonly message: string };

type Source<Cached> =
  Cached | { readonly kind: "not-cached" } | { readonly kind: "error"; readonly message: string };

/**
 * The request URL (never the key), whether today's cache answers it and its price in quota units, or the
 * reason there is no request.
 */
export type RequestPlan =
  { readonly url: string; readonly cached: boolean; readonly units: number } | { readonly invalid: string };

/** What a call's requests cost in quota units (one per datapoint x security x period, wire-notes 11). */
export interface CallPrice {
  readonly requests: number;
  /** Units of every request of the call, cached or not. */
  readonly units: number;
  readonly cachedRequests: number;
  /** Units of the requests not in today's cache: what calculating the cell would spend now. */
  readonly toSpend: number;
  /** FDQ.SECURITY without a type counts each type it may try: then these are upper bounds. */
  readonly upTo: boolean;
}

/** What the catalog and the service say about the datapoint a call asks for. */
export interface DatapointFacts {
  readonly ticker: string;
  /** Undefined when the dataset argument names no dataset. */
  readonly dataset?: Dataset;
  readonly datasetArg: string;
  readonly datapointName: string;
  /** The catalog entry; undefined when the catalog does not list the name in that dataset. */
  readonly datapoint?: CatalogDatapoint;
  readonly description: string;
}

export interface SeriesYear {
  readonly period: string;
  readonly url: string;
  readonly cached: boolean;
  readonly units: number;
  /** How the year's answer was served (policy, the day it was fetched). */
  readonly serving: Serving;
}

interface CallBase {
  /** The call as written in the formula. */
  readonly text: string;
  readonly inputs: readonly ArgInput[];
}

export type CallExplanation =
  | { readonly kind: "unplanned"; readonly text: string; readonly reason: string }
  | (CallBase & {
      readonly kind: "datapoint";
      readonly facts: DatapointFacts;
      readonly period: string;
      readonly periodDetail: string;
      readonly request: RequestPlan;
      /** Which refresh policy serves the value and the day it was fetched; undefined without a request. */
      readonly serving?: Serving;
      readonly source: ValueSource;
    })
  | (CallBase & {
      readonly kind: "series";
      readonly facts: DatapointFacts;
      /** One entry per fiscal year, or the reason the years cannot be requested. */
      readonly years: readonly SeriesYear[] | { readonly invalid: string };
      /** Undefined when the years cannot be requested. */
      readonly price?: CallPrice;
    })
  | (CallBase & {
      readonly kind: "dataset";
      readonly ticker: string;
      readonly dataset?: Dataset;
      readonly datasetArg: string;
      readonly period: string;
      readonly periodDetail: string;
      readonly request: RequestPlan;
      /** Which refresh policy serves the answer and the day it was fetched; undefined without a request. */
      readonly serving?: Serving;
      readonly source: DatasetSource;
    })
  | (CallBase & {
      readonly kind: "endpoint";
      readonly functionName: string;
      /** What the call asks the service for, in order (FDQ.SECURITY may try several types). */
      readonly asks: readonly string[];
      readonly price: CallPrice;
    })
  /** A scalar function given a range: the calls Excel makes when it lifts it (explain-lifted.ts). */
  | LiftedExplanation;

export type Explanation =
  | { readonly kind: "empty"; readonly address: string }
  | { readonly kind: "not-fdq"; readonly address: string; readonly formula: string }
  | {
      readonly kind: "fdq";
      readonly address: string;
      readonly formula: string;
      readonly value: CellValue;
      readonly calls: readonly CallExplanation[];
    };

export interface ExplainOptions {
  readonly client: PaneClient;
  readonly workbook: Pick<WorkbookAccess, "cellValues">;
  /** Description by datapoint name: the service's /v1/datapoint text where loaded, else the catalog's. */
  readonly describe: (name: string) => string;
  /** Today's refresh day; the default boundary's day now when left out. */
  readonly today?: string;
  /** The quota saver's keep days (the saved settings'); 7 when left out. */
  readonly keepDays?: number;
  /**
   * The change report's hook: whether a cached value restates one seen before (its words, e.g. "restated
   * from 1.23 on 2026-11-20"), by the answer's URL and the value; left out, Explain says nothing of it.
   */
  readonly restatementOf?: (url: string, value: number | string) => string | undefined;
}

/** How the client serves a planned request's answer, in the terms Explain shows. */
function servingOf(plan: ClientPlan, options: ExplainOptions): Serving {
  const today = options.today ?? new RefreshDayClock(DEFAULTS.refreshDay).label(Date.now());
  return {
    policy: plan.policy,
    fetchedOn: plan.cached ? plan.fetchedOn : undefined,
    today,
    keepDays: options.keepDays ?? DEFAULT_KEEP_DAYS,
    verdict: saverVerdict(plan.key, today),
  };
}

function factsOf(request: DatapointRequest, describe: (name: string) => string): DatapointFacts {
  const dataset = findDataset(String(request.dataset));
  const datapointName = String(request.name).toUpperCase();
  return {
    ticker: String(request.ticker).toUpperCase(),
    dataset,
    datasetArg: String(request.dataset),
    datapointName,
    datapoint: dataset ? findDatapoint(dataset, datapointName) : undefined,
    description: describe(datapointName),
  };
}

/**
 * The request a call would make and, when today's cache answers it, what the cache holds. Reading a cached
 * answer (or a remembered "not found") sends no request, so Explain never does.
 */
async function planAndPeek<Cached>(
  plan: () => ClientPlan,
  readCached: () => Promise<Cached>,
  options: ExplainOptions,
): Promise<{ planned: RequestPlan; serving?: Serving; source: Source<Cached> }> {
  let planned: RequestPlan;
  let serving: Serving;
  try {
    const p = plan();
    planned = { url: p.url, cached: p.cached, units: p.units };
    serving = servingOf(p, options);
  } catch (err) {
    const invalid = messageOf(err);
    return { planned: { invalid }, source: { kind: "error", message: invalid } };
  }
  if (!planned.cached) return { planned, serving, source: { kind: "not-cached" } };
  try {
    return { planned, serving, source: await readCached() };
  } catch (err) {
    return { planned, serving, source: { kind: "error", message: messageOf(err) } };
  }
}

/** The price of a call's requests; `upTo` when the call stops at the first that answers (FDQ.SECURITY). */
export function priceOf(plans: readonly { cached: boolean; units: number }[], upTo: boolean): CallPrice {
  const cached = plans.filter((p) => p.cached);
  const units = plans.reduce((n, p) => n + p.units, 0);
  return {
    requests: plans.length,
    units,
    cachedRequests: cached.length,
    toSpend: units - cached.reduce((n, p) => n + p.units, 0),
    upTo,
  };
}

/** "1 unit; cached today: 0 units to spend." and the like. */
export function priceText(p: CallPrice): string {
  const upTo = p.upTo ? "up to " : "";
  const what =
    p.requests === 1 ? unitsText(p.units) : `${upTo}${unitsText(p.units)} for ${upTo}${p.requests} requests`;
  if (p.cachedRequests === p.requests) return `${what}; cached today: 0 units to spend.`;
  const cached = p.cachedRequests === 0 ? "not cached today" : `${p.cachedRequests} cached today`;
  return `${what}; ${cached}: ${upTo}${unitsText(p.toSpend)} to spend on the next calculation.`;
}

async function explainDatapoint(
  base: CallBase,
  request: DatapointRequest,
  options: ExplainOptions,
): Promise<CallExplanation> {
  const { client, describe } = options;
  const { planned, serving, source } = await planAndPeek<ValueSource>(
    () => client.plan({ kind: "datapoint", request }),
    async () => {
      const result = await client.datapoint(request);
      const restatement = options.restatementOf?.(result.url, result.value);
      return {
        kind: "cache",
        refreshDay: result.refreshDay,
        record: result.record,
        value: result.value,
        ...(result.resolved && { resolved: result.resolved }),
        ...(restatement && { restatement }),
      };
    },
    options,
  );
  const resolved = source.kind === "cache" ? source.resolved : undefined;
  return {
    ...base,
    kind: "datapoint",
    facts: factsOf(request, describe),
    period: resolved ? resolvedText(resolved, String(request.ticker).toUpperCase()) : periodLabel(request),
    periodDetail: periodDetail(request),
    request: planned,
    ...(serving && { serving }),
    source,
  };
}

function explainSeries(
  base: CallBase,
  requests: readonly DatapointRequest[],
  options: ExplainOptions,
): CallExplanation {
  const { client, describe } = options;
  let years: readonly SeriesYear[] | { invalid: string };
  try {
    years = requests.map((r) => {
      const plan = client.plan({ kind: "datapoint", request: r });
      return {
        period: periodLabel(r),
        url: plan.url,
        cached: plan.cached,
        units: plan.units,
        serving: servingOf(plan, options),
      };
    });
  } catch (err) {
    years = { invalid: messageOf(err) };
  }
  const price = "invalid" in years ? undefined : priceOf(years, false);
  // requestsOf answers at least one request for a SERIES call it does not refuse.
  return { ...base, kind: "series", facts: factsOf(requests[0]!, describe), years, ...(price && { price }) };
}

async function explainDataset(
  base: CallBase,
  request: DatasetRequest,
  options: ExplainOptions,
): Promise<CallExplanation> {
  const { client } = options;
  const { planned, serving, source } = await planAndPeek<DatasetSource>(
    () => client.plan({ kind: "dataset", request }),
    async () => {
      const result = await client.dataset(request);
      return {
        kind: "cache",
        refreshDay: result.refreshDay,
        rows: result.records.length,
        ...(result.resolved && { resolved: result.resolved }),
      };
    },
    options,
  );
  const resolved = source.kind === "cache" ? source.resolved : undefined;
  const ticker = String(request.ticker).toUpperCase();
  return {
    ...base,
    kind: "dataset",
    ticker,
    dataset: findDataset(String(request.dataset)),
    datasetArg: String(request.dataset),
    period: resolved ? resolvedText(resolved, ticker) : periodLabel(request),
    periodDetail: periodDetail(request),
    request: planned,
    ...(serving && { serving }),
    source,
  };
}

/** What a request of the endpoints the client does not plan asks for, in the pane's words. */
function describeRequest(r: ServiceRequest, index: number): string {
  switch (r.kind) {
    case "ratings":
      return `The component ratings of ${r.ticker.toUpperCase()}.`;
    case "sector": {
      const years = Number(r.request.priorYear ?? 0);
      const when =
        years > 0 ? `${years} fiscal year${years === 1 ? "" : "s"} before the last` : "the last fiscal year";
      return `Datapoint ${r.request.name} of sector or industry ${r.request.id}, for ${when}.`;
    }
    case "coverage":
      return `The list of covered securities of type ${r.type}.`;
    case "security":
      return index === 0
        ? `The coverage record of ${r.ticker.toUpperCase()} among ${r.type} securities.`
        : `If it is not found there: among ${r.type} securities.`;
    case "info":
      return `The service's description and endpoints of datapoint ${r.name}.`;
    case "datapoint":
      return `Datapoint ${r.request.name} of ${r.request.ticker}, ${periodLabel(r.request)}.`;
    case "dataset":
      return `Every datapoint of ${r.request.dataset} for ${r.request.ticker}, ${periodLabel(r.request)}.`;
  }
}

async function explainCall(call: ResolvedCall, options: ExplainOptions): Promise<CallExplanation> {
  if (!call.ok) return { kind: "unplanned", text: call.text, reason: call.reason };
  if (call.kind === "lifted") return explainLifted(call, options, (one) => explainCall(one, options));
  let requests: ServiceRequest[];
  try {
    requests = await requestsOf(call.call);
  } catch (err) {
    return { kind: "unplanned", text: call.text, reason: messageOf(err) };
  }
  const base: CallBase = { text: call.text, inputs: call.inputs };
  const datapoints = requests.flatMap((r) => (r.kind === "datapoint" ? [r.request] : []));
  const [first] = requests;
  if (call.call.name === "DATAPOINT" && datapoints[0]) return explainDatapoint(base, datapoints[0], options);
  if (call.call.name === "SERIES" && datapoints.length > 0) return explainSeries(base, datapoints, options);
  if (first?.kind === "dataset") return explainDataset(base, first.request, options);
  let plans: { cached: boolean; units: number }[];
  try {
    // Checks the arguments as the client will: a refused one makes no request.
    plans = requests.map((r) => options.client.plan(r));
  } catch (err) {
    return { kind: "unplanned", text: call.text, reason: messageOf(err) };
  }
  return {
    ...base,
    kind: "endpoint",
    functionName: `FDQ.${call.call.name}`,
    asks: requests.map(describeRequest),
    price: priceOf(plans, plans.length > 1),
  };
}

export async function explainCell(cell: CellSnapshot, options: ExplainOptions): Promise<Explanation> {
  const { address, formula, value } = cell;
  if (formula === "" && value === "") return { kind: "empty", address };
  if (!isFdqFormula(formula)) return { kind: "not-fdq", address, formula };
  const [resolved] = await resolveCells([cell], options.workbook);
  if (!resolved || resolved.calls.length === 0) return { kind: "not-fdq", address, formula };
  const calls: CallExplanation[] = [];
  for (const call of resolved.calls) calls.push(await explainCall(call, options));
  return { kind: "fdq", address, formula, value, calls };
}
