// "Freeze values": replaces the FDQ formulas of the selection or the active sheet with their current values,
// after a confirmation, keeping every formula inside the workbook; "Restore formulas" brings them back exactly
// (on any machine with the add-in), in the same scope or across the workbook.
import {
  Button,
  Card,
  Dialog,
  DialogActions,
  DialogBody,
  DialogContent,
  DialogSurface,
  DialogTitle,
  Field,
  Select,
  Text,
  makeStyles,
  tokens,
} from "@fluentui/react-components";
import { useCallback, useEffect, useState } from "react";
import { useServices } from "../services";
import { messageOf } from "../logic/message";
import { cellRequests, sourceOf } from "../logic/cell-requests";
import type { CellSnapshot, FreezeScope, RestoreOutcome } from "../office/workbook";

const useStyles = makeStyles({
  root: { display: "flex", flexDirection: "column", gap: tokens.spacingVerticalS },
  actions: { display: "flex", gap: tokens.spacingHorizontalS, flexWrap: "wrap" },
  list: { margin: 0, paddingLeft: tokens.spacingHorizontalL, overflowWrap: "anywhere" },
});

const SCOPES: Readonly<Record<FreezeScope, string>> = {
  selection: "The selection",
  sheet: "The active sheet",
};

const formulas = (n: number): string => `${n} FDQ ${n === 1 ? "formula" : "formulas"}`;

/** What a restore did, in a sentence. */
export function restoreText(outcome: RestoreOutcome): string {
  const n = outcome.restored.length;
  const done = n === 0 ? "No formula to restore." : `Restored ${n} ${n === 1 ? "formula" : "formulas"}.`;
  const left = outcome.skipped.length;
  if (left === 0) return done;
  return `${done} ${left === 1 ? "1 cell was left as it is" : `${left} cells were left as they are`}:`;
}

export function FreezePanel() {
  const styles = useStyles();
  const { workbook, api } = useServices();
  const [scope, setScope] = useState<FreezeScope>("selection");
  const [pending, setPending] = useState<CellSnapshot[]>();
  /** The count the dialog asks about, kept while it fades out. */
  const [asked, setAsked] = useState(0);
  const [message, setMessage] = useState("");
  const [skipped, setSkipped] = useState<RestoreOutcome["skipped"]>([]);
  const [kept, setKept] = useState<number>();

  const countKept = useCallback(() => {
    workbook.frozenFormulas().then(
      (cells) => setKept(cells.length),
      () => setKept(undefined),
    );
  }, [workbook]);
  useEffect(countKept, [countKept]);

  const ask = async (): Promise<void> => {
    setMessage("");
    setSkipped([]);
    try {
      const cells =
        scope === "sheet" ? await workbook.activeSheetFdqCells() : await workbook.selectedFdqCells();
      if (cells.length === 0) setMessage(`${SCOPES[scope]} has no FDQ formulas.`);
      else {
        setAsked(cells.length);
        setPending(cells);
      }
    } catch (err) {
      setMessage(messageOf(err));
    }
  };

  /** The refresh day of each cell's answers, where today's cache knows it (kept with the formula). */
  const refreshDays = async (cells: readonly CellSnapshot[]): Promise<Map<string, string>> => {
    const client = await api.readyClient();
    const days = new Map<string, string>();
    if (!client) return days;
    for (const { cell, requests } of await cellRequests(cells, workbook).catch(() => [])) {
      const day = sourceOf(requests, client).refreshDay;
      if (day) days.set(cell.address, day);
    }
    return days;
  };

  const freeze = async (): Promise<void> => {
    const cells = pending ?? [];
    setPending(undefined);
    try {
      const frozen = await workbook.freeze(scope, await refreshDays(cells));
      const n = frozen.length;
      setMessage(
        `Replaced ${formulas(n)} with ${n === 1 ? "its value" : "their values"}. The workbook keeps ` +
          `${n === 1 ? "the formula" : "the formulas"}: Restore formulas brings ${n === 1 ? "it" : "them"} back.`,
      );
    } catch (err) {
      setMessage(messageOf(err));
    }
    countKept();
  };

  const restore = async (where: FreezeScope | "workbook"): Promise<void> => {
    setMessage("");
    setSkipped([]);
    try {
      const outcome = await workbook.restoreFormulas(where);
      setMessage(restoreText(outcome));
      setSkipped(outcome.skipped);
    } catch (err) {
      setMessage(messageOf(err));
    }
    countKept();
  };

  return (
    <Card className={styles.root} aria-label="Freeze values">
      <Text weight="semibold">Freeze values</Text>
      <Text size={200}>
        Replace FDQ formulas with their current values, e.g. before sharing. The workbook keeps the formulas,
        so you can restore them, on any computer with the add-in.
      </Text>
      <Field label="Freeze or restore">
        <Select
          value={scope}
          data-testid="freeze-scope"
          onChange={(_, d) => setScope(d.value as FreezeScope)}
        >
          {(Object.keys(SCOPES) as FreezeScope[]).map((s) => (
            <option key={s} value={s}>
              {SCOPES[s]}
            </option>
          ))}
        </Select>
      </Field>
      <div className={styles.actions}>
        <Button onClick={() => void ask()} data-testid="freeze-button">
          Freeze…
        </Button>
        <Button onClick={() => void restore(scope)} data-testid="restore-button">
          Restore formulas
        </Button>
        {kept !== undefined && kept > 0 && (
          <Button
            appearance="subtle"
            onClick={() => void restore("workbook")}
            data-testid="restore-all-button"
          >
            Restore all {kept}
          </Button>
        )}
      </div>
      {kept !== undefined && (
        <Text size={200} data-testid="frozen-count">
          {kept === 0
            ? "No frozen formulas kept in this workbook."
            : `${formulas(kept)} kept in this workbook.`}
        </Text>
      )}
      {message && (
        <Text role="status" data-testid="freeze-message">
          {message}
        </Text>
      )}
      {skipped.length > 0 && (
        <ul className={styles.list} data-testid="restore-skipped">
          {skipped.map((s) => (
            <li key={s.address}>
              {s.address}: {s.reason}
            </li>
          ))}
        </ul>
      )}
      <Dialog open={pending !== undefined} onOpenChange={(_, d) => !d.open && setPending(undefined)}>
        <DialogSurface>
          <DialogBody>
            <DialogTitle>Freeze {formulas(asked)}?</DialogTitle>
            <DialogContent>
              The formulas are replaced by their current values, which will no longer refresh; the workbook
              keeps each formula for Restore formulas. Text that starts with =, +, - or @ is written as text
              (with Excel&apos;s leading apostrophe), never as a formula.
            </DialogContent>
            <DialogActions>
              <Button appearance="primary" onClick={() => void freeze()} data-testid="freeze-confirm">
                Freeze
              </Button>
              <Button onClick={() => setPending(undefined)}>Cancel</Button>
            </DialogActions>
          </DialogBody>
        </DialogSurface>
      </Dialog>
    </Card>
  );
}
