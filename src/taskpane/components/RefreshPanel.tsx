// "Refresh": a scope (the workbook, the active sheet, the selection, only cells in error, only cells from an
// older refresh day), the cost of that scope before (requests and quota units, and the month this workbook would
// use, with the quota saver proposed when that month exceeds the plan), a confirmation before a refresh that
// may spend more units than are left of the plan, progress during (cells done / pending / failed, requests,
// units so far, and a Cancel that stops new requests at once) and a summary after.
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
  MessageBar,
  MessageBarActions,
  MessageBarBody,
  ProgressBar,
  Select,
  Switch,
  Text,
  makeStyles,
  tokens,
} from "@fluentui/react-components";
import { useEffect, useState } from "react";
import {
  confirmText,
  neededText,
  projectMonthly,
  projectionText,
  readStanding,
  refreshNeedsConfirm,
  unitsText,
  type QuotaStanding,
} from "../logic/quota";
import type { RefreshEstimate } from "../logic/refresh-estimate";
import type { RefreshProgress } from "../logic/refresh-run";
import { REFRESH_SCOPES, SCOPE_LABELS, SCOPE_PHRASES, type RefreshScope } from "../logic/scope-cells";
import {
  keepDaysOf,
  monthlyWithSaver,
  proposalText,
  saverProposal,
  withSaverText,
  type SaverProposal,
} from "../logic/saver";
import { useServices } from "../services";
import type { QuotaSettingsControl } from "./useQuotaSettings";
import type { RefreshControl } from "./useRefresh";
import type { Usage } from "./useUsage";

const useStyles = makeStyles({
  root: { display: "flex", flexDirection: "column", gap: tokens.spacingVerticalS },
  actions: { display: "flex", gap: tokens.spacingHorizontalS, flexWrap: "wrap" },
  list: { margin: 0, paddingLeft: tokens.spacingHorizontalL },
  counts: {
    display: "grid",
    gridTemplateColumns: "repeat(3, 1fr)",
    gap: tokens.spacingHorizontalXS,
    textAlign: "center",
  },
  count: {
    display: "flex",
    flexDirection: "column",
    padding: tokens.spacingVerticalXXS,
    borderRadius: tokens.borderRadiusMedium,
    backgroundColor: tokens.colorNeutralBackground3,
  },
  number: { fontSize: tokens.fontSizeBase400, fontWeight: tokens.fontWeightSemibold },
});

const plural = (n: number, one: string, many: string): string => `${n} ${n === 1 ? one : many}`;

/** Cells that cannot be planned listed by name; the rest are counted. */
const MAX_LISTED = 5;

/** What is left of the plan for the projection: the month's standing, or the whole plan before it is known. */
function leftOf(usage: Usage): Pick<QuotaStanding, "left" | "plan"> {
  return usage.quota ?? { left: usage.planUnits, plan: usage.planUnits };
}

/** The projected month exceeds the plan and the saver is off: propose it, with the month it would bring. */
function SaverProposalBar({ proposal, quota }: { proposal: SaverProposal; quota: QuotaSettingsControl }) {
  const [saving, setSaving] = useState(false);
  const turnOn = async (): Promise<void> => {
    setSaving(true);
    try {
      await quota.save({ refreshPolicy: { kind: "saver", keepDays: proposal.keepDays } });
    } finally {
      setSaving(false);
    }
  };
  return (
    <MessageBar intent="warning" layout="multiline" data-testid="saver-proposal">
      <MessageBarBody data-testid="saver-proposal-text">{proposalText(proposal)}</MessageBarBody>
      <MessageBarActions>
        <Button size="small" disabled={saving} data-testid="saver-turn-on" onClick={() => void turnOn()}>
          Turn on the quota saver
        </Button>
      </MessageBarActions>
    </MessageBar>
  );
}

