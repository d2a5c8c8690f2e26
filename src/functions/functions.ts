// The FDQ worksheet functions as Excel sees them. The JSDoc tags are the source of functions.json
// (custom-functions-metadata-plugin generates it and appends the CustomFunctions.associate calls at
// build time); each function only hands its arguments to the shared implementation with the shared
// runtime's client and turns any failure into a CustomFunctions.Error, so every call settles.
// Arguments typed `unknown` reach the implementation as typed in the cell, so a wrong value gets our
// #VALUE! message naming the argument instead of Excel's silent conversion error.
// Ranges: the scalar functions (DATAPOINT, RATING, SECTOR, SECURITY, INFO, CARD) keep scalar parameters, so
// Excel array-lifts a range given to them (one call per cell, the results spill). The spilling functions
// (DATASET, SERIES, COVERAGE) cannot be lifted: their parameters are matrices (`T[][]`) so they receive a
// range as it is and refuse it naming the argument (see ranges.ts, office-js-docs-pr#2238).
// Formula value preview: Excel passes every custom function an invocation object as its last argument (a last
// parameter typed CustomFunctions.Invocation is left out of functions.json's parameters); where Excel calls a
// function to preview part of a formula being edited (CustomFunctionsRuntime 1.5) it says so in
// `isInValuePreview`, and the function then reads today's cache only (impl.cacheOnly): a preview never sends a
// request. A host without 1.5 passes no such property, and every call is an ordinary one.
// Data types (CustomFunctionsRuntime 1.4): functions.json allows custom data for parameters typed `any`
// (allowCustomDataForDataTypeAny, written by custom-functions-metadata and checked by `npm run validate`), so a
// ticker may be an FDQ card or a Stocks entity (impl/ticker-arg.ts) and a number with its source reaches any
// argument as its JSON, read as its basicValue (impl.basicArg). FDQ.CARD returns an Excel.EntityCellValue, and
// with the pane's "numbers with their source" the numeric functions return Excel.DoubleCellValues; where Excel
// lacks the requirement sets the values stay plain and FDQ.CARD is a #N/A saying why (host/rich-value-support.ts).
import { FdqError } from "../api";
import { richValueSupport } from "../host/rich-value-support";
import { getSharedClient } from "../host/shared-client";
import { currentValueOptions } from "../host/value-options-host";
import { customFunctionsErrors, toExcelError } from "./errors";
import * as impl from "./impl";
import { singleCells } from "./ranges";

/**
 * Where the functions are registered: custom-functions-metadata-plugin appends a `CustomFunctions.associate(id, fn)`
 * per function to this file at build time, and they reach this object, which hands each to Excel's registry. Only
 * Excel has one: opened outside Excel (a browser tab, or office.js did not load) the page says how to open the add-in
 * (src/taskpane/outside-excel.ts), there is nothing to register with, and the console stays clean.
 */
// eslint-disable-next-line @typescript-eslint/no-unused-vars -- called by the lines the plugin appends at build time
const CustomFunctions = {
  associate(id: string, fn: (...args: never[]) => unknown): void {
    const excel = (globalThis as { CustomFunctions?: { associate(id: string, fn: unknown): void } })
      .CustomFunctions;
    if (typeof excel !== "undefined") excel.associate(id, fn);
  },
};

/**
 * Whether Excel calls to preview a formula being edited. The reference gives `isInValuePreview` as true or
 * false, while @types/custom-functions-runtime 1.6 declares it a string: both spellings of true are read.
 */
function inValuePreview(invocation: CustomFunctions.Invocation | undefined): boolean {
  const flag: unknown = invocation?.isInValuePreview;
  return flag === true || flag === "true";
}

/** The shared runtime's client, reading only today's cache for a value preview. */
async function clientFor(invocation: CustomFunctions.Invocation | undefined): Promise<impl.FdqApi> {
  const client = await getSharedClient();
  return inValuePreview(invocation) ? impl.cacheOnly(client) : client;
}

async function settle<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    throw toExcelError(err, customFunctionsErrors);
  }
}

const cellError = (err: unknown): CustomFunctions.Error => toExcelError(err, customFunctionsErrors);

