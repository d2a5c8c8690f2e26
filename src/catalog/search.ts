// Search over every datapoint of every dataset, by name and description: word prefixes and small
// typos. The index is built once (vocabulary of words -> postings) so each keystroke only scans the
// vocabulary (a few thousand short words), never the entries' text.
import { DATASETS, datapointMetadata } from "./index";
import type { CatalogDatapoint, CategoryCode, Dataset } from "./types";

export interface SearchEntry {
  /** Position in the index: dataset order, then catalog order within the dataset. */
  readonly id: number;
  readonly dataset: Dataset;
  readonly datapoint: CatalogDatapoint;
  readonly description: string;
}

export interface SearchFilters {
  /** Dataset path, e.g. "metrics/roic". */
  readonly dataset?: string;
  readonly category?: CategoryCode;
}

export interface SearchResult {
  /** Best first, at most `limit`. */
  readonly hits: readonly SearchEntry[];
  /** How many entries matched in all. */
  readonly total: number;
}

/** How well one query word matches one indexed word (1 = exact). */
const MATCH = { exact: 1, prefix: 0.8, typo: 0.6, typoPrefix: 0.5 } as const;
/** A word in a datapoint's name says more about it than a word in its description. */
const FIELD_WEIGHT = { name: 2, description: 1 } as const;
const EXACT_NAME_BONUS = 5;
const NAME_PREFIX_BONUS = 2;

type Field = keyof typeof FIELD_WEIGHT;

interface Posting {
  readonly name: number[];
  readonly description: number[];
}

function splitWords(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w.length > 0);
}

/** Edits a query word may be away from a word: none for short words, where a typo changes the meaning. */
function allowedEdits(length: number): number {
  if (length >= 8) return 2;
  if (length >= 4) return 1;
  return 0;
}

/**
 * Optimal-string-alignment distance (insertions, deletions, substitutions, adjacent transpositions)
 * between `query` and `word`, or between `query` and the closest prefix of `word` when `prefix` is
 * set. Returns max + 1 as soon as the distance is known to exceed `max`.
 */
export function editDistance(query: string, word: string, max: number, prefix = false): number {
  const n = query.length;
  const m = word.length;
  if (!prefix && Math.abs(n - m) > max) return max + 1;
  let prevPrev: number[] = [];
  let prev = Array.from({ length: m + 1 }, (_, j) => j);
  for (let i = 1; i <= n; i++) {
    const row = [i];
    let rowMin = i;
    for (let j = 1; j <= m; j++) {
      const cost = query[i - 1] === word[j - 1] ? 0 : 1;
      let d = Math.min((prev[j] ?? 0) + 1, (row[j - 1] ?? 0) + 1, (prev[j - 1] ?? 0) + cost);
      if (i > 1 && j > 1 && query[i - 1] === word[j - 2] && query[i - 2] === word[j - 1]) {
        d = Math.min(d, (prevPrev[j - 2] ?? 0) + 1);
      }
      row.push(d);
      rowMin = Math.min(rowMin, d);
    }
    if (rowMin > max) return max + 1;
    prevPrev = prev;
    prev = row;
  }
  const distance = prefix ? Math.min(...prev) : (prev[m] ?? max + 1);
  return Math.min(distance, max + 1);
}

/** How well a query word matches an indexed word, 0 when it does not. */
function wordMatch(query: string, word: string): number {
  if (word === query) return MATCH.exact;
  if (word.startsWith(query)) return MATCH.prefix;
  const max = allowedEdits(query.length);
  // Typos at a word's first letter are rare, and allowing them matches unrelated short words.
  if (max === 0 || query[0] !== word[0]) return 0;
  if (editDistance(query, word, max) <= max) return MATCH.typo;
  if (word.length > query.length && editDistance(query, word, max, true) <= max) return MATCH.typoPrefix;
  return 0;
}

function nameLength(entry: SearchEntry): number {
  return entry.datapoint.name.split("_").length;
}

export class CatalogSearchIndex {
  readonly entries: readonly SearchEntry[];
  private readonly postings = new Map<string, Posting>();

  constructor(entries: readonly Omit<SearchEntry, "id">[]) {
    this.entries = entries.map((e, id) => ({ ...e, id }));
    for (const entry of this.entries) {
      for (const w of splitWords(entry.datapoint.name)) this.post(w, "name", entry.id);
      for (const w of splitWords(entry.description)) this.post(w, "description", entry.id);
    }
  }

  /**
   * Every (dataset, datapoint) pair of the catalog. `descriptions` (name -> text, e.g. the service's
   * /v1/datapoint answers) replace the catalog's own descriptions where given.
   */
  static fromCatalog(descriptions?: ReadonlyMap<string, string>): CatalogSearchIndex {
    const metadata = datapointMetadata();
    const entries = DATASETS.flatMap((dataset) =>
      dataset.datapoints.map((datapoint) => ({
        dataset,
        datapoint,
        description: descriptions?.get(datapoint.name) ?? metadata.get(datapoint.name)?.description ?? "",
      })),
    );
    return new CatalogSearchIndex(entries);
  }

  /** Entries matching every word of `query` (all entries for an empty query), best first. */
  search(query: string, filters: SearchFilters = {}, limit = 100): SearchResult {
    const words = [...new Set(splitWords(query))];
    const accept = (e: SearchEntry): boolean =>
      (filters.dataset === undefined || e.dataset.path === filters.dataset) &&
      (filters.category === undefined || e.datapoint.category === filters.category);

    if (words.length === 0) {
      const all = this.entries.filter(accept);
      return { hits: all.slice(0, limit), total: all.length };
    }

    let scores: Map<number, number> | undefined;
    for (const word of words) {
      const wordScores = this.scoreWord(word);
      if (scores === undefined) {
        scores = wordScores;
      } else {
        const joined = new Map<number, number>();
        for (const [id, s] of scores) {
          const t = wordScores.get(id);
          if (t !== undefined) joined.set(id, s + t);
        }
        scores = joined;
      }
      if (scores.size === 0) break;
    }

    const typedName = words.join("_").toUpperCase();
    const ranked: { entry: SearchEntry; score: number }[] = [];
    for (const [id, score] of scores ?? []) {
      const entry = this.entries[id];
      if (entry === undefined || !accept(entry)) continue;
      const name = entry.datapoint.name;
      const bonus =
        name === typedName ? EXACT_NAME_BONUS : name.startsWith(typedName) ? NAME_PREFIX_BONUS : 0;
      ranked.push({ entry, score: score + bonus });
    }
    // Among equal scores the shorter name is the closer match to what was typed.
    ranked.sort(
      (a, b) => b.score - a.score || nameLength(a.entry) - nameLength(b.entry) || a.entry.id - b.entry.id,
    );
    return { hits: ranked.slice(0, limit).map((r) => r.entry), total: ranked.length };
  }

  private post(word: string, field: Field, id: number): void {
    let posting = this.postings.get(word);
    if (posting === undefined) {
      posting = { name: [], description: [] };
      this.postings.set(word, posting);
    }
    const list = posting[field];
    if (list[list.length - 1] !== id) list.push(id);
  }

  /** Best score of each entry for one query word: the best matching indexed word, by field. */
  private scoreWord(query: string): Map<number, number> {
    const scores = new Map<number, number>();
    for (const [word, posting] of this.postings) {
      const match = wordMatch(query, word);
      if (match === 0) continue;
      for (const field of ["name", "description"] as const) {
        const score = match * FIELD_WEIGHT[field];
        for (const id of posting[field]) {
          if ((scores.get(id) ?? 0) < score) scores.set(id, score);
        }
      }
    }
    return scores;
  }
}