/** Cells done / pending / failed, requests, units so far, and the Cancel. */
function RunningRefresh({
  progress,
  reason,
  scope,
  onCancel,
}: {
  progress: RefreshProgress;
  reason: string;
  scope: RefreshScope;
  onCancel: () => void;
}) {
  const styles = useStyles();
  const { done, total, errors, cells, unitsSpent, cancelling } = progress;
  const fraction =
    cells && cells.total > 0
      ? (cells.done + cells.failed) / cells.total
      : total > 0
        ? done / total
        : undefined;
  return (
    <Field
      label={`Refreshing${SCOPE_PHRASES[scope] ? ` FDQ cells${SCOPE_PHRASES[scope]}` : ""} (${reason})`}
      validationState="none"
      hint={
        <span data-testid="refresh-progress">
          {progress.counting
            ? "Counting the requests…"
            : `${done} of ${total} requests, ${plural(errors, "error", "errors")} so far`}
        </span>
      }
    >
      <ProgressBar value={fraction === undefined ? undefined : Math.min(1, fraction)} />
      {cells && (
        <div className={styles.counts} data-testid="refresh-cells">
          <span className={styles.count}>
            <span className={styles.number} data-testid="cells-done">
              {cells.done}
            </span>
            done
          </span>
          <span className={styles.count}>
            <span className={styles.number} data-testid="cells-pending">
              {cells.pending}
            </span>
            pending
          </span>
          <span className={styles.count}>
            <span className={styles.number} data-testid="cells-failed">
              {cells.failed}
            </span>
            failed
          </span>
        </div>
      )}
      <Text size={200} data-testid="refresh-units">
        {unitsText(unitsSpent)} spent so far
      </Text>
      <Button size="small" disabled={cancelling} onClick={onCancel} data-testid="refresh-cancel">
        {cancelling ? "Cancelling: no new request is sent…" : "Cancel"}
      </Button>
    </Field>
  );
}

interface RefreshPanelProps {
  control: RefreshControl;
  usage: Usage;
  quota: QuotaSettingsControl;
}

