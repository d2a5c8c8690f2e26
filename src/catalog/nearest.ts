// "Did you mean": the catalog names nearest a misspelled one, for the #VALUE! message of a datapoint or a
// dataset the catalog does not list. The catalog search (search.ts, MiniSearch) finds datapoints by the words of
// their meaning and forgives one typo in a short word; a misspelled identifier such as "ROCI" for ROIC is a
// transposition (two edits by Levenshtein's count, beyond MiniSearch's fuzziness for four letters). So names
// are compared whole, by the optimal string alignment distance (Levenshtein's with a transposition of two
// neighbours counted as one edit), over the few dozen names of one dataset: no index is worth building.
import { DATASETS, SECTOR_DATAPOINTS, findDatapoint } from "./index";
import type { Dataset } from "./types";

/** Identifiers compared without case, and with spaces and hyphens read as the catalog's underscores. */
const normal = (text: string): string =>
  text
    .trim()
    .toUpperCase()
    .replace(/[\s-]+/g, "_");

/** Edits from `a` to `b` (insert, delete, replace, swap two neighbours), or more than `limit` as soon as sure. */
export function editDistance(a: string, b: string, limit = Infinity): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  let before = new Array<number>(b.length + 1).fill(0);
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = new Array<number>(b.length + 1);
    row[0] = i;
    let best = row[0];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(previous[j]! + 1, row[j - 1]! + 1, previous[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        d = Math.min(d, before[j - 2]! + 1);
      row[j] = d;
      best = Math.min(best, d);
    }
    if (best > limit) return limit + 1;
    [before, previous] = [previous, row];
  }
  return previous[b.length]!;
}

/** Edits a misspelling of `length` characters may be away from what was meant: 1 in 4 characters, at least 1. */
const allowedEdits = (length: number): number => Math.max(1, Math.floor(length / 4));

/**
 * The names nearest `typed`, best first (fewest edits, then the list's order), at most `max`: only those
 * within the edits a misspelling of its length allows. Empty when nothing is near.
 */
export function nearestNames(typed: string, names: readonly string[], max = 3): string[] {
  const query = normal(typed);
  const limit = allowedEdits(query.length);
  return names
    .map((name, i) => ({ name, i, d: editDistance(query, normal(name), limit) }))
    .filter((c) => c.d <= limit)
    .sort((x, y) => x.d - y.d || x.i - y.i)
    .slice(0, max)
    .map((c) => c.name);
}

const joined = (items: readonly string[], last: string): string =>
  items.length <= 1
    ? (items[0] ?? "")
    : `${items.slice(0, -1).join(", ")} ${last} ${items[items.length - 1]}`;

/** "A", "A or B", "A, B or C" */
export const orList = (items: readonly string[]): string => joined(items, "or");

/**
 * Why a datapoint name is not one of a dataset's, with the way out: the other datasets that list it exactly,
 * else the dataset's nearest names. `shown` is the name as the cell gave it.
 */
export function unknownDatapointText(dataset: Dataset, name: string, shown: string): string {
  const said = `datapoint ${shown} is not in dataset ${dataset.path}.`;
  const elsewhere = DATASETS.filter((d) => d !== dataset && findDatapoint(d, name)).map((d) => d.path);
  if (elsewhere.length > 0) return `${said} It is in ${joined(elsewhere, "and")}.`;
  const near = nearestNames(
    name,
    dataset.datapoints.map((d) => d.name),
  );
  return near.length > 0 ? `${said} Did you mean ${orList(near)}?` : said;
}

/** Why a name is not one of the sector endpoint's datapoints, with its nearest names. */
export function unknownSectorDatapointText(name: string, shown: string): string {
  const said = `datapoint ${shown} is not a sector or industry datapoint.`;
  const near = nearestNames(
    name,
    SECTOR_DATAPOINTS.map((d) => d.name),
  );
  return near.length > 0 ? `${said} Did you mean ${orList(near)}?` : said;
}

/**
 * The datasets nearest a path or last part the catalog does not know, by their paths: a misspelling of a path
 * or last part, else the datasets whose last part holds what was typed as one of its words ("ebitda").
 */
export function nearestDatasets(typed: string): string[] {
  const query = typed
    .trim()
    .toLowerCase()
    .replace(/^\/?(v1\/)?/, "")
    .replace(/\/+$/, "");
  const limit = allowedEdits(query.length);
  const misspelt = DATASETS.map((d, i) => ({
    path: d.path,
    i,
    d: Math.min(editDistance(query, d.path, limit), editDistance(query, d.slug, limit)),
  }))
    .filter((c) => c.d <= limit)
    .sort((x, y) => x.d - y.d || x.i - y.i)
    .map((c) => c.path);
  const words =
    query.length >= 3 ? DATASETS.filter((d) => d.slug.split("-").includes(query)).map((d) => d.path) : [];
  return (misspelt.length > 0 ? misspelt : words).slice(0, 3);
}
