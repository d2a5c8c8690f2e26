// The arithmetic of the catalog's reconciliation walks, read from `dataset.walk`, the signs and
// `partOf`: which lines are sums of which others. The sandbox computes those lines from their parts,
// so every walk adds up by construction.
import type { Dataset } from "../catalog";

// Math.abs from a module constant: global reads are slow inside jest's vm context (see prng.ts).
const abs = Math.abs;

export type WalkOp = "+" | "-" | "/";

/** A line computed from others: start (or 0) followed by the signed terms, left to right. */
export interface WalkFormula {
  readonly name: string;
  readonly start?: string;
  readonly terms: ReadonlyArray<{ readonly op: WalkOp; readonly name: string }>;
}

const isOp = (sign: string): sign is WalkOp => sign === "+" || sign === "-" || sign === "/";

/** Every line the dataset's walk computes (totals and results), in catalog order. */
export function walkFormulas(dataset: Dataset): WalkFormula[] {
  const walk = dataset.walk;
  const first = dataset.datapoints[0];
  if (!walk || !first) return [];
  if (walk.kind === "totals") {
    const parts = new Map<string, Array<{ op: WalkOp; name: string }>>();
    const top: Array<{ op: WalkOp; name: string }> = [];
    for (const p of dataset.datapoints.slice(1)) {
      if (!isOp(p.sign)) continue;
      const list = p.partOf ? (parts.get(p.partOf) ?? []) : top;
      list.push({ op: p.sign, name: p.name });
      if (p.partOf) parts.set(p.partOf, list);
    }
    const totals = [...parts].map(([name, terms]) => ({ name, terms }));
    return [...totals, ...walk.results.map((name) => ({ name, start: first.name, terms: top }))];
  }
  const formulas: WalkFormula[] = [];
  let start = first.name;
  let terms: Array<{ op: WalkOp; name: string }> = [];
  for (const p of dataset.datapoints.slice(1)) {
    if (isOp(p.sign)) terms.push({ op: p.sign, name: p.name });
    else if (p.sign === "=") {
      formulas.push({ name: p.name, start, terms });
      start = p.name;
      terms = [];
    }
  }
  return formulas;
}

export type ValueOf = (name: string) => number;

export function evaluateWalk(formula: WalkFormula, v: ValueOf): number {
  let acc = formula.start === undefined ? 0 : v(formula.start);
  for (const t of formula.terms) {
    const x = v(t.name);
    if (t.op === "+") acc += x;
    else if (t.op === "-") acc -= x;
    else acc = abs(x) < 1e-12 ? 0 : acc / x;
  }
  return acc;
}

/** The result of a linear walk as a signed sum of the walk's input lines (name -> +1 or -1). */
export function leafCoefficients(dataset: Dataset, result: string): Map<string, number> {
  const byName = new Map(walkFormulas(dataset).map((f) => [f.name, f]));
  const coefs = new Map<string, number>();
  const expand = (name: string, coef: number): void => {
    const f = byName.get(name);
    if (!f) {
      coefs.set(name, (coefs.get(name) ?? 0) + coef);
      return;
    }
    if (f.start !== undefined) expand(f.start, coef);
    for (const t of f.terms) {
      if (t.op === "/") throw new Error(`${dataset.path}: a walk with "/" is not linear`);
      expand(t.name, t.op === "+" ? coef : -coef);
    }
  };
  expand(result, 1);
  return coefs;
}
