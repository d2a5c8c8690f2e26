// "Explain this cell": follows the selection and tells what the cell's FDQ formula resolved to, where
// its value came from, the request it made and its price in quota units.
import { Button, Caption1, Card, Spinner, Text, tokens } from "@fluentui/react-components";
import { useCallback, useEffect, useState } from "react";
import { explainCell } from "../logic/explain";
import type { CallExplanation, Explanation, LiftedExplanation, SeriesYear } from "../logic/explanation";
import { keepDaysOf } from "../logic/saver";
import { useServices } from "../services";
import { messageOf } from "../logic/message";
import {
  DatapointFactsView,
  Fact,
  Inputs,
  PeriodFact,
  PriceFact,
  SourceAndRequest,
  keptFrom,
  useExplainStyles,
} from "./ExplainFacts";

function SeriesYears({ years }: { years: readonly SeriesYear[] }) {
  const styles = useExplainStyles();
  const cached = years.filter((y) => y.cached).length;
  return (
    <>
      <Fact term="Requests">
        <span data-testid="explain-series-summary">
          {years.length} {years.length === 1 ? "request" : "requests"}, one per fiscal year; {cached} cached
          today
        </span>
      </Fact>
      <Fact term="Years">
        <ul className={styles.inputs} data-testid="explain-series-years">
          {years.map((y) => (
            <li key={y.url}>
              {y.period}: {y.cached ? "cached" : "not cached"}
              {keptFrom(y.serving) && ` (kept by the quota saver, fetched on ${keptFrom(y.serving)})`}
              <Caption1 block className={styles.mono}>
                GET {y.url}
              </Caption1>
            </li>
          ))}
        </ul>
      </Fact>
    </>
  );
}

/** A call Excel lifts over a range: the count, the price of all its calls, then the first calls in detail. */
function LiftedView({ call }: { call: LiftedExplanation }) {
  const styles = useExplainStyles();
  const { cells, first } = call.noRequest;
  return (
    <>
      <Fact term="Calls">
        <span data-testid="explain-lifted">
          {call.summary}: Excel runs {call.functionName} once per cell of its ranges and spills the results
        </span>
      </Fact>
      {call.price && (
        <PriceFact price={call.price} note="All the calls together; equal requests are sent once." />
      )}
      {cells > 0 && (
        <Fact term="No request">
          <span data-testid="explain-lifted-no-request">
            {cells} {cells === 1 ? "cell shows" : "cells show"} an error without a request, first {first}
          </span>
        </Fact>
      )}
      {call.shown.map(({ address, call: one }) => (
        <Fact key={address} term={address}>
          <dl className={styles.facts} data-testid="explain-lifted-call">
            <CallView call={one} />
          </dl>
        </Fact>
      ))}
    </>
  );
}

function CallView({ call }: { call: CallExplanation }) {
  const styles = useExplainStyles();
  if (call.kind === "lifted") return <LiftedView call={call} />;
  if (call.kind === "unplanned") {
    return (
      <Fact term="Problem">
        <span data-testid="explain-problem">Cannot be planned: {call.reason}</span>
      </Fact>
    );
  }
  if (call.kind === "endpoint") {
    return (
      <>
        <Inputs inputs={call.inputs} />
        <Fact term="Asks for">
          <ul className={styles.inputs} data-testid="explain-asks">
            {call.asks.map((ask) => (
              <li key={ask}>{ask}</li>
            ))}
          </ul>
          <Caption1 className={styles.note}>
            Answers are kept for the refresh day: a cell that asks what another cell asked today gets it
            without a request.
          </Caption1>
        </Fact>
        <PriceFact
          price={call.price}
          note={
            call.price.upTo
              ? `${call.functionName} stops at the first type that knows the ticker.`
              : undefined
          }
        />
      </>
    );
  }
  if (call.kind === "dataset") {
    return (
      <>
        <Inputs inputs={call.inputs} />
        <Fact term="Ticker">{call.ticker}</Fact>
        <Fact term="Dataset">
          <span data-testid="explain-dataset">
            {call.dataset
              ? `${call.dataset.path} (${call.dataset.title})`
              : `Unknown dataset "${call.datasetArg}"`}
          </span>
        </Fact>
        <PeriodFact period={call.period} detail={call.periodDetail} />
        <SourceAndRequest
          source={call.source}
          serving={call.serving}
          request={call.request}
          priceNote="One unit per datapoint the dataset returns (priced at its catalog size before the answer)."
        />
      </>
    );
  }
  if (call.kind === "series") {
    return (
      <>
        <Inputs inputs={call.inputs} />
        <DatapointFactsView facts={call.facts} />
        {"invalid" in call.years ? (
          <Fact term="Request">
            <span data-testid="explain-url">No request: {call.years.invalid}</span>
          </Fact>
        ) : (
          <SeriesYears years={call.years} />
        )}
        {call.price && <PriceFact price={call.price} />}
      </>
    );
  }
  const record = call.source.kind === "cache" ? call.source.record : undefined;
  return (
    <>
      <Inputs inputs={call.inputs} />
      <DatapointFactsView facts={call.facts} record={record} />
      <PeriodFact period={call.period} detail={call.periodDetail} />
      {record && (
        <Fact term="Record">
          {record.periodtype} period {record.period}, FY{record.year}
          {record.filingtype ? `, filing ${record.filingtype}` : ""}; value text {record.datavalue}
        </Fact>
      )}
      {call.source.kind === "cache" && call.source.restatement && (
        <Fact term="Restated">
          <span data-testid="explain-restated">{call.source.restatement}</span>
        </Fact>
      )}
      <SourceAndRequest source={call.source} serving={call.serving} request={call.request} />
    </>
  );
}

