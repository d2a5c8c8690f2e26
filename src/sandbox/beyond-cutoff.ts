// Datapoint names past the spec's cut. The spec cuts four catalogs off ("not shown": `notShown` in
// src/catalog), so the service has names there that the spec does not list. The sandbox serves plausible
// names past each cut to exercise clients, which must not treat a cut-off catalog as complete. These names
// are the sandbox's own invention: they stay here and out of src/catalog, which mirrors the spec.
// They answer in single-datapoint mode, in all-datapoints mode after the catalog's names (for the datasets
// that have that mode), and in /v1/datapoint.
import {
  DATASETS,
  datapointMetadata,
  describeDatapoint,
  findDatapoint,
  findDataset,
  type CatalogDatapoint,
  type Dataset,
  type DatapointMetadata,
} from "../catalog";

const REPORTED = "fundamentals/reported";
const ADJUSTED = "fundamentals/adjusted";
const CORE_EARNINGS_TO_NET_INCOME = "reconciliation/core-earnings-to-net-income";
const NOPAT_DETAILED = "reconciliation/net-income-to-nopat-detailed";
const NOPAT_SUM_COUNT = "reconciliation/net-income-to-nopat-detailed-sum-count";

const standalone = (names: readonly string[]): CatalogDatapoint[] =>
  names.map((name) => ({ name, sign: "" }));

function dataset(path: string): Dataset {
  const found = findDataset(path);
  if (!found) throw new Error(`unknown dataset ${path}`);
  return found;
}

/** "Entries after INCOME_OPERATING_OTHER": the list's alphabetical continuation. */
const REPORTED_AFTER_CUT = standalone([
  "INCOME_PRE_TAX",
  "INCOME_TAX",
  "INTEREST_MINORITY",
  "INVENTORY",
  "LIABILITIES_CURRENT",
  "LIABILITIES_NON_CURRENT",
  "OCI",
  "REVENUE",
  "SALES_COST",
  "STOCK_PREFERRED",
]);

/** "From total revenue onward": the tail of the twin dataset net-income-to-core-earnings. */
const CORE_EARNINGS_AFTER_CUT = standalone([
  "REVENUE",
  "CORE_EARNINGS_DISTORTION_TOTAL_PER_REVENUE",
  "CORE_EARNINGS_DISTORTION_TOTAL_PER_INCOME_NET",
  "CASH_TAX_RATE",
]);

/**
 * "After the reported legal, regulatory and insurance pair": the NOPAT adjustments that follow the
 * non-operating expenses in the detailed walk, with their signs, so that the sum-count walk reaches
 * NOPAT the way the detailed walk does.
 */
function sumCountAfterCut(): CatalogDatapoint[] {
  const detailed = dataset(NOPAT_DETAILED).datapoints;
  const from = detailed.findIndex((p) => p.name === "EXPENSES_NON_OPERATING");
  return detailed
    .slice(from + 1)
    .filter((p) => !p.partOf && (p.sign === "+" || p.sign === "-"))
    .map((p) => ({ name: p.name, sign: p.sign }));
}

/** "Every as-reported datapoint of the reported fundamentals plus adjusted data": the reported names not listed. */
function adjustedAfterCut(): CatalogDatapoint[] {
  const adjusted = dataset(ADJUSTED);
  return servedDatapoints(dataset(REPORTED)).filter((p) => !findDatapoint(adjusted, p.name));
}

const BUILDERS: ReadonlyMap<string, () => CatalogDatapoint[]> = new Map([
  [REPORTED, () => REPORTED_AFTER_CUT],
  [ADJUSTED, adjustedAfterCut],
  [CORE_EARNINGS_TO_NET_INCOME, () => CORE_EARNINGS_AFTER_CUT],
  [NOPAT_SUM_COUNT, sumCountAfterCut],
]);

const served = new Map<
  string,
  { list: readonly CatalogDatapoint[]; byName: Map<string, CatalogDatapoint> }
>();

function servedOf(d: Dataset): { list: readonly CatalogDatapoint[]; byName: Map<string, CatalogDatapoint> } {
  let entry = served.get(d.path);
  if (!entry) {
    const list = [...d.datapoints, ...(BUILDERS.get(d.path)?.() ?? [])];
    entry = { list, byName: new Map(list.map((p) => [p.name, p])) };
    served.set(d.path, entry);
  }
  return entry;
}

/** The names the sandbox serves for a dataset past its catalog's cut (empty for complete catalogs). */
export const beyondCutoff = (d: Dataset): readonly CatalogDatapoint[] =>
  servedDatapoints(d).slice(d.datapoints.length);

/** The catalog's datapoints followed by the names past the cut: the all-datapoints answer's order. */
export const servedDatapoints = (d: Dataset): readonly CatalogDatapoint[] => servedOf(d).list;

/** A datapoint the sandbox answers for the dataset (catalog or past the cut), by exact name. */
export const findServedDatapoint = (d: Dataset, name: string): CatalogDatapoint | undefined =>
  servedOf(d).byName.get(name);

/** Endpoints in the catalog's order: datasets in endpoint-table order, then "sector". */
const endpointRank = (endpoint: string): number => {
  const i = DATASETS.findIndex((d) => d.path === endpoint);
  return i < 0 ? DATASETS.length : i;
};

let metadata: ReadonlyMap<string, DatapointMetadata> | undefined;

/** The catalog's metadata records with the names past the cut added (and their datasets in `endpoints`). */
export function servedMetadata(): ReadonlyMap<string, DatapointMetadata> {
  if (!metadata) {
    const endpoints = new Map(
      [...datapointMetadata().values()].map((m) => [m.name, m.endpoints.split(", ")] as const),
    );
    for (const d of DATASETS)
      for (const p of beyondCutoff(d)) {
        const list = endpoints.get(p.name) ?? [];
        if (!list.includes(d.path)) list.push(d.path);
        endpoints.set(p.name, list);
      }
    metadata = new Map(
      [...endpoints.keys()].sort().map((name) => {
        const list = (endpoints.get(name) ?? []).sort((a, b) => endpointRank(a) - endpointRank(b));
        const description = datapointMetadata().get(name)?.description ?? describeDatapoint(name);
        return [name, { name, description, endpoints: list.join(", ") }];
      }),
    );
  }
  return metadata;
}
