// How good fdq retrofit's links are on the retrofit corpus (xlsx-corpus/retrofit-models.ts): precision (of the
// numbers linked, how many are the datapoint the corpus typed there), recall (of the correct numbers of
// datapoints the catalog knows, how many were linked to the right one), and the units spent per linked cell.
import type { TruthCell } from "./xlsx-corpus/retrofit-models";

/** A row of `fdq retrofit --report FILE.json`. */
export interface ReportRow {
  readonly sheet: string;
  readonly cell: string;
  readonly status: string;
  readonly formula: string | null;
}

export interface RetrofitScore {
  readonly linked: number;
  readonly correct: number;
  readonly relevant: number;
  readonly precision: number;
  readonly recall: number;
  /** Linked cells that the corpus typed wrong, or that are no FDQ datapoint, or linked to another datapoint. */
  readonly wrongLinks: readonly string[];
  readonly missed: readonly string[];
}

/** The datapoint a proposed formula names (its third argument). */
const datapointOf = (formula: string | null): string | undefined =>
  formula === null ? undefined : /FDQ\.DATAPOINT\("[^"]*","[^"]*","([^"]*)"/.exec(formula)?.[1];

export function scoreRetrofit(truth: readonly TruthCell[], rows: readonly ReportRow[]): RetrofitScore {
  const byCell = new Map(truth.map((t) => [`${t.sheet}!${t.cell}`, t]));
  const linked = rows.filter((r) => r.status === "linked");
  const wrongLinks: string[] = [];
  let correct = 0;
  for (const r of linked) {
    const t = byCell.get(`${r.sheet}!${r.cell}`);
    if (t?.kind === "fdq" && t.datapoint === datapointOf(r.formula)) correct++;
    else
      wrongLinks.push(
        `${r.sheet}!${r.cell} ${r.formula ?? ""} (${t?.kind ?? "not in the corpus"} ${t?.datapoint ?? ""})`,
      );
  }
  const relevant = truth.filter((t) => t.kind === "fdq");
  const linkedCells = new Set(linked.map((r) => `${r.sheet}!${r.cell}`));
  const missed = relevant
    .filter((t) => !linkedCells.has(`${t.sheet}!${t.cell}`))
    .map((t) => `${t.sheet}!${t.cell} ${t.datapoint}`);
  return {
    linked: linked.length,
    correct,
    relevant: relevant.length,
    precision: linked.length === 0 ? 0 : correct / linked.length,
    recall: relevant.length === 0 ? 0 : correct / relevant.length,
    wrongLinks,
    missed,
  };
}
