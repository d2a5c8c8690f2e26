// Search over every datapoint of every dataset, by name, the words its abbreviations stand for,
// description and dataset: prefixes (results while typing) and small typos. The full-text part is
// MiniSearch (a maintained, dependency-free index that runs in the task pane's browser bundle as
// well as in Node): BM25 scoring with field boosts, prefix and fuzzy matching. On top of it one
// rule of our own decides the order: the datapoint whose name the query's words spell out comes
// first ("return on invested capital" is ROIC, not ROIC_CAPITAL_INVESTED, whose name only contains
// those words and more).
import MiniSearch, { type SearchOptions } from "minisearch";
import { ABBREVIATIONS } from "./describe";
import { DATASETS, datapointMetadata } from "./index";
import { synonymsOf } from "./synonyms";
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
  /**
   * Per hit: whether the query spells its name out (the name, its abbreviations spelled out, or one of
   * the analysts' phrases for it, in any order). fdq retrofit takes only such hits when there are any.
   */
  readonly spelled: readonly boolean[];
}

/** Words that say nothing about a datapoint ("return on invested capital", "EXPENSES_SGA_AND_…"). */
const STOP_WORDS = new Set("a an and at by for from in of on or the to with".split(" "));

/**
 * Field boosts. The name's own words and the analysts' words for it (synonyms.ts: "net sales" for
 * REVENUE) count most; the words its abbreviations stand for nearly as much (ROIC is named by "return
 * on invested capital"); then the description. The dataset's path
 * and title count a little, so that among the entries of one name (ROIC is in metrics/roic and
 * screens/enhanced) the dataset the query's words also name comes first.
 */
const BOOST = { name: 3, synonyms: 3, expanded: 2, description: 1, dataset: 0.4 } as const;

/**
 * How much more an entry whose name the query spells out scores than one it only touches
 * (the final score is the full-text score × (1 + NAME_WEIGHT × name match), name match in 0..1).
 */
const NAME_WEIGHT = 6;
/** A name match this close is the query spelling the name out (exact words; a prefix or typo is 0.85 or less). */
const SPELLED = 0.999;
/** How well a query word covers a word of the name, by kind of match. */
const COVER = { exact: 1, prefix: 0.85, fuzzy: 0.75 } as const;

/** Lower-case words of a text, without stop words. */
function textWords(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w.length > 0 && !STOP_WORDS.has(w));
}

const unique = (words: readonly string[]): string[] => [...new Set(words)];

/**
 * The query's words, and whether its last word is still being typed (no space after it). A last
 * word that may be the start of a stop word ("o" of "on") is left out while it is being typed, so
 * "return o" finds what "return" finds.
 */
function queryWords(query: string): { words: string[]; typing: boolean } {
  const raw = query
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w.length > 0);
  const typing = /[a-z0-9]$/i.test(query);
  const last = raw[raw.length - 1];
  if (typing && raw.length > 1 && last !== undefined && [...STOP_WORDS].some((s) => s.startsWith(last))) {
    raw.pop();
  }
  return { words: unique(raw.filter((w) => !STOP_WORDS.has(w))), typing };
}

/** Words of each abbreviation's expansion: ROIC -> return, invested, capital. */
const EXPANSIONS: ReadonlyMap<string, readonly string[]> = new Map(
  Object.entries(ABBREVIATIONS).map(([abbr, text]) => [abbr.toLowerCase(), unique(textWords(text))]),
);

/**
 * The ways a name can be spelled out in words: each abbreviation as itself or as its expansion
 * (ROIC_GAAP: "roic gaap", "return invested capital gaap", …), words that an abbreviation
 * stands for as that abbreviation (FREE_CASH_FLOW: "fcf"; BOOK_VALUE_ECONOMIC: "ebv"), and each of the
 * analysts' phrases for it (REVENUE: "net sales").
 */
