// The analyst's choices of how FDQ values are returned, shared by the functions (which read them) and the task
// pane (which sets them), kept in OfficeRuntime.storage beside the connection settings (src/api/settings.ts).
// Both are off or empty by default: a plain number is what every other tool reading the workbook understands,
// and a card fetches nothing beyond coverage and ratings unless the analyst adds metrics (each priced first).
import type { KeyValueStore } from "../api";

/** A key metric shown on a security card: one datapoint at one relative period, e.g. ROIC at FY0. */
export interface CardMetric {
  /** Dataset path or its last part, as FDQ.DATAPOINT takes it ("metrics/roic" or "roic"). */
  readonly dataset: string;
  /** Datapoint name, e.g. "ROIC". */
  readonly name: string;
  /** A relative period: "FY0", "FY-1", "FQ0" or "LTM". */
  readonly period: string;
}

export interface ValueOptions {
  /** Numbers carry their source: FDQ numbers are returned as DoubleCellValues with provenance properties. */
  readonly withSource: boolean;
  /** The key metrics section of FDQ.CARD, in the analyst's order. */
  readonly cardMetrics: readonly CardMetric[];
}

export const VALUE_OPTIONS_KEY = "fdq.valueOptions";

export const DEFAULT_VALUE_OPTIONS: ValueOptions = { withSource: false, cardMetrics: [] };

/** Card metrics kept at most: a card is one cell, and every metric costs units on each new refresh day. */
export const MAX_CARD_METRICS = 12;

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null;
const isText = (v: unknown): v is string => typeof v === "string" && v.trim() !== "";
const isCardMetric = (v: unknown): v is CardMetric =>
  isRecord(v) && isText(v.dataset) && isText(v.name) && isText(v.period);

/** Reads stored options; anything unreadable falls back to the defaults, field by field. */
export function parseValueOptions(text: string | null | undefined): ValueOptions {
  if (text === null || text === undefined) return DEFAULT_VALUE_OPTIONS;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return DEFAULT_VALUE_OPTIONS;
  }
  if (!isRecord(value)) return DEFAULT_VALUE_OPTIONS;
  const metrics = Array.isArray(value.cardMetrics) ? value.cardMetrics.filter(isCardMetric) : [];
  return {
    withSource: value.withSource === true,
    cardMetrics: metrics
      .slice(0, MAX_CARD_METRICS)
      .map(({ dataset, name, period }) => ({ dataset, name, period })),
  };
}

export async function loadValueOptions(storage: KeyValueStore): Promise<ValueOptions> {
  return parseValueOptions(await storage.get(VALUE_OPTIONS_KEY));
}

export function saveValueOptions(storage: KeyValueStore, options: ValueOptions): Promise<void> {
  return storage.set(VALUE_OPTIONS_KEY, JSON.stringify(options));
}
