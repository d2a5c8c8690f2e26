// "Status": requests today, cache hits, last refresh, the refresh day in use, and the month's quota: units
// used of the plan (its size editable), and when the service said "Limit Exceeded", until when; then how the
// account is billed and the quota saver, saved with the connection settings and applied to the client at once.
import {
  Button,
  Card,
  Input,
  MessageBar,
  MessageBarActions,
  MessageBarBody,
  MessageBarTitle,
  Radio,
  RadioGroup,
  Switch,
  Text,
  makeStyles,
  tokens,
} from "@fluentui/react-components";
import { useId, useState } from "react";
import type { BillingModel } from "../../api";
import { parsePlanUnits, type QuotaStanding } from "../logic/quota";
import { messageOf } from "../logic/message";
import { DEFAULT_KEEP_DAYS, keepDaysOf, parseKeepDays, saverRuleText } from "../logic/saver";
import { useServices } from "../services";
import type { QuotaSettingsControl } from "./useQuotaSettings";
import type { Usage } from "./useUsage";

const useStyles = makeStyles({
  root: { display: "flex", flexDirection: "column", gap: tokens.spacingVerticalXS },
  facts: {
    display: "grid",
    gridTemplateColumns: "auto 1fr",
    columnGap: tokens.spacingHorizontalM,
    rowGap: tokens.spacingVerticalXXS,
    margin: 0,
    "& dt": { color: tokens.colorNeutralForeground3 },
    "& dd": { margin: 0, minWidth: 0 },
  },
  plan: { display: "flex", alignItems: "center", gap: tokens.spacingHorizontalXS },
  planInput: { width: "7rem" },
  daysInput: { width: "3.5rem" },
  choices: { display: "flex", flexDirection: "column", gap: tokens.spacingVerticalXXS },
  note: { color: tokens.colorNeutralForeground3 },
});

function formatLastRefresh(usage: Usage): string {
  const last = usage.lastRefresh;
  if (!last) return "never";
  const time = new Date(last.at).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });
  return `${time} (refresh day ${last.day})`;
}

/** The plan size, saved in the pane's preferences as soon as it reads as a whole number of units. */
function PlanSize({ plan, onSaved }: { plan: number; onSaved: () => void }) {
  const styles = useStyles();
  const { prefs } = useServices();
  const [draft, setDraft] = useState<string>();
  const invalid = draft !== undefined && parsePlanUnits(draft) === undefined;
  return (
    <div className={styles.plan}>
      <Input
        size="small"
        className={styles.planInput}
        inputMode="numeric"
        aria-label="Monthly plan in units"
        aria-invalid={invalid}
        data-testid="plan-units"
        value={draft ?? String(plan)}
        onChange={(_, d) => {
          setDraft(d.value);
          const units = parsePlanUnits(d.value);
          if (units !== undefined) void prefs.setPlanUnits(units).then(onSaved);
        }}
        onBlur={() => !invalid && setDraft(undefined)}
      />
      <Text size={200}>{invalid ? "a whole number, at least 1" : "units"}</Text>
    </div>
  );
}

/** The service said "Limit Exceeded": until when, and the way out when the plan was raised. */
function Exhausted({ quota, onChanged }: { quota: QuotaStanding; onChanged: () => void }) {
  const { api } = useServices();
  const [error, setError] = useState("");
  const raised = async (): Promise<void> => {
    setError("");
    try {
      await api.client()?.planRaised();
      onChanged();
    } catch (err) {
      setError(messageOf(err));
    }
  };
  return (
    <MessageBar intent="error" layout="multiline" data-testid="quota-exhausted">
      <MessageBarBody>
        <MessageBarTitle>Monthly quota used up</MessageBarTitle>
        The service answered &quot;Limit Exceeded&quot;: no request is sent until the quota resets on{" "}
        {quota.resetsOn} (US Central). Cells keep their last values until they are recalculated.
        {error && ` ${error}`}
      </MessageBarBody>
      <MessageBarActions>
        <Button size="small" data-testid="plan-raised" onClick={() => void raised()}>
          My plan was raised
        </Button>
      </MessageBarActions>
    </MessageBar>
  );
}

const BILLING_LABELS: Readonly<Record<BillingModel, string>> = {
  "per-datapoint": "Per datapoint (the vendor's unit)",
  "per-request": "Per request (accounts billed per HTTP call)",
};

