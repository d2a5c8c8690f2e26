// The catalog: every dataset, sector datapoint and rating field of the spec, and lookups over them.
import { EARNINGS_RECONCILIATIONS } from "./data-reconciliation-earnings";
import { NOPAT_RECONCILIATIONS } from "./data-reconciliation-nopat";
import { CAPITAL_AND_VALUE_RECONCILIATIONS } from "./data-reconciliation-capital";
import { METRICS_AND_SCREENS_DATASETS } from "./data-metrics-screens";
import { FUNDAMENTALS_ADJUSTED } from "./data-fundamentals-adjusted";
import { FUNDAMENTALS_REPORTED } from "./data-fundamentals-reported";
import { SECTOR_DATAPOINTS } from "./data-sector";
import { describeDatapoint } from "./describe";
import type { CatalogDatapoint, Dataset, SectorDatapoint } from "./types";

export * from "./types";
export * from "./service";
export * from "./period";
export * from "./relative-period";
export * from "./ratings";
export { CATEGORY_LEGEND } from "./categories";
export { describeDatapoint } from "./describe";
export * from "./number-formats";
export { SECTOR_DATAPOINTS } from "./data-sector";

/** The 16 datasets in the order of the spec's endpoint table. */
export const DATASETS: readonly Dataset[] = [
  ...EARNINGS_RECONCILIATIONS,
  ...NOPAT_RECONCILIATIONS,
  ...CAPITAL_AND_VALUE_RECONCILIATIONS,
  ...METRICS_AND_SCREENS_DATASETS.filter((d) => d.group === "metrics").reverse(),
  ...METRICS_AND_SCREENS_DATASETS.filter((d) => d.group === "screens"),
  ...FUNDAMENTALS_ADJUSTED,
  ...FUNDAMENTALS_REPORTED,
];

const BY_PATH = new Map(DATASETS.map((d) => [d.path, d]));
const BY_SLUG = new Map(DATASETS.map((d) => [d.slug, d]));
const ENTRY_INDEX = new Map(DATASETS.map((d) => [d.path, new Map(d.datapoints.map((p) => [p.name, p]))]));
const SECTOR_BY_NAME = new Map(SECTOR_DATAPOINTS.map((s) => [s.name, s]));

/**
 * Finds a dataset by its full path ("metrics/roic", optionally with a leading "/" or "/v1/") or by its
 * last part ("roic"), in any case. Every last part is unique across the 16 datasets.
 */
export function findDataset(ref: string): Dataset | undefined {
  const key = ref
    .trim()
    .toLowerCase()
    .replace(/^\/?(v1\/)?/, "")
    .replace(/\/+$/, "");
  return BY_PATH.get(key) ?? BY_SLUG.get(key);
}

/** The catalog entry of a datapoint in a dataset (name in upper case), or undefined. */
export function findDatapoint(dataset: Dataset, name: string): CatalogDatapoint | undefined {
  return ENTRY_INDEX.get(dataset.path)?.get(name);
}

export function findSectorDatapoint(name: string): SectorDatapoint | undefined {
  return SECTOR_BY_NAME.get(name);
}

export interface DatapointMetadata {
  readonly name: string;
  readonly description: string;
  /** Comma-separated dataset paths (and "sector") in which the datapoint appears. */
  readonly endpoints: string;
}

function buildMetadata(): ReadonlyMap<string, DatapointMetadata> {
  const where = new Map<string, string[]>();
  const add = (name: string, endpoint: string): void => {
    const list = where.get(name) ?? [];
    if (!list.includes(endpoint)) list.push(endpoint);
    where.set(name, list);
  };
  for (const d of DATASETS) for (const p of d.datapoints) add(p.name, d.path);
  for (const s of SECTOR_DATAPOINTS) add(s.name, "sector");
  const names = [...where.keys()].sort();
  return new Map(
    names.map((name) => [
      name,
      { name, description: describeDatapoint(name), endpoints: (where.get(name) ?? []).join(", ") },
    ]),
  );
}

let metadata: ReadonlyMap<string, DatapointMetadata> | undefined;

/** One metadata record per distinct datapoint name across all datasets and the sector endpoint. */
export function datapointMetadata(): ReadonlyMap<string, DatapointMetadata> {
  metadata ??= buildMetadata();
  return metadata;
}
