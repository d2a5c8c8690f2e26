// From a call's arguments to its request(s): the one module that does it. Every argument is checked before any
// request (each check answers the normalised argument or throws the spec's error, name and message, where the
// spec has one, else InvalidArgumentError naming the argument); the checked call names its RequestKey (keyOf*);
// a relative period (FY0, FQ-2, LTM...) names the latest-period search it waits for and, once that is known, the
// fixed call of the period it names (fixedCall). The client's reads, its plans and its estimates all ask here,
// and nowhere else builds a call's key. Nothing here sends a request.
import {
  applyRelative,
  DATASETS,
  fiscalYearProblem,
  PRIOR_YEARS,
  SECURITY_TYPES,
  findDatapoint,
  findDataset,
  findSectorDatapoint,
  isRelativePeriod,
  parseRelativePeriod,
  periodAtIndex,
  periodOfArgs,
  periodType,
  relativeConflict,
  relativeText,
  resolvedWords,
  RESOLVED_KIND,
  RELATIVE_GRAMMAR,
  shown,
  type DatedPeriod,
  type PeriodKind,
  type RelativePeriod,
  type Dataset,
  type Period,
  type SectorDatapoint,
  type SecurityType,
} from "../catalog";
import {
  nearestDatasets,
  orList,
  unknownDatapointText,
  unknownSectorDatapointText,
} from "../catalog/nearest";
import {
  InvalidArgumentError,
  InvalidPriorYearError,
  InvalidSecurityTypeError,
  SectorDataPointNotFoundError,
} from "./errors";
import { aloneKey, DatapointKeys } from "./day-answers";
import { DEFAULTS } from "./defaults";
import { clockGuess, type PeriodResolver, type ProbeTarget } from "./period-resolver";
import type { ResolutionCost } from "./planner";
import type { BillingModel } from "./pricing";
import { isInactiveTicker } from "./ticker-coverage";
import { RefreshDayClock } from "./refresh-day";
import { dataKey, RequestKey, type DataKey, type DatapointTarget, type DatasetTarget } from "./request-key";
import type { DatapointRequest, DatasetRequest, FdqRequest, ResolvedPeriod, SectorRequest } from "./types";

export type { DatapointTarget, DatasetTarget };

export interface SectorTarget {
  id: string;
  name: string;
  priorYear: number | undefined;
  entry: SectorDatapoint;
}

/** An argument's value in a message, as a cell would show it (the catalog's one formatter). */
export const show = shown;
const describe = shown;

function hasControlCharacter(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x20 || code === 0x7f) return true;
  }
  return false;
}

/**
 * The longest identifiers sent. Tickers and sector/industry ids: the longest the spec shows is an inactive
 * ticker such as ENRN:1 and the sandbox's longest industry id has 24 characters, so 40 leaves room;
 * datapoint names: the catalog's longest has 83 characters. A longer argument is a typing or paste
 * mistake: refused here, it never becomes a request (and a 431 from the service).
 */
export const MAX_LENGTH = { identifier: 40, name: 120 } as const;

function identifier(value: unknown, argument: string, max: number): string {
  if (typeof value !== "string" || value.trim() === "") {
    throw new InvalidArgumentError({
      argument: argument,
      message: `${argument} must be non-empty text (got ${describe(value)}).`,
    });
  }
  const text = value.trim().toUpperCase();
  if (text.length > max) {
    throw new InvalidArgumentError({
      argument,
      message: `${argument} is ${text.length} characters long; at most ${max} are allowed.`,
    });
  }
  // "." and ".." would be resolved away as path segments even when URL-encoded.
  if (/^\.+$/.test(text) || hasControlCharacter(text)) {
    throw new InvalidArgumentError({
      argument: argument,
      message: `${argument} ${describe(value)} is not a valid identifier.`,
    });
  }
  return text;
}

export const checkTicker = (value: unknown, argument = "ticker"): string =>
  identifier(value, argument, MAX_LENGTH.identifier);
export const checkName = (value: unknown, argument = "datapoint"): string =>
  identifier(value, argument, MAX_LENGTH.name);

export function checkYear(value: unknown, argument = "year", example = 2023): number {
  const problem = fiscalYearProblem(value, argument, example);
  if (problem !== undefined) throw new InvalidArgumentError({ argument: argument, message: problem });
  return value as number;
}

/** The message of a year that is neither a fiscal year nor a relative period. */
export const yearOrRelativeProblem = (value: unknown, argument = "year", example = 2023): string =>
  `${argument} must be a fiscal year such as ${example} or a relative period: ${RELATIVE_GRAMMAR} (got ${describe(value)}).`;

