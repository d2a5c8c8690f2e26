// What Explain says about a cell: the explanation of each FDQ call in it (what it resolved to, where its value
// comes from, the request it makes) and what the call's requests cost in quota units. The vocabulary shared
// by the code that explains a call (explain.ts, explain-lifted.ts) and the pane that shows it.
import type { DatapointRecord, ResolvedPeriod } from "../../api";
import type { CatalogDatapoint, Dataset } from "../../catalog";
import type { CellValue, WorkbookAccess } from "../office/workbook";
import type { ArgInput } from "./fdq-call";
import type { PaneClient } from "./pane-client";
import { unitsText } from "./quota";
import type { Serving } from "./saver";

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

export type Source<Cached> =
  Cached | { readonly kind: "not-cached" } | { readonly kind: "error"; readonly message: string };

/**
 * The request URL (never the key), whether today's cache answers it and its price in quota units, or the
 * reason there is no request.
 */
export type RequestPlan =
  | {
      readonly url: string;
      readonly cached: boolean;
      readonly units: number;
      /** Not sent: today's cache knows FDQ does not cover the ticker, so the cell fails without it. */
      readonly notCovered?: true;
    }
  | { readonly invalid: string };

/** What a call's requests cost in quota units (one per datapoint x security x period, production-service.md, fact 11). */
export interface CallPrice {
  readonly requests: number;
  /** Units of every request of the call, cached or not. */
  readonly units: number;
  readonly cachedRequests: number;
  /** Units of the requests not in today's cache: what calculating the cell would spend now. */
  readonly toSpend: number;
  /** Requests not sent because today's cache knows FDQ does not cover their ticker (they spend nothing). */
  readonly notCovered: number;
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
  /** Not sent: today's cache knows FDQ does not cover the ticker. */
  readonly notCovered?: true;
  /** How the year's answer was served (policy, the day it was fetched). */
  readonly serving: Serving;
}

export interface CallBase {
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

export interface LiftedExplanation {
  readonly kind: "lifted";
  readonly text: string;
  readonly functionName: string;
  readonly rows: number;
  readonly columns: number;
  /** "3 calls (3 rows x 1 column)". */
  readonly summary: string;
  /** The first cells of the spill, each with its call explained (or why it makes no request). */
  readonly shown: readonly { readonly address: string; readonly call: CallExplanation }[];
  /**
   * Every cell's requests together, as the client would send them (equal requests once, the grouping
   * rule applied); undefined when no cell makes a request.
   */
  readonly price?: CallPrice;
  /** Cells of the spill that show an error without a request, with the first one's reason. */
  readonly noRequest: { readonly cells: number; readonly first?: string };
}

/** The price of a call's requests; `upTo` when the call stops at the first that answers (FDQ.SECURITY). */
export function priceOf(
  plans: readonly { cached: boolean; units: number; notCovered?: true }[],
  upTo: boolean,
): CallPrice {
  const cached = plans.filter((p) => p.cached);
  const notCovered = plans.filter((p) => !p.cached && p.notCovered === true);
  const units = plans.reduce((n, p) => n + p.units, 0);
  const unspent = [...cached, ...notCovered].reduce((n, p) => n + p.units, 0);
  return {
    requests: plans.length,
    units,
    cachedRequests: cached.length,
    toSpend: units - unspent,
    notCovered: notCovered.length,
    upTo,
  };
}

/** "1 unit; cached today: 0 units to spend." and the like. */
export function priceText(p: CallPrice): string {
  const upTo = p.upTo ? "up to " : "";
  const what =
    p.requests === 1 ? unitsText(p.units) : `${upTo}${unitsText(p.units)} for ${upTo}${p.requests} requests`;
  if (p.cachedRequests === p.requests) return `${what}; cached today: 0 units to spend.`;
  if (p.cachedRequests + p.notCovered === p.requests && p.notCovered > 0)
    return `${what}; not sent today, FDQ does not cover the ticker: 0 units to spend.`;
  const cached = p.cachedRequests === 0 ? "not cached today" : `${p.cachedRequests} cached today`;
  return `${what}; ${cached}: ${upTo}${unitsText(p.toSpend)} to spend on the next calculation.`;
}
