// "What changed": the change report of this workbook's last refreshes (kept, bounded, in the add-in's storage):
// counts by kind, the changes sorted by size (each with its cell, kind, period, old and new value and formula),
// and a click that selects the cell.
import {
  Badge,
  Button,
  Card,
  Field,
  Select,
  Text,
  makeStyles,
  tokens,
  type BadgeProps,
} from "@fluentui/react-components";
import { useEffect, useState } from "react";
import {
  CHANGE_KINDS,
  percentText,
  plainValue,
  type Change,
  type ChangeKind,
  type ReportValue,
} from "../../workbook/changes/changes";
import type { ChangeReport } from "../logic/change-history";
import { SCOPE_LABELS } from "../logic/scope-cells";
import { quoteSheetName } from "../office/a1";
import { useServices } from "../services";

const useStyles = makeStyles({
  root: { display: "flex", flexDirection: "column", gap: tokens.spacingVerticalS },
  counts: { display: "flex", flexWrap: "wrap", gap: tokens.spacingHorizontalXS },
  list: {
    listStyle: "none",
    margin: 0,
    padding: 0,
    display: "flex",
    flexDirection: "column",
    gap: tokens.spacingVerticalXXS,
  },
  item: {
    width: "100%",
    justifyContent: "flex-start",
    textAlign: "left",
    height: "auto",
    padding: tokens.spacingHorizontalS,
    fontWeight: tokens.fontWeightRegular,
  },
  itemText: {
    display: "flex",
    flexDirection: "column",
    gap: tokens.spacingVerticalXXS,
    minWidth: 0,
    width: "100%",
  },
  head: { display: "flex", gap: tokens.spacingHorizontalS, alignItems: "center", flexWrap: "wrap" },
  period: { color: tokens.colorNeutralForeground2, fontSize: tokens.fontSizeBase200 },
  pct: { marginLeft: "auto", fontVariantNumeric: "tabular-nums" },
  values: { fontVariantNumeric: "tabular-nums", overflowWrap: "anywhere" },
  formula: {
    color: tokens.colorNeutralForeground3,
    fontFamily: tokens.fontFamilyMonospace,
    fontSize: tokens.fontSizeBase100,
    overflowWrap: "anywhere",
  },
});

/** Rows shown before "Show all". */
const FIRST_SHOWN = 25;

const KIND_COLORS: Readonly<Record<ChangeKind, BadgeProps["color"]>> = {
  restated: "warning",
  "new period": "brand",
  "new value": "success",
  "now an error": "danger",
};

const number = new Intl.NumberFormat("en-US", { maximumFractionDigits: 6 });

/** A value as the list shows it: numbers grouped, text as text (never markup), empty as "(empty)". */
export function valueText(value: ReportValue): string {
  const plain = plainValue(value);
  if (plain === null) return "(empty)";
  if (typeof plain === "number") return number.format(plain);
  return typeof plain === "boolean" ? (plain ? "TRUE" : "FALSE") : plain;
}

function reportLabel(r: ChangeReport): string {
  const time = new Date(r.at).toLocaleString(undefined, { dateStyle: "short", timeStyle: "short" });
  return `${time}: ${SCOPE_LABELS[r.scope].toLowerCase()}${r.cancelled ? " (cancelled)" : ""}`;
}

function ChangeItem({ change, onSelect }: { change: Change; onSelect: (address: string) => void }) {
  const styles = useStyles();
  const address = `${quoteSheetName(change.sheet)}!${change.cell}`;
  return (
    <li>
      <Button
        className={styles.item}
        appearance="subtle"
        onClick={() => onSelect(address)}
        data-testid="change-item"
      >
        <span className={styles.itemText}>
          <span className={styles.head}>
            <strong data-testid="change-address">{address}</strong>
            <Badge color={KIND_COLORS[change.kind]} appearance="tint" size="small" data-testid="change-kind">
              {change.kind}
            </Badge>
            {change.period && (
              // The period the value is for (after the refresh): for a "new period", the one it rolled to.
              <span className={styles.period} data-testid="change-period">
                {change.period}
              </span>
            )}
            <span className={styles.pct} data-testid="change-pct">
              {percentText(change.relativeChange)}
            </span>
          </span>
          <span className={styles.values} data-testid="change-values">
            {valueText(change.old)} → {valueText(change.new)}
          </span>
          <span className={styles.formula}>{change.formula}</span>
        </span>
      </Button>
    </li>
  );
}

/** `version` changes after each refresh: the kept reports are read again. */
export function ChangesPanel({ version }: { version: number }) {
  const styles = useStyles();
  const { history, workbookId, workbook } = useServices();
  const [reports, setReports] = useState<ChangeReport[]>([]);
  const [chosen, setChosen] = useState(0);
  const [all, setAll] = useState(false);
  useEffect(() => {
    let live = true;
    void history.of(workbookId()).then((r) => {
      if (!live) return;
      setReports(r);
      setChosen(0);
      setAll(false);
    });
    return () => {
      live = false;
    };
  }, [history, workbookId, version]);

  const report = reports[chosen];
  if (!report) return null;
  const shown = all ? report.changes : report.changes.slice(0, FIRST_SHOWN);
  return (
    <Card className={styles.root} aria-label="What changed">
      <Text weight="semibold">What changed</Text>
      {reports.length > 1 && (
        <Field label="Refresh">
          <Select
            value={String(chosen)}
            data-testid="changes-report"
            onChange={(_, d) => {
              setChosen(Number(d.value));
              setAll(false);
            }}
          >
            {reports.map((r, i) => (
              <option key={r.at} value={String(i)}>
                {reportLabel(r)}
              </option>
            ))}
          </Select>
        </Field>
      )}
      <Text size={200} data-testid="changes-total">
        {report.total === 0
          ? `No value changed (${reportLabel(report)}).`
          : `${report.total} ${report.total === 1 ? "cell" : "cells"} changed (${reportLabel(report)}), biggest change first:`}
      </Text>
      {report.total > 0 && (
        <div className={styles.counts} data-testid="changes-counts">
          {CHANGE_KINDS.filter((k) => report.counts[k] > 0).map((k) => (
            <Badge key={k} color={KIND_COLORS[k]} appearance="filled" data-testid="changes-count">
              {`${report.counts[k]} ${k}`}
            </Badge>
          ))}
        </div>
      )}
      {shown.length > 0 && (
        <ul className={styles.list} aria-label="Changed cells">
          {shown.map((c) => (
            <ChangeItem
              key={`${c.sheet}!${c.cell}`}
              change={c}
              onSelect={(a) => void workbook.selectCell(a)}
            />
          ))}
        </ul>
      )}
      {!all && report.changes.length > FIRST_SHOWN && (
        <Button size="small" appearance="subtle" onClick={() => setAll(true)} data-testid="changes-more">
          Show all {report.changes.length}
        </Button>
      )}
      {report.changes.length < report.total && (
        <Text size={200}>
          The {report.changes.length} biggest of {report.total} changes are kept.
        </Text>
      )}
    </Card>
  );
}
