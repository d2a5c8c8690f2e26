// `fdq refresh` and relative periods (FY0, FQ-1, LTM): what each FDQ cell's relative period resolved to, before
// this refresh (the record the last refresh kept in the workbook: src/workbook/resolved-periods.ts) and now (the
// request module's answer says it: `resolved` of a datapoint or dataset result). The change report reads both
// sides ("new period" when they differ); the workbook gets the new records, in its own custom XML part, only
// when it has cells with a relative period (every other part is kept byte for byte, as the refresh keeps them).
import type { DatapointRequest, DatasetRequest, FdqRequest, ResolvedPeriod } from "../api";
import type { FdqApi } from "../functions/impl";
import { callsOf, periodsOf, requestId, resolvedLabel, resolvedPeriodsOf } from "../workbook/call-periods";
import { addressOfCell } from "../workbook/engine/references";
import { ownParts, replaceOwnParts, type OwnPart } from "../workbook/frozen-parts";
import type { FormulaCell, WorkbookModel } from "../workbook/model";
import type { CellResult } from "../workbook/recalculation";
import {
  mergeResolvedPeriods,
  parseResolvedPeriods,
  PERIODS_NAMESPACE,
  PERIODS_ROOT,
  periodsCellId,
  serializeResolvedPeriods,
  type ResolvedCellPeriods,
} from "../workbook/resolved-periods";
import type { CellWrites } from "../workbook/xlsx/cell-writes";
import { openPackage } from "../workbook/xlsx/package";
import { PackageEditor } from "../workbook/xlsx/structure";

const PERIODS_PART: OwnPart = { root: PERIODS_ROOT, namespace: PERIODS_NAMESPACE };

/** Notes what each relative request of the refresh resolved to, and on which refresh day. */
export class ResolutionRecorder {
  private readonly seen = new Map<string, { label: string; day: string }>();

  /** `client` noting the resolutions of its answers. */
  wrap(client: FdqApi): FdqApi {
    const note = (request: FdqRequest, r: { resolved?: ResolvedPeriod; refreshDay: string }): void => {
      if (r.resolved)
        this.seen.set(requestId(request), { label: resolvedLabel(r.resolved), day: r.refreshDay });
    };
    return {
      datapoint: (request: DatapointRequest) =>
        client.datapoint(request).then((r) => (note({ kind: "datapoint", request }, r), r)),
      dataset: (request: DatasetRequest) =>
        client.dataset(request).then((r) => (note({ kind: "dataset", request }, r), r)),
      datapointInfo: (name) => client.datapointInfo(name),
      coverageList: (type) => client.coverageList(type),
      security: (type, ticker) => client.security(type, ticker),
      sector: (request) => client.sector(request),
      ratings: (ticker) => client.ratings(ticker),
    };
  }

  label(request: FdqRequest): string | undefined {
    return this.seen.get(requestId(request))?.label;
  }

  day(request: FdqRequest): string | undefined {
    return this.seen.get(requestId(request))?.day;
  }

  get empty(): boolean {
    return this.seen.size === 0;
  }
}

/** The records the workbook holds (none without the part). */
export function readResolvedPeriods(editor: PackageEditor): ResolvedCellPeriods[] {
  return ownParts(editor, PERIODS_PART).flatMap((p) => parseResolvedPeriods(editor.text(p.item)));
}

/** An FDQ cell the refresh gave a value. */
export type RefreshedCell = Extract<CellResult, { kind: "value" }>;

/** A refreshed FDQ cell's period before and after the refresh. */
export interface CellPeriods {
  readonly before?: string;
  readonly after?: string;
}

export interface RefreshPeriods {
  /** Per FDQ cell given a value. */
  readonly cells: Map<FormulaCell, CellPeriods>;
  /** The records for the workbook after this refresh. */
  readonly records: ResolvedCellPeriods[];
}

/**
 * The periods of each FDQ cell the refresh gave a value: a fixed period from its calls' arguments with the
 * workbook's values and with the written ones (src/workbook/call-periods.ts); a relative one from the kept
 * record (before; unknown without one, or when the formula changed) and the request module's resolution (after).
 */
export async function refreshPeriods(
  results: readonly CellResult[],
  model: WorkbookModel,
  writes: CellWrites,
  previous: readonly ResolvedCellPeriods[],
  recorder: ResolutionRecorder,
  /**
   * Whether a fixed period's "before" is wanted for this cell: reading it evaluates the cell's arguments again
   * with the workbook's values, and the change report needs it only where the value changed (an equal value is
   * no change, whatever its period). By default, for every cell.
   */
  wantsBefore: (result: RefreshedCell) => boolean = () => true,
): Promise<RefreshPeriods> {
  const refreshed = results.filter((r): r is RefreshedCell => r.kind === "value" && r.callsFdq);
  const formulas = refreshed.map((r) => r.cell);
  const before = callsOf(
    model,
    refreshed.filter(wantsBefore).map((r) => r.cell),
  );
  const after = callsOf(model, formulas, writes);
  const kept = new Map(previous.map((r) => [periodsCellId(r), r]));
  const cells = new Map<FormulaCell, CellPeriods>();
  const updates: ResolvedCellPeriods[] = [];
  const days: string[] = [];
  const resolve = (request: FdqRequest): string | undefined => {
    const day = recorder.day(request);
    if (day !== undefined) days.push(day);
    return recorder.label(request);
  };
  for (const { cell } of refreshed) {
    const at = { sheet: cell.sheet, cell: addressOfCell(cell.row, cell.col) };
    const formula = `=${cell.formula}`;
    days.length = 0;
    const now = await resolvedPeriodsOf(after.get(cell) ?? [], resolve);
    let then: string | undefined;
    if (now.relative) {
      const record = kept.get(periodsCellId(at));
      then = record?.formula === formula ? record.periods : undefined;
      const day = days.sort().at(-1);
      if (now.periods !== undefined && day !== undefined)
        updates.push({ ...at, formula, periods: now.periods, day });
    } else then = await periodsOf(before.get(cell) ?? []);
    cells.set(cell, {
      ...(then !== undefined && { before: then }),
      ...(now.periods !== undefined && { after: now.periods }),
    });
  }
  const records = mergeResolvedPeriods(
    previous,
    refreshed.map(({ cell }) => ({ sheet: cell.sheet, cell: addressOfCell(cell.row, cell.col) })),
    updates,
  );
  return { cells, records };
}

const sameRecords = (a: readonly ResolvedCellPeriods[], b: readonly ResolvedCellPeriods[]): boolean =>
  serializeResolvedPeriods(a) === serializeResolvedPeriods(b);

/**
 * `bytes` (the refreshed package) with the records in their part; the same bytes when they did not change (a
 * workbook without relative periods has none, and gets no part). Answers the parts changed and added.
 */
export function withResolvedPeriods(
  bytes: Uint8Array,
  previous: readonly ResolvedCellPeriods[],
  records: readonly ResolvedCellPeriods[],
): { bytes: Uint8Array; changed: string[]; added: string[] } {
  if (sameRecords(previous, records)) return { bytes, changed: [], added: [] };
  const pkg = openPackage(bytes);
  const editor = new PackageEditor(pkg);
  replaceOwnParts(editor, PERIODS_PART, records.length > 0 ? [serializeResolvedPeriods(records)] : []);
  const written = editor.changedParts();
  return {
    bytes: editor.write(),
    changed: written.filter((p) => pkg.has(p)),
    added: written.filter((p) => !pkg.has(p)),
  };
}