/** The relative period a year argument names (parsed, or text in the grammar), or undefined for a number. */
export function relativeYear(value: unknown, argument = "year"): RelativePeriod | undefined {
  if (isRelativePeriod(value)) return value;
  if (typeof value !== "string") return undefined;
  const parsed = parseRelativePeriod(value);
  if (!parsed) throw new InvalidArgumentError({ argument, message: yearOrRelativeProblem(value, argument) });
  return parsed;
}

export interface RelativeTarget {
  dataset: Dataset;
  ticker: string;
  /** The datapoint (undefined for a whole dataset). */
  name: string | undefined;
  relative: RelativePeriod;
  /** The quarter or ttm argument (FY only). */
  within: Period;
}

/** Whether a call's year is a relative period (or text, which is read as one or refused with the grammar). */
export const isRelativeCall = (req: DatapointRequest | DatasetRequest): boolean =>
  typeof req.year === "string" || isRelativePeriod(req.year);

/** A datapoint or dataset request whose year is a relative period, checked in the functions' order. */
export function checkRelativeRequest(req: DatapointRequest | DatasetRequest): RelativeTarget | undefined {
  if (!isRelativeCall(req)) return undefined;
  const ticker = checkTicker(req.ticker);
  const dataset = checkDataset(req.dataset);
  let name: string | undefined;
  if ("name" in req) {
    name = checkName(req.name, "name");
    checkInCatalog(dataset, name, req.name);
  }
  const relative = relativeYear(req.year)!;
  const within = checkPeriod(req.quarter, req.ttm);
  const conflict = relativeConflict(relative, within);
  if (conflict) throw new InvalidArgumentError({ argument: within.kind, message: conflict });
  return { dataset, ticker, name, relative, within };
}

/** A year that must be fixed here (a relative one is resolved before): text outside the grammar says the grammar. */
function checkFixedYear(value: unknown): number {
  if (typeof value === "boolean") {
    throw new InvalidArgumentError({ argument: "year", message: yearOrRelativeProblem(value) });
  }
  if (typeof value === "string" || isRelativePeriod(value)) {
    relativeYear(value);
    throw new InvalidArgumentError({
      argument: "year",
      message: "year must be resolved before it is requested.",
    });
  }
  return checkYear(value);
}

const absent = (v: unknown): boolean => v === undefined || v === null;

export function checkPeriod(quarter: unknown, ttm: unknown): Period {
  const period = periodOfArgs(quarter, ttm);
  if ("problem" in period)
    throw new InvalidArgumentError({ argument: period.argument, message: period.problem });
  return period;
}

const DATASET_MEMO = new Map<string, Dataset>();
const DATASET_NAMES = DATASETS.map((d) => d.path).join(", ");

export function checkDataset(ref: unknown): Dataset {
  if (typeof ref !== "string" || ref.trim() === "") {
    throw new InvalidArgumentError({
      argument: "dataset",
      message: `dataset must be non-empty text (got ${describe(ref)}).`,
    });
  }
  {
    const memo = DATASET_MEMO.get(ref);
    if (memo) return memo;
    const found = findDataset(ref);
    if (found) {
      if (DATASET_MEMO.size < 1000) DATASET_MEMO.set(ref, found);
      return found;
    }
  }
  const near = nearestDatasets(ref);
  const meant = near.length > 0 ? ` Did you mean ${orList(near)}?` : "";
  throw new InvalidArgumentError({
    argument: "dataset",
    message: `dataset ${describe(ref)} is not known.${meant} Use one of: ${DATASET_NAMES}.`,
  });
}

/** Checked in the functions' argument order, so a cell names its first wrong argument. */
export function checkDatasetRequest(req: DatasetRequest): DatasetTarget {
  const ticker = checkTicker(req.ticker);
  const dataset = checkDataset(req.dataset);
  return { dataset, ticker, year: checkFixedYear(req.year), period: checkPeriod(req.quarter, req.ttm) };
}

/**
 * A name a complete catalog does not list is refused before any request, naming the argument, with the
 * datasets that list it or the nearest names ("Did you mean ROIC?"); a cut-off catalog (`notShown`) cannot say,
 * so the service is asked.
 */
function checkInCatalog(dataset: Dataset, name: string, given: unknown): void {
  if (dataset.notShown || findDatapoint(dataset, name)) return;
  throw new InvalidArgumentError({
    argument: "name",
    message: unknownDatapointText(dataset, name, describe(typeof given === "string" ? given.trim() : given)),
  });
}

