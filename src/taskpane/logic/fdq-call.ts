// From a cell's FDQ formula to the service requests it makes. The formula grammar and the function
// signatures belong to src/functions; this file only maps a parsed call to the request module's requests.
import { parseFormula, type FdqCall, type FormulaArg } from "../../functions/formula";
import { parseSeriesPeriod } from "../../functions/impl/series";
import type { DatapointRequest } from "../../api";
import { messageOf } from "./message";

export type ParsedCell =
  { readonly ok: true; readonly call: FdqCall } | { readonly ok: false; readonly message: string };

export function parseCell(formula: string): ParsedCell {
  try {
    return { ok: true, call: parseFormula(formula) };
  } catch (err) {
    return { ok: false, message: messageOf(err) };
  }
}

const optionalNumber = (arg: FormulaArg | undefined): number | null => (typeof arg === "number" ? arg : null);
const text = (arg: FormulaArg | undefined): string => (arg === null || arg === undefined ? "" : String(arg));

/**
 * The datapoint request of an FDQ.DATAPOINT call; undefined for the other functions, whose requests the
 * request module does not plan. Arguments are passed on as written: the request module validates them.
 */
export function datapointRequestOf(call: FdqCall): DatapointRequest | undefined {
  if (call.name !== "DATAPOINT") return undefined;
  const [ticker, dataset, name, year, quarter, ttm] = call.args;
  return {
    ticker: text(ticker),
    dataset: text(dataset),
    name: text(name),
    year: typeof year === "number" ? year : Number.NaN,
    quarter: optionalNumber(quarter),
    ttm: optionalNumber(ttm),
  };
}

/**
 * The datapoint requests a call makes: one for FDQ.DATAPOINT, one per year for FDQ.SERIES; undefined for
 * the other functions, whose requests the request module does not plan. Throws the request module's
 * InvalidArgumentError for a SERIES period or year range it refuses.
 */
export function datapointRequestsOf(call: FdqCall): DatapointRequest[] | undefined {
  if (call.name === "DATAPOINT") {
    const request = datapointRequestOf(call);
    return request ? [request] : undefined;
  }
  if (call.name !== "SERIES") return undefined;
  const [ticker, dataset, name, from, to, period] = call.args;
  if (typeof from !== "number" || typeof to !== "number" || to < from) return [];
  const { quarter, ttm } = parseSeriesPeriod(period);
  return Array.from({ length: to - from + 1 }, (_, i) => ({
    ticker: text(ticker),
    dataset: text(dataset),
    name: text(name),
    year: from + i,
    quarter: quarter ?? null,
    ttm: ttm ?? null,
  }));
}
