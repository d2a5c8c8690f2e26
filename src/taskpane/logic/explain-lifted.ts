// Explain for a call Excel array-lifts (a scalar function given a range of several cells): how many calls
// it makes ("3 calls (3 rows x 1 column)"), what all of them cost together, and the first few calls
// explained one by one as a plain call is. Kept apart from explain.ts, which it calls back for each shown
// call through the function it is given.
import type { FdqRequest } from "../../api";
import { formatFormula } from "../../functions/formula";
import { requestsOf } from "../../functions/requests";
import { priceOf, type CallExplanation, type ExplainOptions, type LiftedExplanation } from "./explanation";
import type { LiftedCall, ResolvedCall } from "./fdq-call";
import { messageOf } from "./message";

/** How many of a lifted call's cells Explain details; the rest are only counted and priced. */
export const SHOWN_LIFTED_CALLS = 3;

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
      upTo ||= own.length > 1 && (call.name === "SECURITY" || call.name === "CARD");
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
  // The day's coverage list, asked first, spares the requests of a ticker it does not list: "up to" as well.
  const price =
    planned.length === 0 ? undefined : priceOf(planned, upTo || planned.some((p) => p.ifListed === true));
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
