// "Refresh": the cost before, progress during (n of m requests, errors so far) and a summary after.
import {
  Button,
  Card,
  Field,
  MessageBar,
  MessageBarBody,
  ProgressBar,
  Switch,
  Text,
  makeStyles,
  tokens,
} from "@fluentui/react-components";
import { useEffect, useState } from "react";
import { useServices } from "../services";
import type { RefreshControl } from "./useRefresh";

const useStyles = makeStyles({
  root: { display: "flex", flexDirection: "column", gap: tokens.spacingVerticalS },
  actions: { display: "flex", gap: tokens.spacingHorizontalS, flexWrap: "wrap" },
  list: { margin: 0, paddingLeft: tokens.spacingHorizontalL },
});

const plural = (n: number, one: string, many: string): string => `${n} ${n === 1 ? one : many}`;

/** Cells that cannot be planned listed by name; the rest are counted. */
const MAX_LISTED = 5;

function RefreshStatus({ control }: { control: RefreshControl }) {
  const styles = useStyles();
  const s = control.state;
  if (s.phase === "estimated") {
    const e = s.estimate;
    return (
      <ul className={styles.list} data-testid="refresh-estimate">
        <li data-testid="estimate-cells">{plural(e.cells, "FDQ cell found", "FDQ cells found")}</li>
        <li data-testid="estimate-requests">
          {plural(e.requestsNeeded, "request needed", "requests needed")}
          {e.otherRequests > 0
            ? `, plus up to ${e.otherRequests} for ratings, sector, coverage, security and info cells`
            : ""}
        </li>
        <li data-testid="estimate-cached">
          {e.cachedCells} of {e.cells} cells already cached
        </li>
        {e.unplanned.length > 0 && (
          <li data-testid="estimate-unplanned">
            {plural(e.unplanned.length, "cell cannot be planned", "cells cannot be planned")} (no request):
            <ul className={styles.list}>
              {e.unplanned.slice(0, MAX_LISTED).map((u) => (
                <li key={u.address} data-testid="estimate-unplanned-cell">
                  {u.address}: {u.reason}
                </li>
              ))}
              {e.unplanned.length > MAX_LISTED && (
                <li>and {e.unplanned.length - MAX_LISTED} more (see Cells in error)</li>
              )}
            </ul>
          </li>
        )}
        <li>
          A refresh drops today&apos;s cache and sends{" "}
          {e.plannedRequests + e.otherRequests === 1
            ? "its request"
            : `up to ${e.plannedRequests + e.otherRequests} requests`}{" "}
          again.
        </li>
      </ul>
    );
  }
  if (s.phase === "running") {
    const { done, total, errors } = s.progress;
    return (
      <Field
        label={`Refreshing (${s.reason})`}
        validationState="none"
        hint={
          <span data-testid="refresh-progress">
            {total === 0 && done === 0
              ? "Counting the requests…"
              : `${done} of ${total} requests, ${plural(errors, "error", "errors")} so far`}
          </span>
        }
      >
        <ProgressBar value={total > 0 ? Math.min(1, done / total) : undefined} />
      </Field>
    );
  }
  if (s.phase === "done") {
    const r = s.summary;
    return (
      <MessageBar
        layout="multiline"
        intent={r.errorCells > 0 ? "warning" : "success"}
        data-testid="refresh-summary"
      >
        <MessageBarBody>
          Refreshed {plural(r.cells, "FDQ cell", "FDQ cells")} ({s.reason}):{" "}
          {plural(r.requestsSent, "request", "requests")} sent,{" "}
          {plural(r.failedRequests, "failed request", "failed requests")},{" "}
          {plural(r.errorCells, "cell", "cells")} in error, in {(r.durationMs / 1000).toFixed(1)} s.
        </MessageBarBody>
      </MessageBar>
    );
  }
  if (s.phase === "error") {
    return (
      <MessageBar intent="error" layout="multiline">
        <MessageBarBody>{s.message}</MessageBarBody>
      </MessageBar>
    );
  }
  return null;
}

export function RefreshPanel({ control }: { control: RefreshControl }) {
  const styles = useStyles();
  const { prefs } = useServices();
  const [auto, setAuto] = useState(true);
  useEffect(() => {
    void prefs.autoRefresh().then(setAuto);
  }, [prefs]);
  const running = control.state.phase === "running";

  return (
    <Card className={styles.root} aria-label="Refresh">
      <Text weight="semibold">Refresh</Text>
      <div className={styles.actions}>
        <Button onClick={() => void control.estimate()} disabled={running} data-testid="estimate-button">
          Estimate cost
        </Button>
        <Button
          appearance="primary"
          onClick={() => void control.refresh("on request")}
          disabled={running}
          data-testid="refresh-button"
        >
          Refresh all FDQ cells
        </Button>
      </div>
      <RefreshStatus control={control} />
      <Switch
        checked={auto}
        label="Refresh when the workbook opens on a new refresh day"
        onChange={(_, d) => {
          setAuto(d.checked);
          void prefs.setAutoRefresh(d.checked);
        }}
      />
    </Card>
  );
}
