// Datapoint and dataset calls whose year is a relative period (FY0, FQ-2, LTM...): the latest period of the
// ticker and kind is found (period-resolver.ts), the call is made for the period it names, and the result
// says what was resolved and on which refresh day. Plans and estimates name the request of the period known
// today, or of the period the search will most likely find, and count the search's requests.
import {
  applyRelative,
  findDatapoint,
  findDataset,
  periodAtIndex,
  periodType,
  RESOLVED_KIND,
  relativeText,
  resolvedWords,
  type DatedPeriod,
  type PeriodKind,
} from "../catalog";
import type { ClientParts } from "./client-setup";
import type { ResolutionCost } from "./planner";
import { DEFAULTS } from "./defaults";
import { clockGuess, isInactiveTicker, isNoData, PeriodResolver, type ProbeTarget } from "./period-resolver";
import type { FdqError } from "./errors";
import { RefreshDayClock } from "./refresh-day";
import type {
  DatapointRequest,
  DatapointResult,
  DatasetRequest,
  DatasetResult,
  FdqRequest,
  ResolvedPeriod,
  SecurityRecord,
  ApiResult,
} from "./types";
import { checkRelativeRequest, type RelativeTarget } from "./validate";

type Call = DatapointRequest | DatasetRequest;

/** The call for a resolved period: the same arguments with a fixed year, quarter and ttm. */
export function fixedCall<C extends Call>(req: C, at: DatedPeriod): C {
  const p = at.period;
  return {
    ...req,
    year: at.year,
    quarter: p.kind === "quarter" ? p.n : null,
    ttm: p.kind === "ttm" ? p.n : null,
  };
}

/**
 * Whether a relative call asks the latest period itself (FY0 annual, FQ0, LTM): its own request is then the
 * search's answer with data, and the search costs it nothing.
 */
const asksLatest = (t: RelativeTarget): boolean =>
  t.relative.offset === 0 && (t.relative.basis !== "FY" || t.within.kind === "annual");

/**
 * What a probe asks for a relative call: its datapoint; for a whole dataset at the latest period the whole
 * dataset (the cell's own request), else its first catalog name (one unit).
 */
export function probeOf(t: RelativeTarget): ProbeTarget {
  const name = t.name ?? t.dataset.datapoints[0]?.name ?? "";
  return { dataset: t.dataset.path, name, ...(t.name === undefined && asksLatest(t) && { whole: true }) };
}

/** The calls of a client the search asks through (FdqClient's; a type here, so no import circle). */
interface AskingClient {
  /** A fixed period's value; a "not found" answer stays one (the search asks `uncovered` itself). */
  datapoint(req: DatapointRequest): Promise<DatapointResult>;
  dataset(req: DatasetRequest): Promise<DatasetResult>;
  security(type: string, ticker: string): Promise<ApiResult<SecurityRecord>>;
  /** The error of a ticker the service does not cover, else undefined (ticker-coverage.ts). */
  uncovered(ticker: string): Promise<FdqError | undefined>;
}

/** The latest-period search of a client's parts, asking through the client's own calls. */
export function resolverFor(e: ClientParts, client: AskingClient): PeriodResolver {
  return new PeriodResolver({
    today: () => e.cache.today(),
    resolutions: e.resolutions,
    windowMs: e.windowMs,
    probe: (ticker, target, at) => probeWith(client, ticker, target, at),
    lastTradeDate: async (ticker) => (await client.security("inactive", ticker)).data.last_trade_date,
    uncovered: (ticker) => client.uncovered(ticker),
  });
}

/** A probe through the client's own datapoint call: cached, coalesced, counted and priced as any call. */
export async function probeWith(
  client: Pick<AskingClient, "datapoint" | "dataset">,
  ticker: string,
  target: ProbeTarget,
  at: DatedPeriod,
): Promise<boolean> {
  const { dataset, name } = target;
  try {
    if (target.whole) await client.dataset(fixedCall({ ticker, dataset, year: at.year }, at));
    else await client.datapoint(fixedCall({ ticker, dataset, name, year: at.year }, at));
    return true;
  } catch (error) {
    if (isNoData(error, nameInCatalog(target))) return false;
    throw error;
  }
}

function resolvedOf(t: RelativeTarget, at: DatedPeriod, resolvedOn: string): ResolvedPeriod {
  return {
    text: relativeText(t.relative),
    year: at.year,
    period: at.period.n,
    periodtype: periodType(at.period),
    words: resolvedWords(t.relative, at),
    resolvedOn,
  };
}

/**
 * The checked relative call and the period it names, once its ticker's latest period is known. `refuse`: a
 * cache-only call's error where the latest period is not known today (no search is started or joined).
 */
