// fdq retrofit's matching, host-neutral: the lines of a model's sheets (layout.ts), each label's short list of
// datapoints (labels.ts), and which typed numbers are those datapoints' FDQ values (scale.ts). The CLI gives it
// cells read from the xlsx package, the task pane cells read through Office; both give it the services that
// price and fetch FDQ.DATAPOINT calls through the request module (so the day cache answers what it can).
//
// Only the candidates are fetched, and few of them: each line's candidates at its latest number first (the
// probe); when none matches there, at its next number (that one may be a typo); then only the one candidate
// that matched, at the line's other periods. A line where several candidates match is ambiguous: listed with
// its candidates, never guessed, and nothing more is fetched for it. A number of a linked line that does not
// match its period's value, at the line's scale and sign, is not linked (a wrong number is reported, not
// replaced).
import type { RequestEstimate, SharedCost } from "../../api";
import type { CatalogSearchIndex } from "../../catalog/search";
import { formatFormula, type FdqCall } from "../../functions/formula";
import { canonicalHead } from "../../functions/formula-repair";
import type { GridSheet } from "./grid";
import { candidatesFor, type Candidate } from "./labels";
import { readLayout, type Line, type LineCell, type SheetLayoutResult } from "./layout";
import { periodArgs, periodOrder } from "./periods";
import { matchScale, scaled, type ScaleMatch, type ScaleName } from "./scale";

/** What some calls would spend now: all their units, and of those the costs later calls share (a coverage list). */
export interface RetrofitCost {
  readonly units: number;
  readonly shared: readonly SharedCost[];
}

/** A cost from the client's estimate: the coverage lists its data calls would ask first are shared costs. */
export function costOf(estimate: RequestEstimate): RetrofitCost {
  const lists = estimate.planned.filter((p) => !p.cached && p.key.fields.endpoint === "coverage");
  return { units: estimate.units, shared: lists.map((p) => ({ id: p.key.path, units: p.units })) };
}

export const NO_COST: RetrofitCost = { units: 0, shared: [] };

export interface RetrofitServices {
  /** What these calls would spend now, sending nothing. */
  price(calls: readonly FdqCall[]): Promise<RetrofitCost>;
  /** Each call's number, or null where FDQ gave none (an error, text, no data). */
  fetch(calls: readonly FdqCall[]): Promise<(number | null)[]>;
}

export interface PlannedLine {
  readonly line: Line;
  readonly candidates: readonly Candidate[];
  /** The line's numbers, latest period first: the order they are probed in. */
  readonly ordered: readonly LineCell[];
}

export interface RetrofitPlan {
  readonly sheets: readonly SheetLayoutResult[];
  readonly lines: readonly PlannedLine[];
}

export type RetrofitStatus = "linked" | "ambiguous" | "not found" | "no datapoint";

/** One row of the report: one number of the model. */
export interface RetrofitRow {
  readonly sheet: string;
  readonly cell: string;
  readonly label: string;
  readonly status: RetrofitStatus;
  readonly modelValue: number;
  /** The formula proposed, as Excel shows it ("=FDQ.DATAPOINT(...)/1000000"), for a linked number. */
  readonly formula?: string;
  /** FDQ's value as the model shows it (scaled and signed), where one was fetched for the number. */
  readonly fdqValue?: number;
  readonly scale?: ScaleName;
  /** True when the model types the value with its sign flipped. */
  readonly flipped?: boolean;
  /** (model − FDQ) / |FDQ|. */
  readonly difference?: number;
  /** high: 2 numbers or more of the line agree; medium: this one alone. */
  readonly confidence?: "high" | "medium";
  /** The datapoints the label may name ("screens/traditional:REVENUE"), for ambiguous and not-found numbers. */
  readonly candidates?: readonly string[];
  /** What --apply writes: the call, its scale and sign. */
  readonly link?: { readonly call: FdqCall; readonly match: ScaleMatch };
}

export interface PlanOptions {
  readonly index: CatalogSearchIndex;
  /** --ticker: the ticker of company sheets that do not name one. */
  readonly ticker?: string | undefined;
}

