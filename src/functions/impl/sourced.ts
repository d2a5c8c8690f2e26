// Numbers that know where they came from: with ValueOptions.withSource, a number of FDQ.DATAPOINT, FDQ.SERIES,
// FDQ.DATASET or FDQ.SECTOR is returned as a Double (Excel.DoubleCellValue) whose basicValue is the number every
// formula computes with, whose number format suits the datapoint (src/catalog/number-formats.ts), and whose
// properties say what was asked and what answered. Text datapoints stay text; errors stay errors.
import type { DatapointRecord, DatapointResult, PreviousValue, SectorResult } from "../../api";
import { findDataset, isRelativePeriod, numberFormatOf, relativeText } from "../../catalog";
import { double, PropertyList, text, type DoubleValue } from "../cell-values";
import type { FdqApi } from "./client";

/** The previous refresh day's value of a datapoint of the answer at `url` (FdqClient.previousValue). */
export type DayBefore = (url: string, datapoint: string) => PreviousValue | undefined;

/** The client's previous-day values, where it keeps them (a recorder of requests does not). */
export const dayBeforeOf = (client: FdqApi): DayBefore | undefined =>
  client.previousValue && ((url, datapoint) => client.previousValue!(url, datapoint));

/** What "Restated since the day before" says when no value of the day before was kept for the number. */
export const RESTATEMENT_UNKNOWN = "not known: no value kept from the day before";

/**
 * "Restated since the day before": the service's value text today against the one the day cache kept at the
 * day turn (src/api/previous-day.ts), compared exactly as sent, so a change in any digit counts.
 */
export function restatedWords(datavalue: string, before: PreviousValue | undefined): string {
  if (!before) return RESTATEMENT_UNKNOWN;
  return before.datavalue === datavalue
    ? `no: the same on ${before.day}`
    : `yes: was ${before.datavalue} on ${before.day}`;
}

/** The fiscal period as the call asked it: "FY0", "2023", "2023 Q2", "2023 TTM2". */
export function periodAsked(year: unknown, quarter: unknown, ttm: unknown): string {
  const base = isRelativePeriod(year) ? relativeText(year) : String(year);
  if (typeof quarter === "number") return `${base} Q${quarter}`;
  if (typeof ttm === "number") return `${base} TTM${ttm}`;
  return base;
}

/** The period a record holds, in words: "fiscal 2025", "Q2 of fiscal 2025", "TTM to Q2 of fiscal 2025". */
export function periodWords(record: Pick<DatapointRecord, "year" | "period" | "periodtype">): string {
  if (record.periodtype === "QUARTERLY") return `Q${record.period} of fiscal ${record.year}`;
  if (record.periodtype === "TTM") return `TTM to Q${record.period} of fiscal ${record.year}`;
  return `fiscal ${record.year}`;
}

/** What a call asked: the dataset as given (its full path where the catalog knows it) and the period. */
export interface Asked {
  readonly dataset: unknown;
  readonly year: unknown;
  readonly quarter?: unknown;
  readonly ttm?: unknown;
}

function datasetPath(dataset: unknown): string {
  const found = typeof dataset === "string" ? findDataset(dataset) : undefined;
  return found?.path ?? String(dataset);
}

/** A datapoint record's value with its source; text stays text. */
export function sourcedRecord(
  value: number | string,
  record: DatapointRecord,
  result: Pick<DatapointResult, "refreshDay" | "resolved" | "url">,
  asked: Asked,
  dayBefore?: DayBefore,
): number | string | DoubleValue {
  if (typeof value !== "number") return value;
  const list = new PropertyList();
  list.add("Ticker", text(record.ticker));
  list.add("Dataset", text(datasetPath(asked.dataset)));
  list.add("Datapoint", text(record.datapoint));
  list.add("Period asked", text(periodAsked(asked.year, asked.quarter, asked.ttm)));
  list.add("Period", text(result.resolved ? result.resolved.words : periodWords(record)));
  list.add("Period type", text(record.periodtype));
  if (record.filingtype !== undefined) list.add("Filing type", text(record.filingtype));
  list.add("Refresh day", text(result.refreshDay));
  const before = dayBefore?.(result.url, record.datapoint);
  list.add("Restated since the day before", text(restatedWords(record.datavalue, before)));
  return { ...double(value, numberFormatOf(record.datapoint)), properties: list.properties };
}

/** FDQ.DATAPOINT's value with its source. */
export function sourcedDatapoint(
  result: DatapointResult,
  asked: Asked,
  dayBefore?: DayBefore,
): number | string | DoubleValue {
  return sourcedRecord(result.value, result.record, result, asked, dayBefore);
}

/** FDQ.SECTOR's value with its source. */
export function sourcedSector(
  result: SectorResult,
  priorYearAsked: unknown,
  dayBefore?: DayBefore,
): number | string | DoubleValue {
  const { value, record } = result;
  if (typeof value !== "number") return value;
  const list = new PropertyList();
  list.add("Sector or industry", text(record.ticker));
  list.add("Name", text(record.name));
  list.add("Datapoint", text(record.datapoint));
  list.add(
    "Prior year asked",
    text(priorYearAsked === undefined ? "0 (the last fiscal year)" : String(priorYearAsked)),
  );
  list.add("Prior year", double(record.prior_year));
  list.add("Refresh day", text(result.refreshDay));
  const before = dayBefore?.(result.url, record.datapoint);
  list.add("Restated since the day before", text(restatedWords(record.datavalue, before)));
  return { ...double(value, numberFormatOf(record.datapoint)), properties: list.properties };
}