function readings(name: string): string[][] {
  const tokens = textWords(name);
  let result: string[][] = [[]];
  for (const token of tokens) {
    const expansion = EXPANSIONS.get(token);
    const options = expansion ? [[token], [...expansion]] : [[token]];
    result = result.flatMap((r) => options.map((o) => [...r, ...o])).slice(0, 64);
  }
  for (const [abbr, expansion] of EXPANSIONS) {
    if (expansion.length < 2 || !expansion.every((w) => tokens.includes(w))) continue;
    result.push([...tokens.filter((t) => !expansion.includes(t)), abbr]);
  }
  for (const synonym of synonymsOf(name)) result.push(unique(textWords(synonym)));
  return result;
}

interface Doc {
  readonly id: number;
  readonly name: string;
  readonly synonyms: string;
  readonly expanded: string;
  readonly description: string;
  readonly dataset: string;
}

/** Per entry id: MiniSearch's score for one query word and the indexed words it matched. */
type TermMatches = ReadonlyMap<number, { readonly score: number; readonly terms: readonly string[] }>;

function fuzziness(term: string): number {
  // Levenshtein distance: a transposition ("retrun") costs 2, so words of 6 letters or more allow 2.
  if (term.length >= 6) return 2;
  if (term.length >= 4) return 1;
  return 0;
}

const SEARCH_OPTIONS: SearchOptions = {
  boost: BOOST,
  prefix: true,
  fuzzy: fuzziness,
  weights: { prefix: 0.6, fuzzy: 0.45 },
};

/**
 * The best total cover of `reading` by the query words from `i` on, each word of the reading taken
 * at most once (`used`: a bit per word of the reading). Queries and names are a few words long.
 */
function bestPairing(
  words: readonly string[],
  terms: readonly (readonly string[])[],
  reading: readonly string[],
  i: number,
  used: number,
): number {
  if (i === words.length) return 0;
  let top = bestPairing(words, terms, reading, i + 1, used);
  const query = words[i] ?? "";
  const matched = terms[i] ?? [];
  for (let j = 0; j < reading.length && j < 31; j++) {
    const word = reading[j] ?? "";
    if ((used & (1 << j)) !== 0 || !matched.includes(word)) continue;
    top = Math.max(
      top,
      coverWeight(query, word) + bestPairing(words, terms, reading, i + 1, used | (1 << j)),
    );
  }
  return top;
}

function coverWeight(query: string, word: string): number {
  if (query === word) return COVER.exact;
  return word.startsWith(query) ? COVER.prefix : COVER.fuzzy;
}

export class CatalogSearchIndex {
  readonly entries: readonly SearchEntry[];
  private readonly mini: MiniSearch<Doc>;
  private readonly readings: readonly (readonly string[][])[];

  constructor(entries: readonly Omit<SearchEntry, "id">[]) {
    this.entries = entries.map((e, id) => ({ ...e, id }));
    this.readings = this.entries.map((e) => readings(e.datapoint.name));
    this.mini = new MiniSearch<Doc>({
      fields: Object.keys(BOOST),
      tokenize: (text) => text.split(/[^A-Za-z0-9]+/),
      processTerm: (term) => {
        const word = term.toLowerCase();
        return word.length > 0 && !STOP_WORDS.has(word) ? word : null;
      },
      searchOptions: SEARCH_OPTIONS,
    });
    this.mini.addAll(
      this.entries.map((e, id) => {
        const nameWords = textWords(e.datapoint.name);
        const synonyms = unique(synonymsOf(e.datapoint.name).flatMap(textWords));
        const expanded = unique((this.readings[id] ?? []).flat()).filter(
          (w) => !nameWords.includes(w) && !synonyms.includes(w),
        );
        return {
          id,
          name: nameWords.join(" "),
          synonyms: synonyms.join(" "),
          expanded: expanded.join(" "),
          description: e.description,
          dataset: `${e.dataset.path} ${e.dataset.title}`,
        };
      }),
    );
  }

