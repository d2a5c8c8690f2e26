// Evaluates parsed FDQ calls the way one Excel recalculation does: every call is started before any is
// awaited, so the request module can coalesce them; each outcome is a value or an Excel error.
import { describeFailure, isNoAnswer, type ExcelErrorValue } from "./errors";
import type { FdqCall } from "./formula";
import { evaluateCall, type FdqApi, type FunctionResult } from "./impl";
import type { ValueOptions } from "./value-options";
import type {
  DatapointRecord,
  DatapointRequest,
  DatapointResult,
  DatasetRequest,
  DatasetResult,
  SectorRequest,
} from "../api";

export type CellResult = FunctionResult<ExcelErrorValue>;

/**
 * Where a value came from (`fdq eval --json`): the record's fiscal year and period, its filing type where
 * the dataset carries one, the refresh day of the answer, and what a relative period (FY0...) resolved to.
 * --json prints the fields in this order (src/cli/format.ts).
 */
export interface Provenance {
  readonly year: number;
  readonly period: number;
  readonly periodtype: string;
  readonly filingtype?: string;
  readonly refreshDay: string;
  /** "FY0 = fiscal 2025, resolved on refresh day 2026-11-24". */
  readonly resolved?: string;
}

/** A failure with `noAnswer` is no answer about the data (network, quota, key...: see NO_ANSWER). */
export type Outcome =
  | {
      readonly ok: true;
      readonly value: CellResult;
      /** With provenance: one per datapoint or dataset answer asked, in call order (null: that one failed). */
      readonly sources?: readonly (Provenance | null)[];
    }
  | { readonly ok: false; readonly error: ExcelErrorValue; readonly noAnswer: boolean };

const toCellError = (err: unknown): ExcelErrorValue => describeFailure(err);
// Module-level, not inline: one pair of callbacks for every cell instead of a new pair per cell.
const succeeded = (value: CellResult): Outcome => ({ ok: true, value });
const failed = (err: unknown): Outcome => ({
  ok: false,
  error: describeFailure(err),
  noAnswer: isNoAnswer(err),
});

function start(client: FdqApi, call: FdqCall, values?: ValueOptions): Promise<Outcome> {
  try {
    return evaluateCall(client, call, toCellError, values).then(succeeded, failed);
  } catch (err) {
    return Promise.resolve(failed(err));
  }
}

/** The filing type every record shares, or undefined when they differ. */
function sharedFiling(records: readonly DatapointRecord[]): string | undefined {
  const filing = records[0]?.filingtype;
  for (let i = 1; i < records.length; i++) if (records[i]!.filingtype !== filing) return undefined;
  return filing;
}

/**
 * Where one answer came from: `first` is its (first) record, `filingtype` the one its records share. Built
 * field by field, in the order --json prints them, without the spreads' temporary objects (one per cell).
 */
function provenanceOf(
  result: Pick<DatapointResult, "refreshDay" | "resolved">,
  first: DatapointRecord | undefined,
  filingtype: string | undefined,
): Provenance | null {
  if (!first) return null;
  const { year, period, periodtype } = first;
  const { refreshDay } = result;
  const p: { -readonly [K in keyof Provenance]: Provenance[K] } =
    filingtype === undefined
      ? { year, period, periodtype, refreshDay }
      : { year, period, periodtype, filingtype, refreshDay };
  if (result.resolved) {
    p.resolved = `${result.resolved.words}, resolved on refresh day ${result.resolved.resolvedOn}`;
  }
  return p;
}

/**
 * The client, noting where each datapoint and dataset answer of one call came from, in call order. A class,
 * not an object of closures: one object per cell instead of eight.
 */
class Noting implements FdqApi {
  constructor(
    private readonly client: FdqApi,
    /** null until that answer arrives, and where it fails. */
    readonly sources: (Provenance | null)[],
  ) {}

  datapoint(req: DatapointRequest): Promise<DatapointResult> {
    const i = this.sources.push(null) - 1;
    return this.client
      .datapoint(req)
      .then((r) => ((this.sources[i] = provenanceOf(r, r.record, r.record.filingtype)), r));
  }

  dataset(req: DatasetRequest): Promise<DatasetResult> {
    const i = this.sources.push(null) - 1;
    return this.client
      .dataset(req)
      .then((r) => ((this.sources[i] = provenanceOf(r, r.records[0], sharedFiling(r.records))), r));
  }

