// `fdq search`: the task pane's datapoint search in the terminal. It searches the catalog offline (no
// key, no request), best first: one datapoint per line with its dataset, sign role and description,
// or with --json an array of {name, dataset, sign, description}. Exit status 0, also when nothing
// matches (then stdout is empty, or [] with --json, and stderr says so).
import { findDataset, type SignRole } from "../catalog";
import { CatalogSearchIndex, type SearchEntry } from "../catalog/search";
import type { SearchOptions } from "./options";

/** One datapoint found, as --json prints it. `sign` is the catalog's role in a walk ("" standalone). */
export interface SearchHit {
  readonly name: string;
  readonly dataset: string;
  readonly sign: SignRole;
  readonly description: string;
}

const SIGN_ROLES: Readonly<Record<SignRole, string>> = {
  "+": "+ added",
  "-": "- subtracted",
  "=": "= result",
  "/": "/ divided by",
  "": "standalone",
};

export interface CatalogSearch {
  readonly hits: SearchHit[];
  /** How many datapoints matched in all (hits holds at most `limit`). */
  readonly total: number;
}

function hit(entry: SearchEntry): SearchHit {
  return {
    name: entry.datapoint.name,
    dataset: entry.dataset.path,
    sign: entry.datapoint.sign,
    description: entry.description,
  };
}

export function searchCatalog(
  options: SearchOptions,
  index = CatalogSearchIndex.fromCatalog(),
): CatalogSearch {
  const dataset = options.dataset === undefined ? undefined : findDataset(options.dataset)?.path;
  const result = index.search(options.query, dataset === undefined ? {} : { dataset }, options.limit);
  return { hits: result.hits.map(hit), total: result.total };
}

/** One line per hit, in columns: name, dataset, sign role, description. */
export function formatSearchLines(hits: readonly SearchHit[]): string[] {
  const width = (values: readonly string[]): number => Math.max(0, ...values.map((v) => v.length));
  const nameWidth = width(hits.map((h) => h.name));
  const datasetWidth = width(hits.map((h) => h.dataset));
  const signWidth = width(hits.map((h) => SIGN_ROLES[h.sign]));
  return hits.map((h) =>
    [
      h.name.padEnd(nameWidth),
      h.dataset.padEnd(datasetWidth),
      SIGN_ROLES[h.sign].padEnd(signWidth),
      h.description,
    ].join("  "),
  );
}

export function runSearch(options: SearchOptions): number {
  const { hits, total } = searchCatalog(options);
  if (options.json) {
    process.stdout.write(`${JSON.stringify(hits, null, 2)}\n`);
  } else if (hits.length > 0) {
    process.stdout.write(`${formatSearchLines(hits).join("\n")}\n`);
  }
  if (total === 0) {
    process.stderr.write("No datapoint matches.\n");
  } else if (total > hits.length && !options.json) {
    process.stderr.write(`${hits.length} of ${total} matching datapoints shown; --limit N shows more.\n`);
  }
  return 0;
}
