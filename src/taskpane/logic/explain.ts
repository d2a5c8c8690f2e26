// "Explain this cell": what an FDQ formula resolves to, where its value comes from, and the request it
// makes. Answers from the shared client's cache only; it never sends a request of its own.
import { findDatapoint, findDataset, type CatalogDatapoint, type Dataset } from "../../catalog";
import type { DatapointRecord } from "../../api";
import type { CellSnapshot } from "../office/workbook";
import { datapointRequestOf, parseCell } from "./fdq-call";
import type { PaneClient } from "./pane-client";
import { periodDetail, periodLabel } from "./period";
import { messageOf } from "./message";

export type ValueSource =
  | {
      readonly kind: "cache";
      readonly refreshDay: string;
      readonly record: DatapointRecord;
      readonly value: number | string;
    }
  | { readonly kind: "not-cached" }
  | { readonly kind: "error"; readonly message: string };

export type Explanation =
  | { readonly kind: "empty"; readonly address: string }
  | { readonly kind: "not-fdq"; readonly address: string; readonly formula: string }
  | {
      readonly kind: "unparsed";
      readonly address: string;
      readonly formula: string;
      readonly message: string;
    }
  | {
      readonly kind: "other-function";
      readonly address: string;
      readonly formula: string;
      readonly functionName: string;
      readonly value: string | number | boolean;
    }
  | {
      readonly kind: "datapoint";
      readonly address: string;
      readonly formula: string;
      readonly value: string | number | boolean;
      readonly ticker: string;
      /** Undefined when the dataset argument names no dataset. */
      readonly dataset?: Dataset;
      readonly datasetArg: string;
      readonly datapointName: string;
      /** The catalog entry; undefined when the catalog does not list the name in that dataset. */
      readonly datapoint?: CatalogDatapoint;
      readonly description: string;
      readonly period: string;
      readonly periodDetail: string;
      /** The request URL (never the key), or the reason there is none. */
      readonly request: { readonly url: string; readonly cached: boolean } | { readonly invalid: string };
      readonly source: ValueSource;
    };

export interface ExplainOptions {
  readonly client: PaneClient;
  /** Description by datapoint name: the service's /v1/datapoint text where loaded, else the catalog's. */
  readonly describe: (name: string) => string;
}

export async function explainCell(cell: CellSnapshot, options: ExplainOptions): Promise<Explanation> {
  const { address, formula, value } = cell;
  if (formula === "" && value === "") return { kind: "empty", address };
  if (!formula.startsWith("=") || !/FDQ\./i.test(formula)) return { kind: "not-fdq", address, formula };
  const parsed = parseCell(formula);
  if (!parsed.ok) return { kind: "unparsed", address, formula, message: parsed.message };
  const request = datapointRequestOf(parsed.call);
  if (!request) {
    return { kind: "other-function", address, formula, functionName: `FDQ.${parsed.call.name}`, value };
  }

  const dataset = findDataset(request.dataset);
  const datapointName = request.name.toUpperCase();
  const datapoint = dataset ? findDatapoint(dataset, datapointName) : undefined;
  let planned: { url: string; cached: boolean } | { invalid: string };
  let source: ValueSource = { kind: "not-cached" };
  try {
    const plan = options.client.planDatapoint(request);
    planned = { url: plan.url, cached: plan.cached };
    if (plan.cached) {
      // Served from the cache (or a remembered "not found" answer): no request is sent.
      try {
        const result = await options.client.datapoint(request);
        source = { kind: "cache", refreshDay: result.refreshDay, record: result.record, value: result.value };
      } catch (err) {
        source = { kind: "error", message: messageOf(err) };
      }
    }
  } catch (err) {
    const message = messageOf(err);
    planned = { invalid: message };
    source = { kind: "error", message };
  }
  return {
    kind: "datapoint",
    address,
    formula,
    value,
    ticker: request.ticker.toUpperCase(),
    dataset,
    datasetArg: request.dataset,
    datapointName,
    datapoint,
    description: options.describe(datapointName),
    period: periodLabel(request),
    periodDetail: periodDetail(request),
    request: planned,
    source,
  };
}
