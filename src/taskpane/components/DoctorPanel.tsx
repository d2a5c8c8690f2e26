// "Formula doctor" (Workbook tab): the FDQ cells Excel no longer recognises (#NAME?), their count and a
// preview of each formula before and after, Repair (in batches, with progress) and Undo. The offer above the
// tabs (DoctorOffer) opens this panel.
import {
  Button,
  Card,
  MessageBar,
  MessageBarActions,
  MessageBarBody,
  MessageBarTitle,
  ProgressBar,
  Spinner,
  Text,
  makeStyles,
  tokens,
} from "@fluentui/react-components";
import { cellsAre, type DoctorFinding } from "../logic/formula-doctor";
import type { DoctorState } from "./useDoctor";

/** Cells shown in the preview; the count says how many there are in all. */
export const PREVIEW_CELLS = 5;

const useStyles = makeStyles({
  root: { display: "flex", flexDirection: "column", gap: tokens.spacingVerticalS },
  head: { display: "flex", gap: tokens.spacingHorizontalS, alignItems: "center" },
  list: {
    listStyle: "none",
    margin: 0,
    padding: 0,
    display: "flex",
    flexDirection: "column",
    gap: tokens.spacingVerticalXS,
  },
  formula: {
    fontFamily: tokens.fontFamilyMonospace,
    fontSize: tokens.fontSizeBase200,
    overflowWrap: "anywhere",
  },
  before: { color: tokens.colorPaletteRedForeground1 },
  actions: { display: "flex", gap: tokens.spacingHorizontalS, flexWrap: "wrap" },
});

function Preview({ findings }: { findings: readonly DoctorFinding[] }) {
  const styles = useStyles();
  return (
    <ul className={styles.list} aria-label="Cells the doctor repairs">
      {findings.slice(0, PREVIEW_CELLS).map((f) => (
        <li key={f.address} data-testid="doctor-preview">
          <Text weight="semibold" size={200}>
            {f.address}
          </Text>
          <div className={`${styles.formula} ${styles.before}`}>{f.before}</div>
          {f.after === f.before ? (
            <Text size={200}>entered again as it is</Text>
          ) : (
            // No break between the arrow and the formula it points to.
            <div className={styles.formula}>{`→\u00a0${f.after}`}</div>
          )}
        </li>
      ))}
      {findings.length > PREVIEW_CELLS && (
        <li>
          <Text size={200}>and {(findings.length - PREVIEW_CELLS).toLocaleString("en-US")} more</Text>
        </li>
      )}
    </ul>
  );
}

export function DoctorPanel({ doctor }: { doctor: DoctorState }) {
  const styles = useStyles();
  if (!doctor.available) return null;
  const { phase, findings, last, undoable } = doctor;
  const running = phase.kind === "running" ? phase : undefined;
  const busy = phase.kind !== "idle";
  return (
    <Card className={styles.root} aria-label="Formula doctor">
      <div className={styles.head}>
        <Text weight="semibold" style={{ flexGrow: 1 }}>
          Formula doctor
        </Text>
        {phase.kind === "checking" && <Spinner size="extra-tiny" />}
        <Button size="small" onClick={() => void doctor.check()} disabled={busy} data-testid="doctor-check">
          Check formulas
        </Button>
      </div>
      {doctor.error && <Text role="alert">{doctor.error}</Text>}
      {findings && !running && (
        <Text size={200} role="status" data-testid="doctor-count">
          {findings.length === 0
            ? "Excel recognises every FDQ formula."
            : `${cellsAre(findings.length)} not recognised by Excel (#NAME?). Repair enters each again as FDQ.…, its arguments untouched, as F2 and Enter would.`}
        </Text>
      )}
      {findings && findings.length > 0 && !running && <Preview findings={findings} />}
      {running && (
        <div data-testid="doctor-progress">
          <Text size={200}>
            {running.action === "repair" ? "Repairing" : "Undoing"} {running.done.toLocaleString("en-US")} of{" "}
            {running.total.toLocaleString("en-US")} cells…
          </Text>
          <ProgressBar value={running.total === 0 ? 1 : running.done / running.total} />
        </div>
      )}
      {last && !running && (
        <Text size={200} role="status" data-testid="doctor-summary">
          {last.action === "repair" ? "Repaired" : "Restored"} {last.run.done.length.toLocaleString("en-US")}{" "}
          {last.run.done.length === 1 ? "cell" : "cells"}
          {last.run.skipped.length > 0 ? `; left ${last.run.skipped.length.toLocaleString("en-US")}:` : "."}
        </Text>
      )}
      {last && !running && last.run.skipped.length > 0 && (
        <ul className={styles.list} aria-label="Cells left as they are">
          {last.run.skipped.slice(0, PREVIEW_CELLS).map((s) => (
            <li key={s.address} data-testid="doctor-skipped">
              <Text size={200}>
                <strong>{s.address}</strong> {s.reason}
              </Text>
            </li>
          ))}
        </ul>
      )}
      <div className={styles.actions}>
        {findings && findings.length > 0 && (
          <Button
            appearance="primary"
            size="small"
            onClick={() => void doctor.repair()}
            disabled={busy}
            data-testid="doctor-repair"
          >
            Repair {findings.length.toLocaleString("en-US")} {findings.length === 1 ? "cell" : "cells"}
          </Button>
        )}
        {undoable.length > 0 && (
          <Button size="small" onClick={() => void doctor.undo()} disabled={busy} data-testid="doctor-undo">
            Undo the repair
          </Button>
        )}
      </div>
    </Card>
  );
}

/** The start-up offer above the tabs: once per workbook, when it has cells Excel does not recognise. */
export function DoctorOffer({ doctor, onReview }: { doctor: DoctorState; onReview: () => void }) {
  if (doctor.offer === undefined) return null;
  return (
    <MessageBar intent="warning" layout="multiline" data-testid="doctor-offer">
      <MessageBarBody>
        <MessageBarTitle>Formula doctor</MessageBarTitle>
        {cellsAre(doctor.offer)} not recognised by Excel (#NAME?), as after a save without the add-in. The
        formula doctor can enter them again.
      </MessageBarBody>
      <MessageBarActions>
        <Button size="small" onClick={onReview} data-testid="doctor-review">
          Review
        </Button>
        <Button size="small" appearance="transparent" onClick={doctor.dismissOffer}>
          Not now
        </Button>
      </MessageBarActions>
    </MessageBar>
  );
}