/** What one unit is, under the billing model. */
const UNIT_NOTES: Readonly<Record<BillingModel, string>> = {
  "per-datapoint":
    "One unit is one datapoint, for one security, for one period (a whole dataset: one per datapoint).",
  "per-request": "One unit is one request to the service, whatever it returns.",
};

/** Billing and the quota saver: each change is saved with the connection settings and applies at once. */
function QuotaChoices({ quota }: { quota: QuotaSettingsControl }) {
  const styles = useStyles();
  const s = quota.settings;
  const saverOn = s?.refreshPolicy.kind === "saver";
  /** The days typed while the saver is off, used when it is turned on. */
  const [offDays, setOffDays] = useState(DEFAULT_KEEP_DAYS);
  const [draft, setDraft] = useState<string>();
  const days = keepDaysOf(s?.refreshPolicy) ?? offDays;
  const invalid = draft !== undefined && parseKeepDays(draft) === undefined;
  const billingLabel = useId();
  return (
    <div className={styles.choices}>
      <Text weight="semibold" size={200} id={billingLabel}>
        Billing
      </Text>
      <RadioGroup
        aria-labelledby={billingLabel}
        value={s?.billing ?? "per-datapoint"}
        disabled={!s}
        data-testid="billing"
        onChange={(_, d) => void quota.save({ billing: d.value as BillingModel })}
      >
        {(Object.keys(BILLING_LABELS) as BillingModel[]).map((b) => (
          <Radio key={b} value={b} label={BILLING_LABELS[b]} data-testid={`billing-${b}`} />
        ))}
      </RadioGroup>
      <Switch
        checked={saverOn}
        disabled={!s}
        label="Quota saver"
        data-testid="saver-switch"
        onChange={(_, d) => {
          if (!d.checked) setOffDays(days);
          void quota.save({
            refreshPolicy: d.checked ? { kind: "saver", keepDays: days } : { kind: "strict" },
          });
        }}
      />
      <div className={styles.plan}>
        <Text size={200}>keep closed periods up to</Text>
        <Input
          size="small"
          className={styles.daysInput}
          inputMode="numeric"
          aria-label="Days the quota saver keeps closed periods"
          aria-invalid={invalid}
          disabled={!s}
          data-testid="saver-days"
          value={draft ?? String(days)}
          onChange={(_, d) => {
            setDraft(d.value);
            const n = parseKeepDays(d.value);
            if (n === undefined) return;
            if (saverOn) void quota.save({ refreshPolicy: { kind: "saver", keepDays: n } });
            else setOffDays(n);
          }}
          onBlur={() => !invalid && setDraft(undefined)}
        />
        <Text size={200}>{invalid ? "1 to 31 days" : "days"}</Text>
      </div>
      <Text size={200} className={styles.note} data-testid="saver-rule">
        {saverRuleText(days)}
      </Text>
      {quota.error && (
        <Text size={200} role="alert" data-testid="quota-settings-error">
          {quota.error}
        </Text>
      )}
    </div>
  );
}

export function StatusPanel({
  usage,
  quota,
  onChanged,
}: {
  usage: Usage;
  quota: QuotaSettingsControl;
  onChanged: () => void;
}) {
  const styles = useStyles();
  const q = usage.quota;
  return (
    <Card className={styles.root} aria-label="Status">
      <Text weight="semibold">Status</Text>
      <dl className={styles.facts} data-testid="status">
        <dt>Requests today</dt>
        <dd data-testid="status-requests">{usage.today.requests}</dd>
        <dt>Cache hits today</dt>
        <dd data-testid="status-hits">{usage.today.cacheHits}</dd>
        <dt>Last refresh</dt>
        <dd data-testid="status-last-refresh">{formatLastRefresh(usage)}</dd>
        <dt>Refresh day</dt>
        <dd data-testid="status-day">{usage.today.day}</dd>
        <dt>Units this month</dt>
        <dd data-testid="status-units">{q ? q.text : "no API key saved"}</dd>
        <dt>Monthly plan</dt>
        <dd>
          <PlanSize plan={usage.planUnits} onSaved={onChanged} />
        </dd>
      </dl>
      <Text size={200} className={styles.note}>
        {UNIT_NOTES[quota.settings?.billing ?? "per-datapoint"]} The service reports no usage: these are the
        units this add-in counted on this computer this month (US Central).
      </Text>
      {q?.exhausted && <Exhausted quota={q} onChanged={onChanged} />}
      <QuotaChoices quota={quota} />
    </Card>
  );
}
