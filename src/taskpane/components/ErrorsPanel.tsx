// "Errors": the FDQ cells in error across the workbook; choosing one selects the cell.
import { Badge, Button, Card, Spinner, Text, makeStyles, tokens } from "@fluentui/react-components";
import { useState } from "react";
import { findErrorCells, type ErrorCell } from "../logic/error-cells";
import { useServices } from "../services";
import { messageOf } from "../logic/message";

const useStyles = makeStyles({
  root: { display: "flex", flexDirection: "column", gap: tokens.spacingVerticalS },
  list: {
    listStyle: "none",
    margin: 0,
    padding: 0,
    display: "flex",
    flexDirection: "column",
    gap: tokens.spacingVerticalXS,
  },
  item: {
    width: "100%",
    justifyContent: "flex-start",
    textAlign: "left",
    height: "auto",
    padding: tokens.spacingHorizontalS,
  },
  itemText: { display: "flex", flexDirection: "column", gap: tokens.spacingVerticalXXS, minWidth: 0 },
  head: { display: "flex", gap: tokens.spacingHorizontalS, alignItems: "center" },
  reason: { fontWeight: tokens.fontWeightRegular, overflowWrap: "anywhere" },
});

export function ErrorsPanel() {
  const styles = useStyles();
  const { workbook, api } = useServices();
  const [cells, setCells] = useState<readonly ErrorCell[]>();
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState("");

  const scan = async (): Promise<void> => {
    const client = await api.readyClient();
    if (!client) return setMessage("Save an API key under Connect first.");
    setBusy(true);
    setMessage("");
    try {
      setCells(await findErrorCells(await workbook.fdqCells(), { client, workbook }));
    } catch (err) {
      setMessage(messageOf(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Card className={styles.root} aria-label="Cells in error">
      <div className={styles.head}>
        <Text weight="semibold" style={{ flexGrow: 1 }}>
          Cells in error
        </Text>
        {busy && <Spinner size="extra-tiny" />}
        <Button size="small" onClick={scan} data-testid="errors-button">
          Find errors
        </Button>
      </div>
      {message && <Text role="alert">{message}</Text>}
      {cells && (
        <Text size={200} role="status" data-testid="errors-count">
          {cells.length === 0
            ? "No FDQ cell is in error."
            : `${cells.length} FDQ ${cells.length === 1 ? "cell is" : "cells are"} in error.`}
        </Text>
      )}
      {cells && cells.length > 0 && (
        <ul className={styles.list} aria-label="FDQ cells in error">
          {cells.map((c) => (
            <li key={c.address}>
              <Button
                className={styles.item}
                appearance="subtle"
                onClick={() => void workbook.selectCell(c.address)}
                data-testid="error-cell"
              >
                <span className={styles.itemText}>
                  <span className={styles.head}>
                    <strong>{c.address}</strong>
                    <Badge color="danger" appearance="tint" size="small">
                      {c.error}
                    </Badge>
                  </span>
                  <span className={styles.reason}>{c.reason}</span>
                </span>
              </Button>
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}
