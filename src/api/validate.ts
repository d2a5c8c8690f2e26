// Argument checks made before any request. Each returns the normalised argument or throws the spec's
// error (name and message) where the spec has one, else InvalidArgumentError naming the argument.
import {
  DATASETS,
  fiscalYearProblem,
  PRIOR_YEARS,
  SECURITY_TYPES,
  findDatapoint,
  findDataset,
  findSectorDatapoint,
  isRelativePeriod,
  parseRelativePeriod,
  periodOfArgs,
  relativeConflict,
  RELATIVE_GRAMMAR,
  shown,
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
import type { DatapointRequest, DatasetRequest, SectorRequest } from "./types";

export interface DatasetTarget {
  dataset: Dataset;
  ticker: string;
  year: number;
  period: Period;
}

export interface DatapointTarget extends DatasetTarget {
  name: string;
}

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

export function checkDatapointRequest(req: DatapointRequest): DatapointTarget {
  const ticker = checkTicker(req.ticker);
  const dataset = checkDataset(req.dataset);
  const name = checkName(req.name, "name");
  checkInCatalog(dataset, name, req.name);
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
