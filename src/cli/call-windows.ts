// A large batch of FDQ calls evaluated in windows of calls started together, so that a refresh of 50,000 FDQ
// cells does not hold 50,000 calls in flight at once: every call started and waiting holds its chain of
// promises and suspended functions in the request module (about 1.5 KB per call answered by a shared request,
// about 3 KB per call waiting for its own request in the queue: 150 MB for 50,000 single-datapoint requests).
//
// What the request module decides from the calls started together stays the same: the calls asking one
// dataset, ticker and period (one whole-dataset request, or the single datapoints the per-datapoint planner
// may gather into it) are always in the same window, and so are calls linked through any request they share.
// Calls whose requests cannot be named before they run (refused arguments, periods to resolve first) all go
// into one window together, as every call did before.
import { RequestKey, type FdqClient, type FdqRequest } from "../api";
import type { FdqCall } from "../functions/formula";
import { requestsOf } from "../functions/requests";
import { evaluateAll, type Outcome } from "../functions/evaluate";
import type { FdqApi } from "../functions/impl";

/** Calls started together at most (a group of linked calls larger than this is one window of its own). */
export const WINDOW_CALLS = 5_000;

/** The group of a request: a data request's dataset, ticker and period; any other request itself. */
function groupOf(key: RequestKey): string {
  const f = key.fields;
  return f.endpoint === "data"
    ? RequestKey.data(f.dataset, f.ticker, f.year, f.period).serialize()
    : key.serialize();
}

/** The groups of a call's requests, as the client names them; none when it cannot name them before it runs. */
async function groupsOf(client: FdqClient, call: FdqCall): Promise<string[]> {
  let requests: FdqRequest[];
  try {
    requests = await requestsOf(call);
  } catch {
    return [];
  }
  const groups: string[] = [];
  for (const request of requests) {
    try {
      groups.push(groupOf(client.keyOf(request)));
    } catch {
      return [];
    }
  }
  return groups;
}

/** The calls' indexes in windows, in call order of each window's first call; one window for a small batch. */
export async function windowsOf(
  client: FdqClient,
  calls: readonly FdqCall[],
  size = WINDOW_CALLS,
): Promise<number[][]> {
  if (calls.length <= size) return [calls.map((_, i) => i)];
  // Calls sharing a group are linked (union-find over the call indexes).
  const parent = new Int32Array(calls.length).map((_, i) => i);
  const root = (i: number): number => {
    while (parent[i] !== i) i = parent[i] = parent[parent[i]!]!;
    return i;
  };
  const firstOf = new Map<string, number>();
  const unnamed = "";
  for (let i = 0; i < calls.length; i++) {
    const groups = await groupsOf(client, calls[i]!);
    for (const group of groups.length > 0 ? groups : [unnamed]) {
      const first = firstOf.get(group);
      if (first === undefined) firstOf.set(group, i);
      else parent[root(i)] = root(first);
    }
  }
  const linked = new Map<number, number[]>();
  for (let i = 0; i < calls.length; i++) {
    const r = root(i);
    const members = linked.get(r);
    if (members) members.push(i);
    else linked.set(r, [i]);
  }
  // Whole groups of linked calls, in the order of their first call, packed up to `size` calls a window.
  const windows: number[][] = [];
  let window: number[] = [];
  for (const members of linked.values()) {
    if (window.length > 0 && window.length + members.length > size) {
      windows.push(window);
      window = [];
    }
    for (const i of members) window.push(i);
  }
  if (window.length > 0) windows.push(window);
  return windows;
}

/** evaluateAll over the windows of `calls`, one window after another; the outcomes in call order. */
export async function evaluateInWindows(
  api: FdqApi,
  client: FdqClient,
  calls: readonly FdqCall[],
  size = WINDOW_CALLS,
): Promise<Outcome[]> {
  const outcomes = new Array<Outcome>(calls.length);
  for (const window of await windowsOf(client, calls, size)) {
    const answered = await evaluateAll(
      api,
      window.map((i) => calls[i]!),
    );
    window.forEach((i, k) => (outcomes[i] = answered[k]!));
  }
  return outcomes;
}
