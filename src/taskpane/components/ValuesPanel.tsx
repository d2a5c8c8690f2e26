// "Values": how FDQ values come back, kept in OfficeRuntime.storage (functions/value-options.ts). Numbers that
// carry their source (off by default: other tools reading the workbook expect plain numbers), and the key metrics
// of FDQ.CARD, each priced per card per refresh day before it is added. Where this Excel cannot show data types
// (src/host/rich-value-support.ts) both are disabled and the pane says why; the functions return plain values.
import {
  Button,
  Card,
  Field,
  MessageBar,
  MessageBarBody,
  MessageBarTitle,
  Select,
  Switch,
  Text,
  makeStyles,
  tokens,
} from "@fluentui/react-components";
import { useCallback, useEffect, useMemo, useState } from "react";
import type { CatalogSearchIndex, SearchEntry } from "../../catalog/search";
import {
  DEFAULT_VALUE_OPTIONS,
  MAX_CARD_METRICS,
  loadValueOptions,
  saveValueOptions,
  type CardMetric,
  type ValueOptions,
} from "../../functions/value-options";
import {
  CARD_PERIODS,
  cardMetricsUnits,
  metricLabel,
  moveMetric,
  offerMetric,
  unitsPerCard,
  type MetricOffer,
} from "../logic/card-metrics";
import { forgetValueOptions } from "../../host/value-options-host";
import { messageOf } from "../logic/message";
import { recalculateForm } from "../logic/value-form";
import { useServices } from "../services";
import { DatapointSearch } from "./DatapointSearch";

const useStyles = makeStyles({
  root: { display: "flex", flexDirection: "column", gap: tokens.spacingVerticalS },
  list: { margin: 0, paddingLeft: tokens.spacingHorizontalL, display: "flex", flexDirection: "column" },
  item: { display: "flex", alignItems: "center", gap: tokens.spacingHorizontalXXS },
  move: { minWidth: "0", paddingLeft: tokens.spacingHorizontalXS, paddingRight: tokens.spacingHorizontalXS },
  label: { flexGrow: 1, minWidth: 0, overflowWrap: "anywhere", fontFamily: tokens.fontFamilyMonospace },
  actions: { display: "flex", gap: tokens.spacingHorizontalS, flexWrap: "wrap", alignItems: "flex-end" },
});

export interface ValuesPanelProps {
  /** The catalog search the card metrics are picked from. */
  readonly index: CatalogSearchIndex;
}

