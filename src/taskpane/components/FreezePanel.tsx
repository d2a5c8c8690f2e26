// "Freeze": replaces the FDQ formulas in the selection with their current values, after a confirmation.
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
import { useServices } from "../services";
import { messageOf } from "../logic/message";

const useStyles = makeStyles({
  root: { display: "flex", flexDirection: "column", gap: tokens.spacingVerticalS },
});

export function FreezePanel() {
  const styles = useStyles();
  const { workbook } = useServices();
  const [pending, setPending] = useState<number>();
  const [message, setMessage] = useState("");

  const ask = async (): Promise<void> => {
    setMessage("");
    try {
      const cells = await workbook.selectedFdqCells();
      if (cells.length === 0) setMessage("The selection has no FDQ formulas.");
      else setPending(cells.length);
    } catch (err) {
      setMessage(messageOf(err));
    }
  };

  const freeze = async (): Promise<void> => {
    setPending(undefined);
    try {
      const n = await workbook.freezeSelection();
      setMessage(
        `Replaced ${n} FDQ ${n === 1 ? "formula" : "formulas"} with ${n === 1 ? "its value" : "their values"}.`,
      );
    } catch (err) {
      setMessage(messageOf(err));
    }
  };

  return (
    <Card className={styles.root} aria-label="Freeze values">
      <Text weight="semibold">Freeze values</Text>
      <Text size={200}>
        Replace the FDQ formulas in the selection with their current values, e.g. before sharing.
      </Text>
      <Button onClick={ask} data-testid="freeze-button">
        Freeze selection…
      </Button>
      {message && (
        <Text role="status" data-testid="freeze-message">
          {message}
        </Text>
      )}
      <Dialog open={pending !== undefined} onOpenChange={(_, d) => !d.open && setPending(undefined)}>
        <DialogSurface>
          <DialogBody>
            <DialogTitle>
              Freeze {pending} FDQ {pending === 1 ? "formula" : "formulas"}?
            </DialogTitle>
            <DialogContent>
              The formulas in the selection are replaced by their current values, which will no longer
              refresh. Text that starts with =, +, - or @ is written as text (with Excel&apos;s leading
              apostrophe), never as a formula.
            </DialogContent>
            <DialogActions>
              <Button appearance="primary" onClick={freeze} data-testid="freeze-confirm">
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