/**
 * The tickers and the (dataset, datapoint) pairs of datapoint calls checked lately, by the arguments as given:
 * a worksheet's cells repeat a few of each (W1's 22,500 cells: 1,500 requests of fifteen names each), and checking
 * one again (trimming and upper-casing the text, the catalog's look-ups) costs more than finding it here. The
 * checks are pure functions of the texts over a catalog fixed at build time, and what is kept are strings and
 * catalog entries, never changed. Only passed checks are kept: a refused argument is checked afresh, in the
 * functions' order, and throws its own error. Bounded: past CHECKED_KEPT entries each map is dropped.
 */
const checkedTickers = new Map<string, string>();
const checkedNames = new Map<string, Map<string, { dataset: Dataset; name: string }>>();
let checkedNamesHeld = 0;
const CHECKED_KEPT = 20_000;

function knownTicker(given: unknown): string {
  if (typeof given !== "string") return checkTicker(given);
  let ticker = checkedTickers.get(given);
  if (ticker === undefined) {
    ticker = checkTicker(given);
    if (checkedTickers.size >= CHECKED_KEPT) checkedTickers.clear();
    checkedTickers.set(given, ticker);
  }
  return ticker;
}

function knownName(req: DatapointRequest): { dataset: Dataset; name: string } {
  const given = req.dataset;
  if (typeof given !== "string" || typeof req.name !== "string") return checkedName(req);
  let byName = checkedNames.get(given);
  let found = byName?.get(req.name);
  if (found === undefined) {
    found = checkedName(req);
    if (checkedNamesHeld >= CHECKED_KEPT) {
      checkedNames.clear();
      checkedNamesHeld = 0;
      byName = undefined;
    }
    if (!byName) checkedNames.set(given, (byName = new Map()));
    byName.set(req.name, found);
    checkedNamesHeld++;
  }
  return found;
}

function checkedName(req: DatapointRequest): { dataset: Dataset; name: string } {
  const dataset = checkDataset(req.dataset);
  const name = checkName(req.name, "name");
  checkInCatalog(dataset, name, req.name);
  return { dataset, name };
}

export function checkDatapointRequest(req: DatapointRequest): DatapointTarget {
  const ticker = knownTicker(req.ticker);
  const { dataset, name } = knownName(req);
  return { dataset, ticker, name, year: checkFixedYear(req.year), period: checkPeriod(req.quarter, req.ttm) };
}

export function checkSecurityType(type: unknown): SecurityType {
  const text = typeof type === "string" ? type.trim().toLowerCase() : "";
  if (!(SECURITY_TYPES as readonly string[]).includes(text)) throw new InvalidSecurityTypeError();
  return text as SecurityType;
}

export function checkSectorRequest(req: SectorRequest): SectorTarget {
  const id = checkTicker(req.id, "id");
  const name = checkName(req.name);
  let priorYear: number | undefined;
  if (!absent(req.priorYear)) {
    const p = req.priorYear;
    if (typeof p !== "number" || !Number.isInteger(p) || p < PRIOR_YEARS.first || p > PRIOR_YEARS.last)
      throw new InvalidPriorYearError();
    priorYear = p;
  }
  const entry = findSectorDatapoint(name);
  if (!entry) {
    const given = typeof req.name === "string" ? req.name.trim() : req.name;
    throw new InvalidArgumentError({
      argument: "datapoint",
      message: unknownSectorDatapointText(name, describe(given)),
    });
  }
  if (priorYear !== undefined && !entry.priorYears.includes(priorYear))
    throw new SectorDataPointNotFoundError();
  return { id, name, priorYear, entry };
}

/** A dataset request for the whole dataset: only datasets whose all-datapoints mode the spec documents. */
export function checkWholeDatasetRequest(req: DatasetRequest): DatasetTarget {
  const t = checkDatasetRequest(req);
  if (!t.dataset.allDatapointsMode) {
    throw new InvalidArgumentError({
      argument: "dataset",
      message: `dataset ${t.dataset.path} has no all-datapoints mode in the spec: ask for one datapoint at a time.`,
    });
  }
  return t;
}

// ---- The request a call names -------------------------------------------------------------------------------

/** The requests that can answer a checked datapoint call (its own, its dataset's whole one). */
export const datapointKeys = (t: DatapointTarget): DatapointKeys => new DatapointKeys(t);

