// "Calculation": the shared client's calls of the current recalculation, live (pending, from the cache,
// fetched, joined, failed by reason), the moment they all settled, and "Retry the failed ones" for
// transient failures (logic/call-health.ts). The counts are read from the request module every 300 ms
// while a call is pending and every second otherwise: a read of a few numbers, no request.
import { Badge, Button, Card, Text, makeStyles, tokens } from "@fluentui/react-components";
import { useEffect, useState } from "react";
import type { CallHealth } from "../../api";
import {
  HEALTH_POLL_MS,
  healthView,
  offersRetry,
  retryFailedCells,
  type HealthView,
} from "../logic/call-health";
import { messageOf } from "../logic/message";
import { useServices } from "../services";

const useStyles = makeStyles({
  root: { display: "flex", flexDirection: "column", gap: tokens.spacingVerticalS },
  head: { display: "flex", gap: tokens.spacingHorizontalS, alignItems: "center" },
  counts: {
    display: "grid",
    gridTemplateColumns: "1fr auto",
    columnGap: tokens.spacingHorizontalM,
    rowGap: tokens.spacingVerticalXXS,
    margin: 0,
  },
  value: { margin: 0, textAlign: "right", fontVariantNumeric: "tabular-nums" },
  failures: { listStyle: "none", margin: 0, padding: 0 },
});

/** The counts as read every `HEALTH_POLL_MS`; `read` answers undefined while there is no client. */
export function useCallHealth(read: () => CallHealth | undefined): HealthView {
  const [view, setView] = useState(() => healthView(read()));
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const tick = (): void => {
      const next = healthView(read());
      setView(next);
      timer = setTimeout(tick, next.state === "running" ? HEALTH_POLL_MS.pending : HEALTH_POLL_MS.idle);
    };
    tick();
    return () => clearTimeout(timer);
  }, [read]);
  return view;
}

const STATE_BADGE = {
  idle: { color: "informative", text: "Idle" },
  running: { color: "warning", text: "Calculating" },
  settled: { color: "success", text: "Settled" },
} as const;

export function HealthPanel({ read }: { read?: () => CallHealth | undefined }) {
  const styles = useStyles();
  const { api, workbook } = useServices();
  const [reader] = useState(() => read ?? (() => api.client()?.callHealth()));
  const view = useCallHealth(reader);
  const [message, setMessage] = useState("");
  const [busy, setBusy] = useState(false);

  const retry = async (): Promise<void> => {
    setBusy(true);
    setMessage("");
    try {
      const n = await retryFailedCells(workbook);
      setMessage(
        n === 0
          ? "No FDQ cell shows an error now."
          : `Asked Excel to calculate ${n} FDQ ${n === 1 ? "cell" : "cells"} in error again.`,
      );
    } catch (err) {
      setMessage(messageOf(err));
    } finally {
      setBusy(false);
    }
  };

  const badge = STATE_BADGE[view.state];
  const rows: [string, number, string][] = [
    ["Pending", view.pending, "health-pending"],
    ["From the cache", view.cached, "health-cached"],
    ["Fetched", view.fetched, "health-fetched"],
    ["Joined a request", view.joined, "health-joined"],
    ["Failed", view.failed, "health-failed"],
  ];
  return (
    <Card
      className={styles.root}
      aria-label="Calculation"
      data-testid="health-panel"
      data-settled-at={view.settledAt}
    >
      <div className={styles.head}>
        <Text weight="semibold" style={{ flexGrow: 1 }}>
          Calculation
        </Text>
        <Badge color={badge.color} appearance="tint" data-testid="health-state">
          {badge.text}
        </Badge>
      </div>
      <Text size={200} role="status" data-testid="health-summary">
        {view.summary}
      </Text>
      <dl className={styles.counts}>
        {rows.map(([label, n, id]) => (
          <div key={id} style={{ display: "contents" }}>
            <dt>{label}</dt>
            <dd className={styles.value} data-testid={id}>
              {n.toLocaleString("en-US")}
            </dd>
          </div>
        ))}
      </dl>
      {view.failures.length > 0 && (
        <ul className={styles.failures} aria-label="Failed calls by reason">
          {view.failures.map((f) => (
            <li key={f.reason} data-testid="health-failure">
              <Text size={200}>
                {f.count.toLocaleString("en-US")} {f.words}
                {f.retryable ? " (worth retrying)" : ""}
              </Text>
            </li>
          ))}
        </ul>
      )}
      {offersRetry(view) && (
        <Button size="small" onClick={retry} disabled={busy} data-testid="health-retry">
          Retry the failed ones ({view.retryable.toLocaleString("en-US")})
        </Button>
      )}
      {message && (
        <Text size={200} data-testid="health-message">
          {message}
        </Text>
      )}
    </Card>
  );
}