  /**
   * Every (dataset, datapoint) pair of the catalog. `descriptions` (name -> text, e.g. the service's
   * /v1/datapoint answers) replace the catalog's own descriptions where given.
   *
   * A name that several datasets list (ROIC: metrics/roic and screens/enhanced) stays one entry per
   * dataset: a formula needs the dataset, and the datasets differ (filing types, what else comes in
   * the same request). The entries rank together; the dataset field decides between them.
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
    const accept = (e: SearchEntry): boolean =>
      (filters.dataset === undefined || e.dataset.path === filters.dataset) &&
      (filters.category === undefined || e.datapoint.category === filters.category);
    const { words, typing } = queryWords(query);
    if (words.length === 0) {
      const all = this.entries.filter(accept).slice(0, limit);
      return { hits: all, total: this.entries.filter(accept).length, spelled: all.map(() => false) };
    }

    // The last word of several, while it is being typed, may be a misspelled word's beginning.
    const perWord = words.map((w, i) => this.matchWord(w, typing && i > 0 && i === words.length - 1));
    const ranked: { entry: SearchEntry; score: number; spelled: boolean }[] = [];
    for (const [id, first] of perWord[0] ?? []) {
      const entry = this.entries[id];
      if (entry === undefined || !accept(entry)) continue;
      let score = first.score;
      const terms: (readonly string[])[] = [first.terms];
      for (const matches of perWord.slice(1)) {
        const m = matches.get(id);
        if (m === undefined) {
          score = -1;
          break;
        }
        score += m.score;
        terms.push(m.terms);
      }
      if (score < 0) continue;
      const match = this.nameMatch(id, words, terms);
      ranked.push({ entry, score: score * (1 + NAME_WEIGHT * match), spelled: match >= SPELLED });
    }
    // The entries of one name stay together, ranked by the best of them; within a name the
    // dataset the query also names comes first. Among equal scores the shorter name is the closer
    // match to what was typed.
    const byName = new Map<string, number>();
    for (const r of ranked) {
      const name = r.entry.datapoint.name;
      byName.set(name, Math.max(byName.get(name) ?? 0, r.score));
    }
    const keyed = ranked.map((r) => ({
      ...r,
      name: r.entry.datapoint.name,
      best: byName.get(r.entry.datapoint.name) ?? 0,
    }));
    keyed.sort(
      (a, b) =>
        b.best - a.best ||
        a.name.length - b.name.length ||
        (a.name < b.name ? -1 : a.name > b.name ? 1 : 0) ||
        b.score - a.score ||
        a.entry.id - b.entry.id,
    );
    const top = keyed.slice(0, limit);
    return { hits: top.map((r) => r.entry), total: keyed.length, spelled: top.map((r) => r.spelled) };
  }

  /**
   * Entries one query word matches (exactly, as a prefix or with a typo), with the words it matched.
   * MiniSearch forgives typos in whole words only, so a last word still being typed that matches
   * nothing ("invs" of "retrun on invsted") is tried without its last one or two letters, as a prefix.
   */
  private matchWord(word: string, typing: boolean): TermMatches {
    let results = this.mini.search(word);
    for (let cut = 1; typing && results.length === 0 && cut <= 2 && word.length - cut >= 3; cut++) {
      results = this.mini.search(word.slice(0, -cut), { fuzzy: false });
    }
    const out = new Map<number, { score: number; terms: string[] }>();
    for (const r of results) out.set(r.id as number, { score: r.score, terms: Object.keys(r.match) });
    return out;
  }

  /**
   * How completely the query's words spell out the entry's name, 0..1: the best pairing of query
   * words with the words of one reading of the name (each word used once), over the longer of the
   * two. 1 when the query is the name, or the name with its abbreviations spelled out.
   */
  private nameMatch(id: number, words: readonly string[], terms: readonly (readonly string[])[]): number {
    let best = 0;
    for (const reading of this.readings[id] ?? []) {
      const longer = Math.max(reading.length, words.length);
      // Each pairing scores at most 1 per word of the shorter side.
      if (best * longer >= Math.min(reading.length, words.length)) continue;
      best = Math.max(best, bestPairing(words, terms, reading, 0, 0) / longer);
    }
    return best;
  }
}
