// Explain for a call Excel array-lifts (a scalar function given a range of several cells): how many calls
// it makes ("3 calls (3 rows x 1 column)"), what all of them cost together, and the first few calls
// explained one by one as a plain call is. Kept apart from explain.ts, which it calls back for each shown
// call, so neither file grows past a screenful of concerns.
import type { FdqRequest } from "../../api";
import { formatFormula } from "../../functions/formula";
import { requestsOf } from "../../functions/requests";
import type { CallExplanation, CallPrice, ExplainOptions } from "./explain";
import type { LiftedCall, ResolvedCall } from "./fdq-call";
import { messageOf } from "./message";

/** How many of a lifted call's cells Explain details; the rest are only counted and priced. */
export const SHOWN_LIFTED_CALLS = 3;

export interface LiftedExplanation {
  readonly kind: "lifted";
  readonly text: string;
  readonly functionName: string;
  readonly rows: number;
  readonly columns: number;
  /** "3 calls (3 rows x 1 column)". */
  readonly summary: string;
  /** The first cells of the spill, each with its call explained (or why it makes no request). */
  readonly shown: readonly { readonly address: string; readonly call: CallExplanation }[];
  /**
   * Every cell's requests together, as the client would send them (equal requests once, the grouping
   * rule applied); undefined when no cell makes a request.
   */
  readonly price?: CallPrice;
  /** Cells of the spill that show an error without a request, with the first one's reason. */
  readonly noRequest: { readonly cells: number; readonly first?: string };
}

const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? "" : "s"}`;

export function liftedSummary(rows: number, columns: number): string {
  return `${plural(rows * columns, "call")} (${plural(rows, "row")} x ${plural(columns, "column")})`;
}

export async function explainLifted(
  call: LiftedCall,
  options: ExplainOptions,
  explainOne: (call: ResolvedCall) => Promise<CallExplanation>,
): Promise<LiftedExplanation> {
  const requests: FdqRequest[] = [];
  let noRequest = 0;
  let first: string | undefined;
  let upTo = false;
  for (const cell of call.cells) {
    try {
      if (!cell.ok) throw new Error(cell.reason);
      const own = await requestsOf(cell.call);
      // Checks the requests as the client will: a refused one makes no request.
      for (const request of own) options.client.plan(request);
      upTo ||= own.length > 1 && call.name === "SECURITY";
      requests.push(...own);
    } catch (err) {
      noRequest++;
      first ??= `${cell.address}: ${messageOf(err)}`;
    }
  }
  const shown: { address: string; call: CallExplanation }[] = [];
  for (const cell of call.cells.slice(0, SHOWN_LIFTED_CALLS)) {
    const one: ResolvedCall = cell.ok
      ? {
          ok: true,
          kind: "call",
          text: formatFormula(cell.call).slice(1),
          call: cell.call,
          inputs: cell.inputs,
        }
      : { ok: false, text: call.text, reason: cell.reason };
    shown.push({ address: cell.address, call: await explainOne(one) });
  }
  const planned = requests.length > 0 ? options.client.estimate(requests).planned : [];
  const units = planned.reduce((n, p) => n + p.units, 0);
  const cached = planned.filter((p) => p.cached);
  const price: CallPrice | undefined =
    planned.length === 0
      ? undefined
      : {
          requests: planned.length,
          units,
          cachedRequests: cached.length,
          toSpend: units - cached.reduce((n, p) => n + p.units, 0),
          upTo,
        };
  return {
    kind: "lifted",
    text: call.text,
    functionName: `FDQ.${call.name}`,
    rows: call.rows,
    columns: call.columns,
    summary: liftedSummary(call.rows, call.columns),
    shown,
    ...(price && { price }),
    noRequest: { cells: noRequest, ...(first !== undefined && { first }) },
  };
}
