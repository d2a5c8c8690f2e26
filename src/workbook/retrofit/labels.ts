// A row or column label as analysts write it ("Revenue ($m)", "ROIC %", "Adj. EBITDA", "Net income (1)",
// "SG&A*") turned into the words the catalog search reads, and the search's short list of datapoints for it.
// Units in the label ("$m", "in millions", "%", "x") and trailing notes ("(1)", "*", "†") say nothing about
// which datapoint the row holds, so they go; the scale is found from the numbers themselves (scale.ts).
import type { CatalogSearchIndex } from "../../catalog/search";

export interface Candidate {
  /** Datapoint name, e.g. "REVENUE". */
  readonly name: string;
  /** Dataset path, e.g. "screens/traditional". */
  readonly dataset: string;
}

/** At most this many datapoints are fetched for one label. */
export const MAX_CANDIDATES = 3;

const UNIT_WORDS =
  /\b(?:in\s+)?(?:\$|usd|eur|gbp)?\s*(?:mm|mn|m|bn|b|k|000s?|thousands?|millions?|billions?|x|times|pct|percent)\b\.?/gi;

/** The words of `label` the catalog search reads ("" when nothing is left). */
export function labelQuery(label: string): string {
  let text = label.normalize("NFKC");
  // Trailing notes: "(1)", "[a]", "*", "†", "‡", "¹".
  text = text.replace(/(?:\s*(?:\(\d{1,2}\)|\[[a-z0-9]{1,2}\]|[*†‡¹²³]+))+\s*$/i, "");
  // Parenthesised units: "($m)", "(in millions)", "(%)", "(x)", "(USD bn)".
  text = text.replace(/\(([^)]*)\)/g, (whole, inner: string) =>
    inner.replace(UNIT_WORDS, "").replace(/[%$€£,\s]/g, "") === "" ? " " : whole,
  );
  text = text.replace(/[%$€£]/g, " ");
  // "Adj." is "adjusted": the search treats it as a prefix either way.
  text = text.replace(/\badj\b\.?/gi, "adj ");
  text = text.replace(/[,:;]+\s*$/, "");
  // A unit left at the end, after a comma or dash: "Revenue, $m", "EBITDA - USD mn".
  text = text.replace(/[,–-]\s*(?:\$|usd)?\s*(?:mm|mn|m|bn|b|k|millions?|billions?|thousands?)\s*$/i, "");
  return text.replace(/\s+/g, " ").trim();
}

/**
 * Which of a name's datasets a formula names: the metrics and screens an analyst knows first, then the
 * fundamentals, then the reconciliations (whose other lines the model rarely wants).
 */
const DATASET_PREFERENCE = ["metrics/", "screens/", "fundamentals/", "reconciliation/"];
const preference = (path: string): number => {
  const i = DATASET_PREFERENCE.findIndex((p) => path.startsWith(p));
  return i < 0 ? DATASET_PREFERENCE.length : i;
};

/**
 * The datapoints a label may name, best first, one dataset per name (the preferred one), at most
 * MAX_CANDIDATES. When the label spells some names out ("Net sales" is REVENUE's phrase, "ROIC" is ROIC),
 * only those; otherwise the search's first names.
 */
export function candidatesFor(index: CatalogSearchIndex, label: string): Candidate[] {
  const query = labelQuery(label);
  if (!/[a-z]/i.test(query)) return [];
  const result = index.search(query, {}, 40);
  const spelled = result.hits.filter((_, i) => result.spelled[i]);
  const hits = spelled.length > 0 ? spelled : result.hits;
  const out: Candidate[] = [];
  for (const hit of hits) {
    if (out.some((c) => c.name === hit.datapoint.name)) continue;
    if (out.length === MAX_CANDIDATES) break;
    const datasets = result.hits
      .filter((h) => h.datapoint.name === hit.datapoint.name)
      .map((h) => h.dataset.path);
    const dataset = [...datasets].sort((a, b) => preference(a) - preference(b))[0] ?? hit.dataset.path;
    out.push({ name: hit.datapoint.name, dataset });
  }
  return out;
}