function ExplanationView({ explanation }: { explanation: Explanation }) {
  const styles = useExplainStyles();
  const e = explanation;
  if (e.kind === "empty") return <Text>{e.address} is empty. Select a cell with an FDQ formula.</Text>;
  if (e.kind === "not-fdq") return <Text>{e.address} has no FDQ formula.</Text>;
  return (
    <div className={styles.root} data-testid="explanation">
      <dl className={styles.facts}>
        <Fact term="Cell">{e.address}</Fact>
        <Fact term="Formula">
          <span className={styles.mono}>{e.formula}</span>
        </Fact>
        <Fact term="Value">
          <span data-testid="explain-value">{String(e.value)}</span>
        </Fact>
      </dl>
      {e.calls.map((call, i) => (
        <section key={i} aria-label={`FDQ call ${i + 1}`} data-testid="explain-call">
          {e.calls.length > 1 && (
            <Text weight="semibold" block className={styles.mono}>
              {i + 1}. {call.text}
            </Text>
          )}
          <dl className={styles.facts}>
            <CallView call={call} />
          </dl>
        </section>
      ))}
    </div>
  );
}

export interface ExplainPanelProps {
  readonly describe: (name: string) => string;
}

export function ExplainPanel({ describe }: ExplainPanelProps) {
  const styles = useExplainStyles();
  const { workbook, platform, api } = useServices();
  const [explanation, setExplanation] = useState<Explanation>();
  const [error, setError] = useState("");
  const [busy, setBusy] = useState(false);

  const explain = useCallback(async () => {
    const client = await api.readyClient();
    setBusy(true);
    setError("");
    try {
      const cell = await workbook.selectedCell();
      if (!client) {
        setError("Save an API key under Connect first.");
        return;
      }
      const { refreshPolicy } = await api.loadQuotaSettings();
      setExplanation(
        await explainCell(cell, {
          client,
          workbook,
          describe,
          today: api.refreshDay(),
          ...(refreshPolicy.kind === "saver" && { keepDays: keepDaysOf(refreshPolicy) }),
        }),
      );
    } catch (err) {
      setError(messageOf(err));
    } finally {
      setBusy(false);
    }
  }, [api, workbook, describe]);

  useEffect(() => {
    void explain();
    return platform.onSelectionChanged(() => void explain());
  }, [platform, explain]);

  return (
    <Card className={styles.root} aria-label="Explain this cell">
      <div style={{ display: "flex", alignItems: "center", gap: tokens.spacingHorizontalS }}>
        <Text weight="semibold" style={{ flexGrow: 1 }}>
          Explain this cell
        </Text>
        {busy && <Spinner size="extra-tiny" />}
        <Button size="small" onClick={() => void explain()} data-testid="explain-button">
          Explain selected cell
        </Button>
      </div>
      {error && <Text role="alert">{error}</Text>}
      {explanation && <ExplanationView explanation={explanation} />}
    </Card>
  );
}