/** Every argument as the functions read it: a data-type value other than an entity as its basicValue. */
function plain<K extends string>(args: Readonly<Record<K, unknown>>): Record<K, unknown> {
  const out = {} as Record<K, unknown>;
  for (const key of Object.keys(args) as K[]) out[key] = impl.basicArg(args[key]);
  return out;
}

/**
 * The value of one datapoint for a fiscal year, quarter or trailing twelve months.
 * @customfunction DATAPOINT
 * @param ticker Ticker of the security, e.g. "AAPL" (inactive stocks: "ENRN:1").
 * @param dataset Dataset path such as "metrics/roic", or its last part "roic".
 * @param name Datapoint name, e.g. "ROIC".
 * @param year Fiscal year, e.g. 2023, or a relative period: "FY0" (latest fiscal year), "FY-1", "FQ0" (latest quarter), "LTM".
 * @param [quarter] Fiscal quarter 1 to 4; omit for the annual value.
 * @param [ttm] Trailing twelve months ending with quarter 1 to 4 of the year; omit for the annual value.
 * @returns The value: a number, or text for text datapoints.
 */
export function datapoint(
  ticker: unknown,
  dataset: string,
  name: string,
  year: unknown,
  quarter?: unknown,
  ttm?: unknown,
  invocation?: CustomFunctions.Invocation,
): Promise<number | string | Excel.DoubleCellValue> {
  return settle(async () => {
    const args = plain({ ticker, dataset, name, year, quarter, ttm });
    const { withSource } = await currentValueOptions();
    return impl.datapoint(await clientFor(invocation), args, withSource);
  });
}

/**
 * Every datapoint of a dataset for one period, one row per datapoint in catalog order (spills).
 * @customfunction DATASET
 * @param ticker Ticker of the security, e.g. "AAPL".
 * @param dataset Dataset path such as "reconciliation/net-income-to-nopat", or its last part.
 * @param year Fiscal year, e.g. 2023, or a relative period: "FY0" (latest fiscal year), "FY-1", "FQ0", "LTM".
 * @param [quarter] Fiscal quarter 1 to 4; omit for annual values.
 * @param [ttm] Trailing twelve months ending with quarter 1 to 4; omit for annual values.
 * @param [with_signs] TRUE adds the reconciliation sign (+, -, =, /) before each row.
 * @returns Rows of datapoint name and value (sign, name and value with with_signs).
 */
export function dataset(
  ticker: unknown[][],
  dataset: string[][],
  year: unknown[][],
  quarter?: unknown[][],
  ttm?: unknown[][],
  with_signs?: unknown[][],
  invocation?: CustomFunctions.Invocation,
): Promise<unknown[][]> {
  return settle(async () => {
    const args = plain(singleCells("DATASET", { ticker, dataset, year, quarter, ttm, with_signs }));
    const { withSource } = await currentValueOptions();
    return impl.dataset(await clientFor(invocation), args, withSource);
  });
}

/**
 * One datapoint across fiscal years, in one row (spills right). A year without data shows #N/A.
 * @customfunction SERIES
 * @param ticker Ticker of the security, e.g. "AAPL".
 * @param dataset Dataset path such as "metrics/roic", or its last part "roic".
 * @param name Datapoint name, e.g. "ROIC".
 * @param from_year First fiscal year, or a relative period such as "FY-9".
 * @param to_year Last fiscal year, or a relative period such as "FY0".
 * @param [period] "annual" (default), "Q1".."Q4" or "TTM1".."TTM4".
 * @returns One row with a value per fiscal year.
 */
export function series(
  ticker: unknown[][],
  dataset: string[][],
  name: string[][],
  from_year: unknown[][],
  to_year: unknown[][],
  period?: unknown[][],
  invocation?: CustomFunctions.Invocation,
): Promise<unknown[][]> {
  return settle(async () => {
    const args = plain(singleCells("SERIES", { ticker, dataset, name, from_year, to_year, period }));
    const { withSource } = await currentValueOptions();
    return impl.series(await clientFor(invocation), args, cellError, withSource);
  });
}