/** The lines of every sheet and their candidates; nothing is fetched. */
export function planRetrofit(sheets: readonly GridSheet[], options: PlanOptions): RetrofitPlan {
  const layouts = sheets.map((s) => readLayout(s, { ticker: options.ticker }));
  const lines = layouts.flatMap((l) =>
    l.lines.map((line) => ({
      line,
      candidates: candidatesFor(options.index, line.label),
      ordered: [...line.cells].sort((a, b) => periodOrder(b.period) - periodOrder(a.period)),
    })),
  );
  return { sheets: layouts, lines };
}

export const callOf = (candidate: Candidate, cell: LineCell): FdqCall => ({
  name: "DATAPOINT",
  args: [cell.ticker, candidate.dataset, candidate.name, ...periodArgs(cell.period)],
});

const keyOf = (c: Candidate): string => `${c.dataset}:${c.name}`;

/** The calls of the first look: every line's candidates at its latest number. */
const probeCalls = (plan: RetrofitPlan, at: number): FdqCall[] =>
  plan.lines.flatMap((p) => {
    const cell = p.ordered[at];
    return cell && (at === 0 || p.ordered.length >= 3) ? p.candidates.map((c) => callOf(c, cell)) : [];
  });

export interface RetrofitPrice {
  /** The first look: every line's candidates at its latest number. */
  readonly first: number;
  /** The most the whole run can spend: the first look, the second, and one candidate at every other number. */
  readonly most: number;
}

/** What the run costs, before any request. */
export async function priceRetrofit(plan: RetrofitPlan, services: RetrofitServices): Promise<RetrofitPrice> {
  // A shared cost (the day's coverage list) is spent by the first batch that needs it, once.
  const spent = new Set<string>();
  const priced = async (calls: readonly FdqCall[]): Promise<{ units: number; cost: RetrofitCost }> => {
    const cost = await services.price(calls);
    const again = cost.shared.filter((s) => spent.has(s.id)).reduce((n, s) => n + s.units, 0);
    return { units: cost.units - again, cost };
  };
  const spend = (cost: RetrofitCost): void => cost.shared.forEach((s) => spent.add(s.id));
  const first = await priced(probeCalls(plan, 0));
  spend(first.cost);
  const second = await priced(probeCalls(plan, 1));
  spend(second.cost);
  let rest = 0;
  for (const p of plan.lines) {
    const costs = await Promise.all(
      p.candidates.map((c) => priced(p.ordered.slice(1).map((cell) => callOf(c, cell)))),
    );
    rest += Math.max(0, ...costs.map((c) => c.units));
    costs.forEach((c) => spend(c.cost));
  }
  return { first: first.units, most: first.units + second.units + rest };
}

/** The formula for a link, as Excel shows it ("=-FDQ.DATAPOINT(...)/1000"). */
export function formulaOf(call: FdqCall, match: ScaleMatch): string {
  return `=${match.sign < 0 ? "-" : ""}${formatFormula(call).slice(1)}${match.scale.suffix}`;
}

/** The same formula as the file stores it (without "="): the add-in's call as _xldudf_FDQ_NAME. */
export function storedFormulaOf(call: FdqCall, match: ScaleMatch): string {
  return formulaOf(call, match)
    .slice(1)
    .replace(`FDQ.${call.name}(`, `${canonicalHead(call.name, "file")}(`);
}

interface Fetched {
  get(candidate: Candidate, cell: LineCell): number | null | undefined;
}

async function fetchAll(
  services: RetrofitServices,
  wanted: readonly { candidate: Candidate; cell: LineCell }[],
  into: Map<string, number | null>,
): Promise<void> {
  const calls = new Map<string, FdqCall>();
  for (const w of wanted) {
    const key = JSON.stringify(callOf(w.candidate, w.cell).args);
    if (!into.has(key)) calls.set(key, callOf(w.candidate, w.cell));
  }
  const keys = [...calls.keys()];
  const values = await services.fetch([...calls.values()]);
  keys.forEach((k, i) => into.set(k, values[i] ?? null));
}

function fetchedFrom(values: Map<string, number | null>): Fetched {
  return {
    get: (candidate, cell) => values.get(JSON.stringify(callOf(candidate, cell).args)),
  };
}

const matchOf = (
  cell: LineCell,
  value: number | null | undefined,
  tolerance?: number,
): ScaleMatch | undefined =>
  typeof value === "number" ? matchScale(cell.value, value, cell.format, tolerance) : undefined;

