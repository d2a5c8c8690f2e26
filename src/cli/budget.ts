// --budget N: before a run sends anything, what it would spend. Every call is turned into the requests its
// function makes (the functions' own code against a recorder, as the task pane's Explain does), the client
// groups them as it will send them (under its billing model) and prices the ones today's cache does not
// answer. A run whose estimate is over the budget is refused: nothing is sent, exit status 3.
import type { FdqClient, FdqRequest, RequestEstimate } from "../api";
import type { FdqCall } from "../functions/formula";
import { requestsOf } from "../functions/requests";
import type { ValueOptions } from "../functions/value-options";

/** A run over its --budget (exit status 3). Its message says what the run would spend. */
export class BudgetExceeded extends Error {
  override name = "BudgetExceeded";

  constructor(
    readonly estimate: RequestEstimate,
    readonly budget: number,
  ) {
    super(budgetMessage(estimate, budget));
  }
}

const count = (n: number): string => n.toLocaleString("en-US");
const plural = (n: number, one: string, many: string): string => `${count(n)} ${n === 1 ? one : many}`;

/**
 * What the run would spend against its budget. While the day's coverage list is not in today's cache the
 * estimate cannot know which tickers it lists (nothing is sent before the budget is checked, not even the
 * list): it counts every ticker's requests, the most the run can spend, and the budget is held to that.
 */
export function budgetMessage(estimate: RequestEstimate, budget: number): string {
  const requests = plural(estimate.requestsNeeded, "request", "requests");
  const spend = estimate.ifListed
    ? `at most ${plural(estimate.units, "quota unit", "quota units")} (${requests} not in today's cache; ` +
      `less if the day's ticker coverage list, asked first, does not list some tickers)`
    : `about ${plural(estimate.units, "quota unit", "quota units")} (${requests} not in today's cache)`;
  return `this run would spend ${spend}; --budget is ${count(budget)}. Nothing was sent.`;
}

/**
 * The requests one call makes, as the client names them. A call whose arguments the functions refuse makes
 * none (its cell shows the error). FDQ.SECURITY without a type is recorded trying stock, ETF and fund in
 * turn; only one of them answers (a "not found" costs nothing), so only the first is counted.
 */
export async function callRequests(
  client: FdqClient,
  call: FdqCall,
  values?: ValueOptions,
): Promise<FdqRequest[]> {
  let recorded: FdqRequest[];
  try {
    recorded = await requestsOf(call, values);
  } catch {
    return [];
  }
  const firstSecurity = recorded.findIndex((r) => r.kind === "security");
  return recorded.filter((r, i) => {
    if (r.kind === "security" && i !== firstSecurity) return false;
    try {
      client.keyOf(r);
      return true;
    } catch {
      return false; // refused by the client's checks: the cell shows the error, nothing is sent
    }
  });
}

/** What evaluating `calls` would send and spend now. The client must be ready (its cache loaded). */
export async function estimateRun(
  client: FdqClient,
  calls: readonly FdqCall[],
  values?: ValueOptions,
): Promise<RequestEstimate> {
  const requests = await Promise.all(calls.map((call) => callRequests(client, call, values)));
  return client.estimate(requests.flat());
}
