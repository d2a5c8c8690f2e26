// `fdq refresh` and the request behind each FDQ cell: which service request answered it (its path, without the
// key), on which refresh day, and what a relative period (FY0, FQ-1, LTM) resolved to. All of it is noted while
// the refresh evaluates (the request module's answers say it: `url`, `refreshDay`, `resolved`), never derived
// later from a day cache, and kept in the workbook's own custom XML parts: what each relative period resolved to
// (src/workbook/refresh/resolved-periods.ts), which the next refresh reads as the "before" side of the change report
// ("new period" when a relative period moved), and every FDQ cell's sources (src/workbook/refresh/cell-sources.ts), from
// which `fdq freeze --share` names each value's request, period and refresh day on any machine, with or without
// a day cache. A cell's periods and a relative period's "before" follow the rules the task pane uses too
// (periodsOfRequests, keptPeriods).
import {
  DEFAULTS,
  RefreshDayClock,
  type DatapointRequest,
  type DatasetRequest,
  type FdqRequest,
  type ResolvedPeriod,
} from "../api";
import { isNoAnswer } from "../functions/errors";
import type { FdqCall } from "../functions/formula";
import type { FdqApi } from "../functions/impl";
import { requestsOf } from "../functions/requests";
import {
  callReader,
  isRelativeRequest,
  periodsOfRequests,
  requestId,
  requestPeriod,
  resolvedLabel,
} from "../workbook/changes/call-periods";
import {
  positionFree,
  mergeCellSources,
  parseCellSources,
  serializeCellSources,
  SOURCES_NAMESPACE,
  SOURCES_ROOT,
  type CellSourceRecord,
} from "../workbook/refresh/cell-sources";
import { addressOfCell } from "../workbook/engine/references";
import { ownParts, replaceOwnParts, type OwnPart } from "../workbook/own-parts";
import type { FormulaCell, WorkbookModel } from "../workbook/model";
import type { CellResult } from "../workbook/refresh/recalculation";
import {
  keptPeriods,
  mergeResolvedPeriods,
  parseResolvedPeriods,
  PERIODS_NAMESPACE,
  PERIODS_ROOT,
  periodsCellId,
  serializeResolvedPeriods,
  type ResolvedCellPeriods,
} from "../workbook/refresh/resolved-periods";
import type { CellWrites } from "../workbook/xlsx/patch";
import { openPackage } from "../workbook/xlsx/package";
import { PackageEditor } from "../workbook/xlsx/structure";

const PERIODS_PART: OwnPart = { root: PERIODS_ROOT, namespace: PERIODS_NAMESPACE };
const SOURCES_PART: OwnPart = { root: SOURCES_ROOT, namespace: SOURCES_NAMESPACE };

/** One answered request of the refresh. */
interface AnswerNote {
  /** "GET /metrics/roic/AAPL?datapoint=ROIC&year=2026": the request sent (or served from today's cache). */
  readonly source: string;
  /** The refresh day (YYYY-MM-DD) of the answer. */
  readonly day: string;
  /** A relative period's resolution: "FY2026" (label) and "FY0 = fiscal 2026" (words). */
  readonly resolved?: { readonly label: string; readonly words: string };
  /** The answer was "not found": the cell's value when no other request of it answered. */
  readonly notFound?: true;
}

/** Notes, while the refresh evaluates, which request answered each call, on which refresh day, resolved to what. */
export class ResolutionRecorder {
  private readonly seen = new Map<string, AnswerNote>();
  /** One string per distinct day and source: 50,000 cells of one day share one day string. */
  private readonly interned = new Map<string, string>();
  private latest: string | undefined;

  /**
   * `base`: the service's base URL, which a source is named without ("GET /metrics/..."); `pathOf`: the path a
   * request that failed was sent to (its error carries none), `today`: the refresh day of such an answer.
   */
  constructor(
    private readonly base = "",
    private readonly pathOf: (request: FdqRequest) => string | undefined = () => undefined,
    private readonly today: () => string = () => new RefreshDayClock(DEFAULTS.refreshDay).label(Date.now()),
  ) {}

  private intern(text: string): string {
    const known = this.interned.get(text);
    if (known !== undefined) return known;
    this.interned.set(text, text);
    return text;
  }