/** Runs the plan: fetches what it must, and gives one row per number of every line. */
export async function runRetrofit(
  plan: RetrofitPlan,
  services: RetrofitServices,
  options: { tolerance?: number } = {},
): Promise<RetrofitRow[]> {
  const values = new Map<string, number | null>();
  const fetched = fetchedFrom(values);
  const { tolerance } = options;
  const probe = (at: number, lines: readonly PlannedLine[]) =>
    fetchAll(
      services,
      lines.flatMap((p) => {
        const cell = p.ordered[at];
        return cell ? p.candidates.map((candidate) => ({ candidate, cell })) : [];
      }),
      values,
    );
  const matching = (p: PlannedLine, at: number): Candidate[] => {
    const cell = p.ordered[at];
    return cell
      ? p.candidates.filter((c) => matchOf(cell, fetched.get(c, cell), tolerance) !== undefined)
      : [];
  };

  const withCandidates = plan.lines.filter((p) => p.candidates.length > 0);
  await probe(0, withCandidates);
  const again = withCandidates.filter((p) => matching(p, 0).length === 0 && p.ordered.length >= 3);
  await probe(1, again);
  const chosen = new Map<PlannedLine, { found: Candidate[]; at: number }>();
  for (const p of withCandidates) {
    const first = matching(p, 0);
    chosen.set(
      p,
      first.length > 0 || !again.includes(p) ? { found: first, at: 0 } : { found: matching(p, 1), at: 1 },
    );
  }
  await fetchAll(
    services,
    [...chosen].flatMap(([p, { found }]) =>
      found.length === 1 ? p.ordered.map((cell) => ({ candidate: found[0] as Candidate, cell })) : [],
    ),
    values,
  );

  const rows: RetrofitRow[] = [];
  for (const p of plan.lines) {
    const { line } = p;
    const base = (cell: LineCell) => ({
      sheet: line.sheet,
      cell: cell.address,
      label: line.label,
      modelValue: cell.value,
    });
    const listed = p.candidates.map(keyOf);
    const pick = chosen.get(p);
    if (!pick) {
      for (const cell of line.cells) rows.push({ ...base(cell), status: "no datapoint" });
      continue;
    }
    if (pick.found.length !== 1) {
      const status = pick.found.length > 1 ? "ambiguous" : "not found";
      const candidates = pick.found.length > 1 ? pick.found.map(keyOf) : listed;
      for (const cell of line.cells) rows.push({ ...base(cell), status, candidates });
      continue;
    }
    const candidate = pick.found[0] as Candidate;
    const anchor = matchOf(
      p.ordered[pick.at] as LineCell,
      fetched.get(candidate, p.ordered[pick.at] as LineCell),
      tolerance,
    );
    const matches = new Map<LineCell, ScaleMatch>();
    for (const cell of line.cells) {
      const m = matchOf(cell, fetched.get(candidate, cell), tolerance);
      if (m && anchor && m.scale.name === anchor.scale.name && m.sign === anchor.sign) matches.set(cell, m);
    }
    for (const cell of line.cells) {
      const match = matches.get(cell);
      const value = fetched.get(candidate, cell);
      if (!match) {
        const shown =
          typeof value === "number" && anchor ? scaled(value, anchor.scale) * anchor.sign : undefined;
        rows.push({
          ...base(cell),
          status: "not found",
          candidates: [keyOf(candidate)],
          ...(shown !== undefined
            ? { fdqValue: shown, difference: shown === 0 ? Infinity : (cell.value - shown) / Math.abs(shown) }
            : {}),
        });
        continue;
      }
      const call = callOf(candidate, cell);
      rows.push({
        ...base(cell),
        status: "linked",
        formula: formulaOf(call, match),
        fdqValue: match.expected,
        scale: match.scale.name,
        ...(match.sign < 0 ? { flipped: true } : {}),
        difference: match.difference,
        confidence: matches.size >= 2 ? "high" : "medium",
        link: { call, match },
      });
    }
  }
  return rows;
}

export interface RetrofitCounts {
  readonly linked: number;
  readonly ambiguous: number;
  readonly notFound: number;
  readonly noDatapoint: number;
}

export function countRows(rows: readonly RetrofitRow[]): RetrofitCounts {
  const n = (s: RetrofitStatus) => rows.filter((r) => r.status === s).length;
  return {
    linked: n("linked"),
    ambiguous: n("ambiguous"),
    notFound: n("not found"),
    noDatapoint: n("no datapoint"),
  };
}