/**
 * A component rating of a stock, ETF or mutual fund: 1 (very attractive) to 5 (very unattractive).
 * @customfunction RATING
 * @param ticker Ticker of the stock, ETF or mutual fund.
 * @param [field] overall (default), pebv, gap, fcf_yield, roic, economic_eps, costs, cash or name; a record field such as rating_roic; or a number 1 to 9.
 * @returns The rating 1 to 5 (the security name for field name or 9).
 */
export function rating(
  ticker: unknown,
  field?: unknown,
  invocation?: CustomFunctions.Invocation,
): Promise<number | string> {
  return settle(async () => impl.rating(await clientFor(invocation), plain({ ticker, field })));
}

/**
 * A datapoint of a sector or industry.
 * @customfunction SECTOR
 * @param id Sector or industry identifier, e.g. "TECHNOLOGYSEC" (see FDQ.COVERAGE("sector")).
 * @param datapoint Sector datapoint name, e.g. "ROIC_AVG".
 * @param [prior_year] Years before the last fiscal year, 0 to 5; omit for the last fiscal year.
 * @returns The value: a number, or text for text datapoints.
 */
export function sector(
  id: string,
  datapoint: string,
  prior_year?: unknown,
  invocation?: CustomFunctions.Invocation,
): Promise<number | string | Excel.DoubleCellValue> {
  return settle(async () => {
    const args = plain({ id, datapoint, prior_year });
    const { withSource } = await currentValueOptions();
    return impl.sector(await clientFor(invocation), args, withSource);
  });
}

/**
 * The covered securities of a type, with a header row (spills).
 * @customfunction COVERAGE
 * @param type stock, etf, mf, inactive, sector or industry.
 * @returns A header row, then ticker, name, type, sector and last trade date per security.
 */
export function coverage(type: string[][], invocation?: CustomFunctions.Invocation): Promise<unknown[][]> {
  return settle(async () => impl.coverage(await clientFor(invocation), singleCells("COVERAGE", { type })));
}

/**
 * One field of a security's coverage record (name, sector_name, industry_name, last_trade_date, ...).
 * @customfunction SECURITY
 * @param ticker Ticker of the security.
 * @param field ticker, name, type, sector, last_trade_date, sector_name, subsector, subsector_name, industry, industry_name, subindustry or subindustry_name.
 * @param [type] stock, etf, mf, inactive, sector or industry; omitted: inactive for tickers with a colon, else stock, then etf, then mf.
 * @returns The field's text.
 */
export function security(
  ticker: unknown,
  field: string,
  type?: unknown,
  invocation?: CustomFunctions.Invocation,
): Promise<string> {
  return settle(async () => impl.security(await clientFor(invocation), plain({ ticker, field, type })));
}

/**
 * What a datapoint means, or where it appears.
 * @customfunction INFO
 * @param name Datapoint name, e.g. "ROIC".
 * @param [field] description (default) or endpoints.
 * @returns The datapoint's description or its endpoints.
 */
export function info(
  name: string,
  field?: unknown,
  invocation?: CustomFunctions.Invocation,
): Promise<string> {
  return settle(async () => impl.info(await clientFor(invocation), plain({ name, field })));
}

/**
 * A security as a card: its name and ticker in the cell; coverage, ratings, chosen key metrics and source on the card.
 * @customfunction CARD
 * @param ticker Ticker of the stock, ETF, mutual fund or inactive stock ("ENRN:1"), or a Stocks data type.
 * @param [type] stock, etf, mf or inactive; omitted: inactive for tickers with a colon, else stock, then etf, then mf.
 * @returns A card (an Excel data type): =A2.Sector, =A2.ROIC and the other properties read it.
 */
export function card(
  ticker: unknown,
  type?: unknown,
  invocation?: CustomFunctions.Invocation,
): Promise<Excel.EntityCellValue> {
  return settle(async () => {
    const support = richValueSupport();
    if (!support.supported)
      throw new FdqError({ message: `FDQ.CARD cannot show a card here. ${support.reason}` });
    const { cardMetrics } = await currentValueOptions();
    return impl.card(await clientFor(invocation), plain({ ticker, type }), cardMetrics);
  });
}