  private note(
    request: FdqRequest,
    r: { url: string; refreshDay: string; resolved?: ResolvedPeriod | undefined },
  ): void {
    const prefix = `${this.base.replace(/\/+$/, "")}/`;
    const path = this.base !== "" && r.url.startsWith(prefix) ? r.url.slice(prefix.length) : r.url;
    const day = this.intern(r.refreshDay);
    if (this.latest === undefined || day > this.latest) this.latest = day;
    this.seen.set(requestId(request), {
      source: this.intern(`GET /${path.replace(/^\//, "")}`),
      day,
      ...(r.resolved && { resolved: { label: resolvedLabel(r.resolved), words: r.resolved.words } }),
    });
  }

  /**
   * A request the service answered with an error about the data ("not found"): that answer is the cell's
   * value. (No answer at all, a network failure or the quota, leaves the cell its old value: nothing to note.
   * A relative period that failed resolved to nothing: its path is not known.)
   */
  private noteFailure(request: FdqRequest, err: unknown): void {
    if (isNoAnswer(err) || isRelativeRequest(request) || this.seen.has(requestId(request))) return;
    const path = this.pathOf(request);
    if (path === undefined) return;
    this.seen.set(requestId(request), {
      source: this.intern(`GET /${path.replace(/^\//, "")}`),
      day: this.intern(this.latest ?? this.today()),
      notFound: true,
    });
  }

  /** `client` noting its answers, and the requests answered "not found". */
  wrap(client: FdqApi): FdqApi {
    const noting = <T extends { url: string; refreshDay: string }>(
      request: FdqRequest,
      answer: () => Promise<T>,
    ): Promise<T> => {
      let started: Promise<T>;
      try {
        started = answer();
      } catch (err) {
        this.noteFailure(request, err);
        throw err;
      }
      return started.then(
        (r) => {
          this.note(request, r);
          return r;
        },
        (err: unknown) => {
          this.noteFailure(request, err);
          throw err;
        },
      );
    };
    return {
      datapoint: (request: DatapointRequest) =>
        noting({ kind: "datapoint", request }, () => client.datapoint(request)),
      dataset: (request: DatasetRequest) =>
        noting({ kind: "dataset", request }, () => client.dataset(request)),
      datapointInfo: (name) => noting({ kind: "info", name }, () => client.datapointInfo(name)),
      coverageList: (type) => noting({ kind: "coverage", type }, () => client.coverageList(type)),
      security: (type, ticker) =>
        noting({ kind: "security", type, ticker }, () => client.security(type, ticker)),
      sector: (request) => noting({ kind: "sector", request }, () => client.sector(request)),
      ratings: (ticker) => noting({ kind: "ratings", ticker }, () => client.ratings(ticker)),
    };
  }

  /** What a relative request resolved to ("FY2026"), if it was answered. */
  label(request: FdqRequest): string | undefined {
    return this.seen.get(requestId(request))?.resolved?.label;
  }

  answer(request: FdqRequest): AnswerNote | undefined {
    return this.seen.get(requestId(request));
  }
}

/** An FDQ cell the refresh gave a value. */
export type RefreshedCell = Extract<CellResult, { kind: "value" }>;

/** A period before and after the refresh ("FY2024", "Q3 FY2025", "; "-joined for several). */
export interface PeriodPair {
  readonly before?: string;
  readonly after?: string;
}

/** A refreshed FDQ cell's period before and after the refresh. */
export interface CellPeriods extends PeriodPair {
  /**
   * For a result of several cells whose values each come from a call or a request of their own (a lifted
   * range: one call per cell; a SERIES: one request per year), each value's period, row by row.
   */
  readonly values?: readonly PeriodPair[];
}

export interface RefreshPeriods {
  /** Per FDQ cell given a value. */
  readonly cells: Map<FormulaCell, CellPeriods>;
  /** The records for the workbook after this refresh: the relative periods' and every FDQ cell's sources. */
  readonly periods: ResolvedCellPeriods[];
  readonly sources: CellSourceRecord[];
}

