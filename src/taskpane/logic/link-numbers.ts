// Link numbers: fdq retrofit's matching (src/workbook/retrofit/) over the active sheet or the selection, in the
// pane. The price comes first: the units the matching can spend, from retrofit's planner and the shared client's
// estimate (today's cache counted), with nothing sent; "Find matches" then runs it through the same client, so
// the day cache answers what it can. Its findings are the proposals the analyst accepts or rejects (each with
// the model's number, FDQ's and the difference), the ambiguous labels with their candidates (never chosen for
// the analyst) and the numbers FDQ disagrees with (left alone).
import type { CatalogSearchIndex } from "../../catalog/search";
import type { FdqCall } from "../../functions/formula";
import { evaluateAll } from "../../functions/evaluate";
import { requestsOf } from "../../functions/requests";
import type { FdqRequest } from "../../api";
import { LAYOUTS_READ } from "../../workbook/retrofit/layout";
import {
  costOf,
  NO_COST,
  planRetrofit,
  priceRetrofit,
  runRetrofit,
  type RetrofitPlan,
  type RetrofitPrice,
  type RetrofitRow,
  type RetrofitServices,
} from "../../workbook/retrofit/retrofit";
import type { ScaleName } from "../../workbook/retrofit/scale";
import type { ModelSheetRead } from "../office/link-numbers";
import type { PaneClient } from "./pane-client";

export type LinkScope = "selection" | "sheet";

/** The layouts, in the pane's words (it has no --ticker: the ticker is in a cell or the sheet's name). */
export const PANE_LAYOUTS_READ = LAYOUTS_READ.replace("fdq retrofit reads", "Link numbers reads").replace(
  ", in the sheet's name or given with --ticker",
  " or in the sheet's name",
);

/** What Link numbers found to do on the sheet, before any request; or why there is nothing. */
export type LinkPlan =
  | {
      readonly ok: true;
      readonly plan: RetrofitPlan;
      /** Numbers under the table's labels, labels, and the labels that may name FDQ datapoints. */
      readonly numbers: number;
      readonly labels: number;
      readonly known: number;
    }
  | { readonly ok: false; readonly problem: string };

const inBox = (box: NonNullable<ModelSheetRead["selection"]>, row: number, col: number): boolean =>
  row >= box.top && row <= box.bottom && col >= box.left && col <= box.right;

/** The sheet's lines (only the selected numbers when the scope is the selection) and their candidates. */
export function planLinks(read: ModelSheetRead, scope: LinkScope, index: CatalogSearchIndex): LinkPlan {
  const { sheet } = read;
  if (sheet.protected)
    return {
      ok: false,
      problem: `Sheet "${sheet.name}" is protected: its numbers cannot be replaced. Unprotect it (Review > Unprotect Sheet) to link them.`,
    };
  const full = planRetrofit([sheet], { index });
  const layout = full.sheets[0];
  if (full.lines.length === 0) {
    const why =
      layout?.problem !== undefined && layout.problem !== "no layout fdq retrofit reads"
        ? ` (${layout.problem.replace(", or give --ticker", "").replace(", name the sheet", " or name the sheet")})`
        : "";
    return { ok: false, problem: `Found no numbers to link on "${sheet.name}"${why}. ${PANE_LAYOUTS_READ}.` };
  }
  const box = scope === "selection" ? read.selection : undefined;
  const plan: RetrofitPlan = box
    ? {
        sheets: full.sheets,
        lines: full.lines
          .map((p) => ({
            ...p,
            line: { ...p.line, cells: p.line.cells.filter((c) => inBox(box, c.row, c.col)) },
            ordered: p.ordered.filter((c) => inBox(box, c.row, c.col)),
          }))
          .filter((p) => p.line.cells.length > 0),
      }
    : full;
  if (plan.lines.length === 0)
    return {
      ok: false,
      problem:
        "The selection holds none of the table's numbers: select the numbers to link (their labels and headers need not be selected), or choose the whole sheet.",
    };
  return {
    ok: true,
    plan,
    numbers: plan.lines.reduce((n, p) => n + p.line.cells.length, 0),
    labels: plan.lines.length,
    known: plan.lines.filter((p) => p.candidates.length > 0).length,
  };
}

/** The requests of these calls, as the functions make them (a call the functions refuse makes none). */
async function requestsOfCalls(calls: readonly FdqCall[]): Promise<FdqRequest[]> {
  const each = await Promise.all(calls.map((call) => requestsOf(call).catch(() => [] as FdqRequest[])));
  return each.flat();
}