function RefreshStatus({ control, usage, quota }: RefreshPanelProps) {
  const styles = useStyles();
  const s = control.state;
  if (s.phase === "estimated") {
    const e = s.estimate;
    const refreshCount = e.refreshRequests === 1 ? "its request" : `up to ${e.refreshRequests} requests`;
    const policy = quota.settings?.refreshPolicy;
    const keepDays = keepDaysOf(policy);
    // Nothing is proposed before the saved policy is read.
    const proposal =
      quota.settings &&
      saverProposal({
        perRefresh: e.refreshUnits,
        savableUnits: e.savableUnits,
        plan: leftOf(usage).plan,
        policy,
      });
    return (
      <>
        <ul className={styles.list} data-testid="refresh-estimate">
          <li data-testid="estimate-cells">{plural(e.cells, "FDQ cell found", "FDQ cells found")}</li>
          <li data-testid="estimate-requests">
            {neededText(e)}
            {e.otherRequests > 0
              ? `, plus up to ${e.otherRequests} for ratings, sector, coverage, security and info cells (${unitsText(e.otherUnits)})`
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
          <li data-testid="estimate-refresh">
            A refresh drops today&apos;s cache and sends {refreshCount} again: {e.upperBound ? "up to " : ""}
            {unitsText(e.refreshUnits)} of the monthly quota.
          </li>
          <li data-testid="estimate-projection">
            {projectionText(projectMonthly(e.refreshUnits, leftOf(usage)))}
          </li>
          {keepDays !== undefined && (
            <li data-testid="estimate-saver">
              {withSaverText(monthlyWithSaver(e.refreshUnits, e.savableUnits, keepDays), keepDays)}
            </li>
          )}
        </ul>
        {proposal && <SaverProposalBar proposal={proposal} quota={quota} />}
      </>
    );
  }
  if (s.phase === "running") {
    return (
      <RunningRefresh progress={s.progress} reason={s.reason} scope={s.scope} onCancel={control.cancel} />
    );
  }
  if (s.phase === "done") {
    const r = s.summary;
    return (
      <>
        <MessageBar
          layout="multiline"
          intent={r.errorCells > 0 ? "warning" : "success"}
          data-testid="refresh-summary"
        >
          <MessageBarBody>
            {r.cancelled ? "Refresh cancelled for" : "Refreshed"} {plural(r.cells, "FDQ cell", "FDQ cells")}
            {SCOPE_PHRASES[r.scope]} ({s.reason}): {plural(r.requestsSent, "request", "requests")} sent,{" "}
            {plural(r.failedRequests, "failed request", "failed requests")},{" "}
            {plural(r.errorCells, "cell", "cells")} in error, in {(r.durationMs / 1000).toFixed(1)} s.
          </MessageBarBody>
        </MessageBar>
        <Text size={200} data-testid="refresh-summary-units">
          {unitsText(r.unitsSpent)} spent.
          {r.cancelled &&
            ` Cancel stopped ${plural(r.cancelledRequests, "request", "requests")} before ${r.cancelledRequests === 1 ? "it was" : "they were"} sent: ${r.cancelledRequests === 1 ? "its cell shows" : "their cells show"} #N/A until refreshed again.`}
        </Text>
      </>
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

interface PendingRefresh {
  readonly estimate: RefreshEstimate;
  readonly standing: QuotaStanding;
}

export function RefreshPanel({ control, usage, quota }: RefreshPanelProps) {
  const styles = useStyles();
  const { prefs, api } = useServices();
  const [auto, setAuto] = useState(true);
  const [pending, setPending] = useState<PendingRefresh>();
  const [checking, setChecking] = useState(false);
  const [scope, setScope] = useState<RefreshScope>("workbook");
  useEffect(() => {
    void prefs.autoRefresh().then(setAuto);
  }, [prefs]);
  const running = control.state.phase === "running";

  /** Estimates first (sends nothing) and asks before a refresh that may spend more than is left of the plan. */
  const requestRefresh = async (): Promise<void> => {
    setChecking(true);
    try {
      const estimate = await control.estimate(scope);
      const client = estimate && (await api.readyClient());
      // Without a standing (no ledger) nothing is known to be over the plan: refresh without asking.
      const standing = client && (await readStanding(client, prefs).catch(() => undefined));
      if (estimate && standing && refreshNeedsConfirm(estimate.refreshUnits, standing)) {
        setPending({ estimate, standing });
        return;
      }
    } finally {
      setChecking(false);
    }
    await control.refresh("on request", scope);
  };

  return (
    <Card className={styles.root} aria-label="Refresh">
      <Text weight="semibold">Refresh</Text>
      <Field label="Cells to refresh">
        <Select
          value={scope}
          disabled={running}
          data-testid="refresh-scope"
          onChange={(_, d) => setScope(d.value as RefreshScope)}
        >
          {REFRESH_SCOPES.map((s) => (
            <option key={s} value={s}>
              {SCOPE_LABELS[s]}
            </option>
          ))}
        </Select>
      </Field>
      <div className={styles.actions}>
        <Button onClick={() => void control.estimate(scope)} disabled={running} data-testid="estimate-button">
          Estimate cost
        </Button>
        <Button
          appearance="primary"
          onClick={() => void requestRefresh()}
          disabled={running || checking}
          data-testid="refresh-button"
        >
          Refresh
        </Button>
      </div>
      <RefreshStatus control={control} usage={usage} quota={quota} />
      <Dialog
        open={pending !== undefined}
        modalType="alert"
        onOpenChange={(_, d) => !d.open && setPending(undefined)}
      >
        <DialogSurface data-testid="refresh-confirm">
          <DialogBody>
            <DialogTitle>Refresh beyond your plan?</DialogTitle>
            <DialogContent data-testid="refresh-confirm-text">
              {pending &&
                confirmText(pending.estimate.refreshUnits, pending.estimate.upperBound, pending.standing)}
            </DialogContent>
            <DialogActions>
              <Button
                appearance="primary"
                data-testid="refresh-confirm-yes"
                onClick={() => {
                  setPending(undefined);
                  void control.refresh("on request", scope);
                }}
              >
                Refresh anyway
              </Button>
              <Button data-testid="refresh-confirm-cancel" onClick={() => setPending(undefined)}>
                Cancel
              </Button>
            </DialogActions>
          </DialogBody>
        </DialogSurface>
      </Dialog>
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