export function ValuesPanel({ index }: ValuesPanelProps) {
  const styles = useStyles();
  const services = useServices();
  const { platform, api } = services;
  const support = services.richValueSupport?.() ?? {
    supported: false,
    reason: "This pane was started without a host check: FDQ returns plain values.",
  };
  const disabled = !support.supported;
  const [options, setOptions] = useState<ValueOptions>();
  const [message, setMessage] = useState("");
  const [busy, setBusy] = useState(false);
  const [total, setTotal] = useState<number>();
  const [adding, setAdding] = useState(false);
  const [chosen, setChosen] = useState<SearchEntry>();
  const [period, setPeriod] = useState<string>(CARD_PERIODS[0]);
  const [offer, setOffer] = useState<MetricOffer>();

  useEffect(() => {
    let live = true;
    loadValueOptions(platform.storage).then(
      (o) => live && setOptions(o),
      () => live && setOptions(DEFAULT_VALUE_OPTIONS),
    );
    return () => {
      live = false;
    };
  }, [platform]);

  const metrics = options?.cardMetrics;
  // The price of the chosen metrics, per card per refresh day.
  useEffect(() => {
    if (!metrics) return;
    let live = true;
    void (async () => {
      const client = await api.readyClient();
      const units = client ? await cardMetricsUnits(client, metrics).catch(() => undefined) : undefined;
      if (live) setTotal(units);
    })();
    return () => {
      live = false;
    };
  }, [api, metrics]);

  // The price of the metric about to be added.
  const candidate = useMemo<CardMetric | undefined>(
    () => chosen && { dataset: chosen.dataset.path, name: chosen.datapoint.name, period },
    [chosen, period],
  );
  useEffect(() => {
    setOffer(undefined);
    if (!candidate || !metrics) return;
    let live = true;
    void (async () => {
      const client = await api.readyClient();
      const next: MetricOffer = client
        ? await offerMetric(client, metrics, candidate)
        : {
            ok: false,
            reason: "Connect to the service first: a metric's price depends on the account's billing.",
          };
      if (live) setOffer(next);
    })();
    return () => {
      live = false;
    };
  }, [api, metrics, candidate]);

  const save = useCallback(
    async (next: ValueOptions): Promise<boolean> => {
      try {
        await saveValueOptions(platform.storage, next);
        // The functions keep a reading of the options for a second (one recalculation's worth): the calculation
        // the pane starts next must read the new ones.
        forgetValueOptions();
        setOptions(next);
        return true;
      } catch (err) {
        setMessage(`Not saved: ${messageOf(err)}`);
        return false;
      }
    },
    [platform],
  );

  const switchSource = async (on: boolean): Promise<void> => {
    if (!options) return;
    setBusy(true);
    setMessage("");
    try {
      if (await save({ ...options, withSource: on })) {
        const client = await api.readyClient();
        setMessage(await recalculateForm({ client, workbook: services.workbook }, on));
      }
    } catch (err) {
      setMessage(`Saved, but the FDQ cells were not calculated again: ${messageOf(err)}`);
    } finally {
      setBusy(false);
    }
  };

  const setMetrics = async (next: CardMetric[], said: string): Promise<void> => {
    if (!options) return;
    if (await save({ ...options, cardMetrics: next })) {
      setMessage(
        `${said} Cards show the change when they are next calculated (a refresh, or the card entered again).`,
      );
    }
  };

  const add = async (): Promise<void> => {
    if (!offer?.ok) return;
    await setMetrics([...(metrics ?? []), offer.metric], `Added ${metricLabel(offer.metric)}.`);
    setChosen(undefined);
    setAdding(false);
  };

  return (
    <Card className={styles.root} aria-label="Values">
      <Text weight="semibold">Values</Text>
      {disabled && (
        <MessageBar layout="multiline" intent="info" data-testid="values-unavailable">
          <MessageBarBody>
            <MessageBarTitle>Not available in this Excel</MessageBarTitle>
            {support.reason}
          </MessageBarBody>
        </MessageBar>
      )}
      <Switch
        checked={options?.withSource ?? false}
        disabled={disabled || !options || busy}
        label="Numbers carry their source"
        data-testid="with-source"
        onChange={(_, d) => void switchSource(d.checked)}
      />
      <Text size={200} data-testid="with-source-help">
        FDQ.DATAPOINT, FDQ.SERIES, FDQ.SECTOR and FDQ.DATASET then return numbers that carry their source
        (ticker, dataset, datapoint, the period asked and the one found, the filing, the refresh day), shown
        on the value's card in Excel. Off by default: other tools that read the workbook's cells expect plain
        numbers.
      </Text>

      <Text weight="semibold">Card metrics</Text>
      <Text size={200}>
        FDQ.CARD shows a ticker&apos;s coverage and ratings and fetches nothing else, unless metrics are added
        here: each is fetched for every card on every new refresh day (at most {MAX_CARD_METRICS}).
      </Text>
      {metrics && metrics.length > 0 && (
        <ol className={styles.list} data-testid="card-metrics" aria-label="Card metrics">
          {metrics.map((m, i) => (
            <li key={`${m.dataset}|${m.name}|${m.period}`} data-testid="card-metric">
              <div className={styles.item}>
                <span className={styles.label} title={m.dataset}>
                  {metricLabel(m)}
                </span>
                <Button
                  className={styles.move}
                  size="small"
                  appearance="subtle"
                  disabled={disabled || i === 0}
                  aria-label={`Move ${metricLabel(m)} up`}
                  onClick={() => void setMetrics(moveMetric(metrics, i, -1), `Moved ${metricLabel(m)} up.`)}
                >
                  Up
                </Button>
                <Button
                  className={styles.move}
                  size="small"
                  appearance="subtle"
                  disabled={disabled || i === metrics.length - 1}
                  aria-label={`Move ${metricLabel(m)} down`}
                  onClick={() => void setMetrics(moveMetric(metrics, i, 1), `Moved ${metricLabel(m)} down.`)}
                >
                  Down
                </Button>
                <Button
                  className={styles.move}
                  size="small"
                  appearance="subtle"
                  disabled={disabled}
                  aria-label={`Remove ${metricLabel(m)}`}
                  onClick={() =>
                    void setMetrics(
                      metrics.filter((_, j) => j !== i),
                      `Removed ${metricLabel(m)}.`,
                    )
                  }
                >
                  Remove
                </Button>
              </div>
            </li>
          ))}
        </ol>
      )}
      <Text size={200} data-testid="card-metrics-total">
        {!metrics || metrics.length === 0
          ? "No metrics: cards fetch coverage and ratings only."
          : total === undefined
            ? `${metrics.length} ${metrics.length === 1 ? "metric" : "metrics"}.`
            : `${metrics.length} ${metrics.length === 1 ? "metric" : "metrics"}: ${unitsPerCard(total)}.`}
      </Text>
      {!adding ? (
        <div className={styles.actions}>
          <Button
            onClick={() => setAdding(true)}
            disabled={disabled || !metrics || metrics.length >= MAX_CARD_METRICS}
            data-testid="add-metric-open"
          >
            Add a metric…
          </Button>
        </div>
      ) : (
        <>
          <DatapointSearch index={index} onChoose={setChosen} />
          <div className={styles.actions}>
            <Field label="Period" size="small">
              <Select
                size="small"
                value={period}
                onChange={(_, d) => setPeriod(d.value)}
                data-testid="metric-period"
              >
                {CARD_PERIODS.map((p) => (
                  <option key={p} value={p}>
                    {p}
                  </option>
                ))}
              </Select>
            </Field>
            <Button
              appearance="primary"
              disabled={disabled || !offer?.ok}
              onClick={() => void add()}
              data-testid="add-metric"
            >
              {candidate ? `Add ${metricLabel(candidate)}` : "Add"}
            </Button>
            <Button
              onClick={() => {
                setAdding(false);
                setChosen(undefined);
              }}
            >
              Cancel
            </Button>
          </div>
          <Text size={200} role="status" data-testid="metric-price">
            {!candidate
              ? "Choose a datapoint above."
              : !offer
                ? "Pricing…"
                : offer.ok
                  ? `${metricLabel(offer.metric)} (${offer.metric.dataset}) adds ${unitsPerCard(offer.units)}; the card's metrics then cost ${unitsPerCard(offer.total)}.`
                  : offer.reason}
          </Text>
        </>
      )}
      {message && (
        <Text size={200} role="status" data-testid="values-message">
          {message}
        </Text>
      )}
    </Card>
  );
}
