// The formula doctor's state, shared by its panel (Workbook tab) and the offer above the tabs: the cells found,
// a repair or undo running (with its progress), the last run's outcome, and the repair's record for Undo. The
// offer: once per workbook (document settings), when the pane starts and the workbook has such cells.
import { useCallback, useEffect, useRef, useState } from "react";
import {
  findUnrecognised,
  repairCells,
  startupOffer,
  undoRepair,
  type DoctorFinding,
  type DoctorRun,
  type RepairedCell,
} from "../logic/formula-doctor";
import { messageOf } from "../logic/message";
import { useServices } from "../services";

export type DoctorPhase =
  | { readonly kind: "idle" }
  | { readonly kind: "checking" }
  | {
      readonly kind: "running";
      readonly action: "repair" | "undo";
      readonly done: number;
      readonly total: number;
    };

export interface DoctorState {
  /** Whether this workbook access has the doctor's reads and writes. */
  readonly available: boolean;
  readonly phase: DoctorPhase;
  /** The cells found by the last check (undefined before one). */
  readonly findings: readonly DoctorFinding[] | undefined;
  /** The last repair's or undo's outcome. */
  readonly last: { readonly action: "repair" | "undo"; readonly run: DoctorRun } | undefined;
  /** The cells the last repair changed, while Undo can put them back. */
  readonly undoable: readonly RepairedCell[];
  /** Shown above the tabs until reviewed or dismissed: the start-up offer's count. */
  readonly offer: number | undefined;
  readonly error: string;
  check(): Promise<void>;
  repair(): Promise<void>;
  undo(): Promise<void>;
  dismissOffer(): void;
}

export function useDoctor(): DoctorState {
  const { workbook, doctorOffers } = useServices();
  const available = workbook.fdqFormulaCells !== undefined && workbook.replaceFormulas !== undefined;
  const [phase, setPhase] = useState<DoctorPhase>({ kind: "idle" });
  const [findings, setFindings] = useState<readonly DoctorFinding[]>();
  const [last, setLast] = useState<DoctorState["last"]>();
  const [undoable, setUndoable] = useState<readonly RepairedCell[]>([]);
  const [offer, setOffer] = useState<number>();
  const [error, setError] = useState("");
  const busy = useRef(false);

  const read = useCallback(async (): Promise<DoctorFinding[]> => {
    const cells = (await workbook.fdqFormulaCells?.()) ?? [];
    return findUnrecognised(cells);
  }, [workbook]);

  // The start-up offer: once per workbook, and only when there is something to repair. Its answer is kept even
  // when React ran the effect twice (development's StrictMode): the second run finds the workbook offered.
  useEffect(() => {
    const cells = workbook.fdqFormulaCells;
    if (!available || !doctorOffers || !cells) return;
    startupOffer(doctorOffers, () => cells()).then(
      (found) => {
        if (!found) return;
        setFindings((now) => now ?? found);
        setOffer(found.length);
      },
      // The offer is a convenience: the panel's Check finds the same cells and says what failed.
      (err: unknown) => console.error("FDQ formula doctor: the start-up check failed", err),
    );
  }, [available, doctorOffers, workbook]);

  const guarded = useCallback(async (work: () => Promise<void>): Promise<void> => {
    if (busy.current) return;
    busy.current = true;
    setError("");
    try {
      await work();
    } catch (err) {
      setError(messageOf(err));
    } finally {
      busy.current = false;
      setPhase({ kind: "idle" });
    }
  }, []);

  const check = useCallback(
    () =>
      guarded(async () => {
        setPhase({ kind: "checking" });
        setLast(undefined);
        setFindings(await read());
      }),
    [guarded, read],
  );

  const write = workbook.replaceFormulas;
  const repair = useCallback(
    () =>
      guarded(async () => {
        if (!write || !findings || findings.length === 0) return;
        setOffer(undefined);
        const run = await repairCells(findings, write, (done, total) =>
          setPhase({ kind: "running", action: "repair", done, total }),
        );
        setLast({ action: "repair", run });
        setUndoable(run.done);
        setFindings(await read());
      }),
    [guarded, write, findings, read],
  );

  const undo = useCallback(
    () =>
      guarded(async () => {
        if (!write || undoable.length === 0) return;
        const run = await undoRepair(undoable, write, (done, total) =>
          setPhase({ kind: "running", action: "undo", done, total }),
        );
        setLast({ action: "undo", run });
        setUndoable([]);
        setFindings(await read());
      }),
    [guarded, write, undoable, read],
  );

  const dismissOffer = useCallback(() => setOffer(undefined), []);

  return { available, phase, findings, last, undoable, offer, error, check, repair, undo, dismissOffer };
}