async function requestsOfCalls(calls: readonly FdqCall[]): Promise<FdqRequest[][]> {
  const out: FdqRequest[][] = [];
  for (const call of calls) out.push(await requestsOf(call).catch(() => [] as FdqRequest[]));
  return out;
}

/**
 * The requests behind each value of a formula's result, when each value has its own: one group per call
 * for several calls (a lifted range, row by row, as the calls were made), one per request for a single call
 * of several requests (a SERIES, one per year). The caller uses them only when their count is the result's.
 */
function valueGroups(requests: readonly FdqRequest[][]): readonly FdqRequest[][] {
  if (requests.length !== 1) return requests;
  const only = requests[0] as FdqRequest[];
  return only.map((r) => [r]);
}

const distinct = (items: readonly (string | undefined)[]): string | undefined => {
  const seen: string[] = [];
  for (const item of items) if (item !== undefined && item !== "" && !seen.includes(item)) seen.push(item);
  return seen.length > 0 ? seen.join("; ") : undefined;
};

/** The periods `requests` ask (periodsOfRequests), the label alone. */
const periodsLabel = (
  requests: readonly FdqRequest[],
  resolved: (request: FdqRequest) => string | undefined,
): string | undefined => periodsOfRequests(requests, resolved).periods;

/**
 * The periods of each FDQ cell the refresh gave a value, and the records the workbook keeps of them. A
 * fixed period comes from its calls' arguments with the workbook's values and with the written ones
 * (src/workbook/changes/call-periods.ts); a relative one from the kept record (before; unknown without one, or when
 * the formula changed) and the request module's resolution (after). Each cell's sources record says the
 * requests that answered (a FDQ.SECURITY call: the one security type that did), their refresh day, and what the
 * cell asked, a relative period with what it resolved to ("FY0 = fiscal 2026").
 */
export async function refreshPeriods(
  results: readonly CellResult[],
  model: WorkbookModel,
  writes: CellWrites,
  previous: KeptRecords,
  recorder: ResolutionRecorder,
  /**
   * Whether a fixed period's "before" is wanted for this cell: reading it evaluates the cell's arguments again
   * with the workbook's values, and the change report needs it only where the value changed (an equal value is
   * no change, whatever its period). By default, for every cell.
   */
  wantsBefore: (result: RefreshedCell) => boolean = () => true,
  /** Whether each cell's periods are wanted (by the change report); the records are made either way. */
  reporting = true,
): Promise<RefreshPeriods> {
  const refreshed = results.filter((r): r is RefreshedCell => r.kind === "value" && r.callsFdq);
  // Read one cell at a time, so that only the current cell's calls are held.
  // The "before" reader (an index of the whole workbook) is made only when a cell wants it.
  let readBefore: ((cell: FormulaCell) => FdqCall[]) | undefined;
  const before = (cell: FormulaCell): FdqCall[] => (readBefore ??= callReader(model))(cell);
  const after = callReader(model, writes);
  const kept = new Map(previous.periods.map((r) => [periodsCellId(r), r]));
  const previousSources = previous.sources;
  const cells = new Map<FormulaCell, CellPeriods>();
  const updates: ResolvedCellPeriods[] = [];
  const sourceUpdates: CellSourceRecord[] = [];
  const resolved = (request: FdqRequest): string | undefined => recorder.label(request);
  for (const result of refreshed) {
    const { cell } = result;
    const at = { sheet: cell.sheet, cell: addressOfCell(cell.row, cell.col) };
    const formula = `=${cell.formula}`;
    const nowRequests = await requestsOfCalls(after(cell));
    const all = nowRequests.flat();
    const relative = all.some(isRelativeRequest);
    const now = periodsLabel(all, resolved);
    const thenCalls = wantsBefore(result) ? before(cell) : undefined;
    let then: string | undefined;
    let thenRequests: FdqRequest[][] | undefined;
    if (relative) {
      then = keptPeriods(kept, at, formula);
    } else if (thenCalls) {
      thenRequests = await requestsOfCalls(thenCalls);
      then = periodsLabel(thenRequests.flat(), () => undefined);
    }
    // Each value's own period, for a result of several cells (the change report compares every cell).
    let values: PeriodPair[] | undefined;
    const cellsOfResult = result.spill?.rows?.reduce((n, row) => n + row.length, 0) ?? 1;
    const groups = valueGroups(nowRequests);
    if (reporting && cellsOfResult > 1 && groups.length === cellsOfResult) {
      const thenGroups = thenRequests && valueGroups(thenRequests);
      values = groups.map((group, i) => {
        const after = periodsLabel(group, resolved);
        const thenGroup = thenGroups?.length === groups.length ? thenGroups[i] : undefined;
        const before = thenGroup && periodsLabel(thenGroup, () => undefined);
        return { ...(before !== undefined && { before }), ...(after !== undefined && { after }) };
      });
    }
    if (reporting)
      cells.set(cell, {
        ...(then !== undefined && { before: then }),
        ...(now !== undefined && { after: now }),
        ...(values && { values }),
      });
    // The record: the requests that answered, each call's own. A FDQ.SECURITY call tries the security types
    // in turn until one knows the ticker: only the type that answered is its source (the "not found" of the
    // others is no part of its value); every other call's "not found" is the value of its cell (a SERIES year
    // not published).
    const answered = nowRequests.flatMap((requests) => {
      const noted = requests.flatMap((r) => {
        const note = recorder.answer(r);
        return note ? [{ request: r, note }] : [];
      });
      const alternatives = requests.every((r) => r.kind === "security");
      const found = noted.filter(({ note }) => note.notFound === undefined);
      return alternatives && found.length > 0 ? found : noted;
    });
    const day = answered.reduce<string | undefined>(
      (latest, { note }) => (latest === undefined || note.day > latest ? note.day : latest),
      undefined,
    );
    if (day === undefined) continue;
    if (relative && now !== undefined) updates.push({ ...at, formula, periods: now, day });
    sourceUpdates.push({
      ...at,
      formula: positionFree(formula, at.cell),
      day,
      period:
        distinct(answered.map(({ request, note }) => note.resolved?.words ?? requestPeriod(request))) ?? "",
      sources: [...new Set(answered.map(({ note }) => note.source))],
    });
  }
  const touched = refreshed.map(({ cell }) => ({
    sheet: cell.sheet,
    cell: addressOfCell(cell.row, cell.col),
  }));
  return {
    cells,
    periods: mergeResolvedPeriods(previous.periods, touched, updates),
    sources: mergeCellSources(previousSources, touched, sourceUpdates),
  };
}