/** A whole-dataset call's key, checked as the call checks it. */
export function datasetKey(request: DatasetRequest): DataKey {
  return dataKey(checkWholeDatasetRequest(request));
}

/** A sector call's key, with its checked target (whose catalog entry says whether the value is text). */
export function sectorCall(request: SectorRequest): { key: RequestKey; target: SectorTarget } {
  const target = checkSectorRequest(request);
  return { key: RequestKey.sector(target.id, target.name, target.priorYear), target };
}

/**
 * The key of the request a call's request makes alone, checked as the call checks it (throws its
 * InvalidArgumentError or DataPointNotFoundError).
 */
export function keyOfRequest(request: FdqRequest, billing: BillingModel): RequestKey {
  switch (request.kind) {
    case "datapoint":
      return aloneKey(datapointKeys(checkDatapointRequest(request.request)), billing);
    case "dataset":
      return datasetKey(request.request);
    case "sector":
      return sectorCall(request.request).key;
    default:
      return keyOfCall(request);
  }
}

/** The list of every datapoint's metadata (a call without arguments). */
export const datapointListKey = (): RequestKey => RequestKey.metadata();

/** The key of a call of the endpoints other than data and sector, checked as the call checks it. */
export function keyOfCall(
  request: Extract<FdqRequest, { kind: "ratings" | "coverage" | "security" | "info" }>,
): RequestKey {
  switch (request.kind) {
    case "ratings":
      return RequestKey.ratings(checkTicker(request.ticker));
    case "coverage":
      return RequestKey.coverage(checkSecurityType(request.type));
    case "security": {
      // The ticker is checked first, as FDQ.SECURITY always has (its error is the one a cell shows).
      const ticker = checkTicker(request.ticker);
      return RequestKey.security(checkSecurityType(request.type), ticker);
    }
    case "info":
      return RequestKey.metadata(checkName(request.name));
  }
}

// ---- Relative periods ---------------------------------------------------------------------------------------

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
export const asksLatest = (t: RelativeTarget): boolean =>
  t.relative.offset === 0 && (t.relative.basis !== "FY" || t.within.kind === "annual");

/** The period kind whose latest period a relative call waits for. */
export const searchKind = (t: RelativeTarget): PeriodKind => RESOLVED_KIND[t.relative.basis];

/**
 * What a probe asks for a relative call: its datapoint; for a whole dataset at the latest period the whole
 * dataset (the cell's own request), else its first catalog name (one unit).
 */
export function probeOf(t: RelativeTarget): ProbeTarget {
  const name = t.name ?? t.dataset.datapoints[0]?.name ?? "";
  return { dataset: t.dataset.path, name, ...(t.name === undefined && asksLatest(t) && { whole: true }) };
}

/** What a relative call's result says was resolved, and on which refresh day. */
export function resolvedOf(t: RelativeTarget, at: DatedPeriod, resolvedOn: string): ResolvedPeriod {
  return {
    text: relativeText(t.relative),
    year: at.year,
    period: at.period.n,
    periodtype: periodType(at.period),
    words: resolvedWords(t.relative, at),
    resolvedOn,
  };
}

/** The period a relative call names, once its ticker's latest period of the kind is known. */
export const periodOf = (t: RelativeTarget, latest: DatedPeriod): DatedPeriod =>
  applyRelative(t.relative, latest, t.within);

/**
 * The request with the period known today, or guessed, in place of its relative year; without a resolver
 * (a client that does not know its settings yet) guessed from the day alone.
 */
export function plannedRequest(resolver: PeriodResolver | undefined, request: FdqRequest): FdqRequest {
  if (request.kind !== "datapoint" && request.kind !== "dataset") return request;
  const t = checkRelativeRequest(request.request);
  if (!t) return request;
  const kind = searchKind(t);
  const latest = resolver
    ? resolver.guess(t.ticker, kind).latest
    : periodAtIndex(kind, clockGuess(kind, new RefreshDayClock(DEFAULTS.refreshDay).label(Date.now())));
  const at = periodOf(t, latest);
  return request.kind === "datapoint"
    ? { kind: "datapoint", request: fixedCall(request.request, at) }
    : { kind: "dataset", request: fixedCall(request.request, at) };
}

/** Which latest-period search a relative call waits for ("TICKER|kind"); undefined for a fixed period. */
export function searchOf(request: FdqRequest): string | undefined {
  if (request.kind !== "datapoint" && request.kind !== "dataset") return undefined;
  const t = checkRelativeRequest(request.request);
  return t && `${t.ticker}|${searchKind(t)}`;
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
    const kind = searchKind(t);
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