async function resolve(
  resolver: PeriodResolver,
  req: Call,
  refuse: (() => Error) | undefined,
): Promise<{ t: RelativeTarget; at: DatedPeriod; resolved: ResolvedPeriod }> {
  const t = checkRelativeRequest(req)!;
  const kind = RESOLVED_KIND[t.relative.basis];
  const { latest, resolvedOn } = await resolver.latest(t.ticker, kind, probeOf(t), asksLatest(t), refuse);
  const at = applyRelative(t.relative, latest, t.within);
  return { t, at, resolved: resolvedOf(t, at, resolvedOn) };
}

export async function relativeDatapoint(
  resolver: PeriodResolver,
  req: DatapointRequest,
  datapoint: (req: DatapointRequest) => Promise<DatapointResult>,
  refuse?: () => Error,
): Promise<DatapointResult> {
  const { at, resolved } = await resolve(resolver, req, refuse);
  return { ...(await datapoint(fixedCall(req, at))), resolved };
}

export async function relativeDataset(
  resolver: PeriodResolver,
  req: DatasetRequest,
  dataset: (req: DatasetRequest) => Promise<DatasetResult>,
  refuse?: () => Error,
): Promise<DatasetResult> {
  const { at, resolved } = await resolve(resolver, req, refuse);
  return { ...(await dataset(fixedCall(req, at))), resolved };
}

/**
 * The request with the period known today, or guessed, in place of its relative year; without a resolver
 * (a client that does not know its settings yet) guessed from the day alone.
 */
export function plannedRequest(resolver: PeriodResolver | undefined, request: FdqRequest): FdqRequest {
  if (request.kind !== "datapoint" && request.kind !== "dataset") return request;
  const t = checkRelativeRequest(request.request);
  if (!t) return request;
  const kind = RESOLVED_KIND[t.relative.basis];
  const latest = resolver
    ? resolver.guess(t.ticker, kind).latest
    : periodAtIndex(kind, clockGuess(kind, new RefreshDayClock(DEFAULTS.refreshDay).label(Date.now())));
  const at = applyRelative(t.relative, latest, t.within);
  return request.kind === "datapoint"
    ? { kind: "datapoint", request: fixedCall(request.request, at) }
    : { kind: "dataset", request: fixedCall(request.request, at) };
}

/** Which latest-period search a relative call waits for ("TICKER|kind"); undefined for a fixed period. */
export function searchOf(request: FdqRequest): string | undefined {
  if (request.kind !== "datapoint" && request.kind !== "dataset") return undefined;
  const t = checkRelativeRequest(request.request);
  return t && `${t.ticker}|${RESOLVED_KIND[t.relative.basis]}`;
}

/**
 * What finding the latest periods of `requests` costs before their own requests: per ticker and kind not
 * known today, the empty answers above the likely latest (no unit), an inactive stock's coverage record, and
 * one unit when no call asks the latest period itself (its answer is then the resolution's alone).
 */
export function resolutionCost(resolver: PeriodResolver, requests: readonly FdqRequest[]): ResolutionCost {
  const searches = new Map<string, { ticker: string; kind: PeriodKind; atLatest: boolean }>();
  for (const r of requests) {
    if (r.kind !== "datapoint" && r.kind !== "dataset") continue;
    let t: RelativeTarget | undefined;
    try {
      t = checkRelativeRequest(r.request);
    } catch {
      continue; // refused: the cell shows the error, nothing is sent
    }
    if (!t) continue;
    const kind = RESOLVED_KIND[t.relative.basis];
    if (resolver.known(t.ticker, kind)) continue;
    const key = `${t.ticker}|${kind}`;
    const s = searches.get(key) ?? { ticker: t.ticker, kind, atLatest: false };
    s.atLatest ||= asksLatest(t);
    searches.set(key, s);
  }
  let sent = 0;
  let units = 0;
  for (const s of searches.values()) {
    const g = resolver.guess(s.ticker, s.kind);
    sent += g.emptyProbes + (s.atLatest ? 0 : 1) + (g.coverage && isInactiveTicker(s.ticker) ? 1 : 0);
    units += (s.atLatest ? 0 : 1) + (g.coverage ? 1 : 0);
  }
  return { searches: searches.size, requests: sent, units };
}

/** Whether the probe's datapoint is one its dataset's catalog lists (a 404 DataPointNotFound is then "no data"). */
function nameInCatalog(target: ProbeTarget): boolean {
  const dataset = findDataset(target.dataset);
  return Boolean(dataset && findDatapoint(dataset, target.name));
}