  datapointInfo(name: string): ReturnType<FdqApi["datapointInfo"]> {
    return this.client.datapointInfo(name);
  }

  coverageList(type: string): ReturnType<FdqApi["coverageList"]> {
    return this.client.coverageList(type);
  }

  security(type: string, ticker: string): ReturnType<FdqApi["security"]> {
    return this.client.security(type, ticker);
  }

  sector(req: SectorRequest): ReturnType<FdqApi["sector"]> {
    return this.client.sector(req);
  }

  ratings(ticker: string): ReturnType<FdqApi["ratings"]> {
    return this.client.ratings(ticker);
  }

  get plan(): FdqApi["plan"] {
    const { client } = this;
    return client.plan ? (request) => client.plan!(request) : undefined;
  }

  get previousValue(): FdqApi["previousValue"] {
    const { client } = this;
    return client.previousValue ? (url, name) => client.previousValue!(url, name) : undefined;
  }
}

function startNoting(client: FdqApi, call: FdqCall, values?: ValueOptions): Promise<Outcome> {
  const noting = new Noting(client, []);
  return start(noting, call, values).then((outcome) => {
    const { sources } = noting;
    if (!outcome.ok || sources.length === 0) return outcome;
    return { ok: true, value: outcome.value, sources };
  });
}

/** Calls started between two pauses of evaluateAll for the answered ones to settle. */
const SLICE = 500;
/** Microtask turns that settle a call answered from the cache (client, function, outcome, provenance). */
const SETTLE_TURNS = 12;

/**
 * Evaluates every call at once. With `provenance`, each value's outcome says where its answers came from
 * (one more object per call, so only `fdq eval --json` asks for it).
 *
 * After every SLICE calls it lets the microtask queue run a few turns, so that the calls the cache answered
 * settle and their intermediate objects die young, instead of every call's chain being alive at once (a
 * 22,500-cell warm run: about a sixth less CPU and a fifth fewer page faults, bench/README.md). Only
 * microtasks run in those pauses, no timer and no I/O, so to the request module every call is still started
 * before any coalescing window closes or any request is sent: it groups them exactly as if started together.
 */
export interface EvaluationOptions {
  /** Each outcome says where its answers came from (`fdq eval --json`). */
  readonly provenance?: boolean;
  /** How values return (numbers with their source, a card's metrics); default plain values. */
  readonly values?: ValueOptions | undefined;
}

export function evaluateAll(
  client: FdqApi,
  calls: readonly FdqCall[],
  options: EvaluationOptions = {},
): Promise<Outcome[]> {
  return evaluateEach(client, calls, options, keep);
}

const keep = (outcome: Outcome): Outcome => outcome;

/**
 * evaluateAll, with each outcome turned into what the caller keeps (`each(outcome, i)`, i the call's index)
 * as soon as it settles: `fdq eval` keeps the line it will print, so the outcome, its provenance and the
 * call's intermediate objects die young instead of all being alive until the last call settles. The results
 * are in call order; an `each` that throws rejects the whole.
 */
export async function evaluateEach<T>(
  client: FdqApi,
  calls: readonly FdqCall[],
  options: EvaluationOptions,
  each: (outcome: Outcome, index: number) => T,
): Promise<T[]> {
  const results = new Array<T>(calls.length);
  if (calls.length === 0) return results;
  let pending = calls.length;
  return new Promise<T[]>((resolve, reject) => {
    const settle = (outcome: Outcome, i: number): void => {
      try {
        results[i] = each(outcome, i);
      } catch (err) {
        reject(err);
        return;
      }
      if (--pending === 0) resolve(results);
    };
    void startAll(client, calls, options, settle).catch(reject);
  });
}

/** Starts every call, pausing every SLICE calls for the answered ones to settle (see evaluateAll). */
async function startAll(
  client: FdqApi,
  calls: readonly FdqCall[],
  options: EvaluationOptions,
  settle: (outcome: Outcome, i: number) => void,
): Promise<void> {
  for (let i = 0; i < calls.length; i++) {
    const call = calls[i]!;
    const started = options.provenance
      ? startNoting(client, call, options.values)
      : start(client, call, options.values);
    void started.then((outcome) => settle(outcome, i));
    if ((i + 1) % SLICE === 0) for (let turn = 0; turn < SETTLE_TURNS; turn++) await undefined;
  }
}

export function isErrorValue(value: unknown): value is ExcelErrorValue {
  return typeof value === "object" && value !== null && "error" in value && "message" in value;
}
