// "Share as values": a copy of this workbook for a colleague without the add-in (a download on the web, a new
// workbook on the desktop): FDQ
// cells as values, their dependents intact, and a sheet "FDQ sources" listing each cell's formula, period,
// refresh day and source. This workbook is not changed.
import {
  Button,
  Card,
  Dialog,
  DialogActions,
  DialogBody,
  DialogContent,
  DialogSurface,
  DialogTitle,
  Text,
  makeStyles,
  tokens,
} from "@fluentui/react-components";
import { useState } from "react";
import { SOURCES_SHEET } from "../../workbook/share/fdq-sources";
import { messageOf } from "../logic/message";
import { copyName, planShare, shareAsValues, type SharePlan } from "../logic/share-copy";
import { useServices } from "../services";

const useStyles = makeStyles({
  root: { display: "flex", flexDirection: "column", gap: tokens.spacingVerticalS },
  preview: {
    width: "100%",
    borderCollapse: "collapse",
    fontSize: tokens.fontSizeBase100,
    "& th, & td": {
      textAlign: "left",
      padding: `${tokens.spacingVerticalXXS} ${tokens.spacingHorizontalXXS}`,
      borderBottom: `1px solid ${tokens.colorNeutralStroke2}`,
      verticalAlign: "top",
      overflowWrap: "anywhere",
    },
  },
});

/** Rows of the sources sheet previewed in the dialog. */
const PREVIEWED = 4;
/** The preview's columns: sheet, cell, period, refresh day (the formula and source are long for 320 px). */
const PREVIEW_COLUMNS = [0, 1, 4, 5];

export function SharePanel() {
  const styles = useStyles();
  const { workbook, api, shareWriter, workbookId } = useServices();
  const [plan, setPlan] = useState<SharePlan>();
  /** The plan the dialog shows, kept while it fades out. */
  const [shown, setShown] = useState<SharePlan>();
  const [message, setMessage] = useState("");
  const [busy, setBusy] = useState(false);

  const ask = async (): Promise<void> => {
    setMessage("");
    setBusy(true);
    try {
      const next = await planShare(workbook, await api.readyClient());
      if (next.cells.length === 0) setMessage("This workbook has no FDQ formulas: share it as it is.");
      else {
        setShown(next);
        setPlan(next);
      }
    } catch (err) {
      setMessage(messageOf(err));
    } finally {
      setBusy(false);
    }
  };

  const share = async (): Promise<void> => {
    const chosen = plan;
    setPlan(undefined);
    if (!chosen) return;
    if (!shareWriter) {
      setMessage(
        "This build of the add-in cannot write the copy yet (its workbook package writer is missing). " +
          "Meanwhile: save a copy of the workbook, open it, and freeze its sheets.",
      );
      return;
    }
    setBusy(true);
    try {
      const name = copyName(workbookId());
      const handed = await shareAsValues(chosen, workbook, shareWriter, name);
      const n = chosen.cells.length;
      const what = `${n} FDQ ${n === 1 ? "cell" : "cells"} as values and the sheet "${SOURCES_SHEET}"`;
      setMessage(
        handed === "downloaded"
          ? `Downloaded "${name}": ${what}. This workbook is unchanged.`
          : `The copy opened as a new workbook: ${what}. Save it where you like; this workbook is unchanged.`,
      );
    } catch (err) {
      setMessage(messageOf(err));
    } finally {
      setBusy(false);
    }
  };

  const n = shown?.cells.length ?? 0;
  return (
    <Card className={styles.root} aria-label="Share as values">
      <Text weight="semibold">Share as values</Text>
      <Text size={200}>
        A copy for colleagues without the add-in: FDQ cells as values, formulas that use them intact, and a
        sheet listing where each number comes from.
      </Text>
      <Button onClick={() => void ask()} disabled={busy} data-testid="share-button">
        Share as values…
      </Button>
      {message && (
        <Text role="status" data-testid="share-message">
          {message}
        </Text>
      )}
      <Dialog open={plan !== undefined} onOpenChange={(_, d) => !d.open && setPlan(undefined)}>
        <DialogSurface data-testid="share-dialog">
          <DialogBody>
            <DialogTitle>
              Share {n} FDQ {n === 1 ? "cell" : "cells"} as values?
            </DialogTitle>
            <DialogContent>
              <Text as="p" block>
                A copy of this workbook (downloaded in Excel on the web, opened as a new workbook in Excel on
                the desktop), with the sheet &quot;{SOURCES_SHEET}&quot;:
              </Text>
              <table className={styles.preview} data-testid="share-preview">
                <thead>
                  <tr>
                    {PREVIEW_COLUMNS.map((i) => (
                      <th key={i}>{shown?.rows[0]?.[i]}</th>
                    ))}
                  </tr>
                </thead>
                <tbody>
                  {shown?.rows.slice(1, 1 + PREVIEWED).map((row, r) => (
                    <tr key={r} data-testid="share-preview-row">
                      {PREVIEW_COLUMNS.map((i) => (
                        <td key={i}>{String(row[i] ?? "")}</td>
                      ))}
                    </tr>
                  ))}
                </tbody>
              </table>
              {n > PREVIEWED && <Text size={200}>and {n - PREVIEWED} more.</Text>}
            </DialogContent>
            <DialogActions>
              <Button appearance="primary" onClick={() => void share()} data-testid="share-confirm">
                Make the copy
              </Button>
              <Button onClick={() => setPlan(undefined)}>Cancel</Button>
            </DialogActions>
          </DialogBody>
        </DialogSurface>
      </Dialog>
    </Card>
  );
}