/** Retrofit's services over the pane's client: prices from its estimate, values as the functions give them. */
export function paneRetrofitServices(client: PaneClient): RetrofitServices {
  return {
    price: async (calls) =>
      calls.length === 0 ? NO_COST : costOf(client.estimate(await requestsOfCalls(calls))),
    fetch: async (calls) =>
      (await evaluateAll(client, calls)).map((o) => (o.ok && typeof o.value === "number" ? o.value : null)),
  };
}

/** What finding matches costs, in quota units; nothing is sent. */
export function priceLinks(plan: RetrofitPlan, client: PaneClient): Promise<RetrofitPrice> {
  return priceRetrofit(plan, paneRetrofitServices(client));
}

const count = (n: number, one: string, many = `${one}s`): string =>
  `${n.toLocaleString("en-US")} ${n === 1 ? one : many}`;

/** The price line shown before "Find matches". */
export function priceLine(plan: Extract<LinkPlan, { ok: true }>, price: RetrofitPrice): string {
  return (
    `${count(plan.numbers, "number")} under ${count(plan.labels, "label")}; ${count(plan.known, "label")} may name ` +
    `FDQ datapoints. Finding matches costs at most ${count(price.most, "quota unit")} ` +
    `(${count(price.first, "unit")} for a first look at each label's candidates).`
  );
}

/** Said where the pane has no connection: nothing can be priced or fetched. */
export const CONNECT_FIRST =
  "Connect first (Connect tab): without a connection the price of finding matches is unknown, and nothing can be fetched.";

/** One number the analyst may link: the formula retrofit proposes in place of the typed constant. */
export interface LinkProposal {
  readonly sheet: string;
  readonly cell: string;
  readonly label: string;
  readonly formula: string;
  readonly modelValue: number;
  readonly fdqValue: number;
  readonly scale: ScaleName;
  readonly flipped: boolean;
  /** (model − FDQ) / |FDQ| */
  readonly difference: number;
  readonly confidence: "high" | "medium";
}

export interface LinkFindings {
  readonly proposals: readonly LinkProposal[];
  /** Labels several datapoints match: listed with their candidates, never chosen. */
  readonly ambiguous: readonly { readonly label: string; readonly candidates: readonly string[] }[];
  /** Numbers of a matched line that FDQ's value does not match (a typo, a restated value): left alone. */
  readonly disagree: readonly {
    readonly cell: string;
    readonly label: string;
    readonly modelValue: number;
    readonly fdqValue: number;
  }[];
  /** Numbers under labels the catalog does not know, or whose candidates matched nothing. */
  readonly unmatched: number;
}

export function findingsOf(rows: readonly RetrofitRow[]): LinkFindings {
  const proposals: LinkProposal[] = [];
  const ambiguous = new Map<string, readonly string[]>();
  const disagree: LinkFindings["disagree"][number][] = [];
  let unmatched = 0;
  for (const r of rows) {
    if (r.status === "linked" && r.formula !== undefined && r.fdqValue !== undefined && r.scale) {
      proposals.push({
        sheet: r.sheet,
        cell: r.cell,
        label: r.label,
        formula: r.formula,
        modelValue: r.modelValue,
        fdqValue: r.fdqValue,
        scale: r.scale,
        flipped: r.flipped ?? false,
        difference: r.difference ?? 0,
        confidence: r.confidence ?? "medium",
      });
    } else if (r.status === "ambiguous") ambiguous.set(r.label, r.candidates ?? []);
    else if (r.status === "not found" && r.fdqValue !== undefined)
      disagree.push({ cell: r.cell, label: r.label, modelValue: r.modelValue, fdqValue: r.fdqValue });
    else unmatched++;
  }
  return {
    proposals,
    ambiguous: [...ambiguous].map(([label, candidates]) => ({ label, candidates })),
    disagree,
    unmatched,
  };
}

/** Runs the matching through the shared client (today's cache first) and gives its findings. */
export async function findLinks(plan: RetrofitPlan, client: PaneClient): Promise<LinkFindings> {
  return findingsOf(await runRetrofit(plan, paneRetrofitServices(client)));
}

/** The difference as the list shows it: "0.00%", "+1.25%". */
export function differenceText(difference: number): string {
  if (!Number.isFinite(difference)) return "n/a";
  const pct = difference * 100;
  return `${pct > 0 ? "+" : ""}${pct.toFixed(Math.abs(pct) < 0.01 && pct !== 0 ? 4 : 2)}%`;
}