/** What the workbook keeps of its FDQ cells: the resolved periods and the sources (none without the parts). */
export interface KeptRecords {
  readonly periods: readonly ResolvedCellPeriods[];
  readonly sources: readonly CellSourceRecord[];
}

export function readKeptRecords(editor: PackageEditor): KeptRecords {
  return {
    periods: ownParts(editor, PERIODS_PART).flatMap((p) => parseResolvedPeriods(editor.text(p.item))),
    sources: ownParts(editor, SOURCES_PART).flatMap((p) => parseCellSources(editor.text(p.item))),
  };
}

/**
 * `bytes` (the refreshed package) with the records in their parts; the same bytes when they did not change (a
 * workbook without relative periods gets no periods part; one whose refresh gave no FDQ cell a value no
 * sources part). Answers the parts changed and added.
 */
export function withKeptRecords(
  bytes: Uint8Array,
  previous: KeptRecords,
  records: KeptRecords,
): { bytes: Uint8Array; changed: string[]; added: string[] } {
  const periods = serializeResolvedPeriods(records.periods);
  const sources = serializeCellSources(records.sources);
  const samePeriods = serializeResolvedPeriods(previous.periods) === periods;
  const sameSources = serializeCellSources(previous.sources) === sources;
  if (samePeriods && sameSources) return { bytes, changed: [], added: [] };
  const pkg = openPackage(bytes);
  const editor = new PackageEditor(pkg);
  if (!samePeriods) replaceOwnParts(editor, PERIODS_PART, records.periods.length > 0 ? [periods] : []);
  if (!sameSources) replaceOwnParts(editor, SOURCES_PART, records.sources.length > 0 ? [sources] : []);
  const written = editor.changedParts();
  return {
    bytes: editor.write(),
    changed: written.filter((p) => pkg.has(p)),
    added: written.filter((p) => !pkg.has(p)),
  };
}
