// "Explain this cell": follows the selection and tells what the cell's FDQ formula resolved to, where
// its value came from, the request it made and its price in quota units.
import { Badge, Button, Caption1, Card, Spinner, Text, makeStyles, tokens } from "@fluentui/react-components";
import { useCallback, useEffect, useState, type ReactNode } from "react";
import type { DatapointRecord } from "../../api";
import { show } from "../../functions/impl/args";
import {
  explainCell,
  priceOf,
  priceText,
  type CallExplanation,
  type CallPrice,
  type DatapointFacts,
  type DatasetSource,
  type Explanation,
  type RequestPlan,
  type SeriesYear,
  type ValueSource,
} from "../logic/explain";
import type { ArgInput } from "../logic/fdq-call";
import { categoryLabel, signRoleLabel } from "../logic/datapoint-facts";
import { keepDaysOf, servingText, type Serving } from "../logic/saver";
import { useServices } from "../services";
import { messageOf } from "../logic/message";

const useStyles = makeStyles({
  root: { display: "flex", flexDirection: "column", gap: tokens.spacingVerticalS },
  facts: {
    display: "grid",
    // A fixed first column keeps the terms of the cell and of each call aligned.
    gridTemplateColumns: "5rem minmax(0, 1fr)",
    columnGap: tokens.spacingHorizontalS,
    rowGap: tokens.spacingVerticalXS,
    margin: 0,
    "& dt": { color: tokens.colorNeutralForeground3, fontSize: tokens.fontSizeBase200 },
    "& dd": { margin: 0, overflowWrap: "anywhere", minWidth: 0 },
  },
  mono: { fontFamily: tokens.fontFamilyMonospace, overflowWrap: "anywhere" },
  badges: { display: "flex", flexWrap: "wrap", gap: tokens.spacingHorizontalXS },
  note: { display: "block", color: tokens.colorNeutralForeground2 },
  inputs: { margin: 0, paddingLeft: tokens.spacingHorizontalL, overflowWrap: "anywhere" },
});

function Fact({ term, children }: { term: string; children: ReactNode }) {
  return (
    <>
      <dt>{term}</dt>
      <dd>{children}</dd>
    </>
  );
}

/** An answer the quota saver kept from an earlier refresh day: the day it was fetched on. */
const keptFrom = (serving: Serving | undefined): string | undefined =>
  serving?.fetchedOn !== undefined && serving.fetchedOn !== serving.today ? serving.fetchedOn : undefined;

function SourceText({ source, serving }: { source: ValueSource | DatasetSource; serving?: Serving }) {
  if (source.kind === "cache") {
    const kept = keptFrom(serving);
    return (
      <>
        From the cache of refresh day <strong>{source.refreshDay}</strong>:{" "}
        {kept ? (
          <>
            fetched from the service on <strong>{kept}</strong> and kept by the quota saver;
          </>
        ) : (
          "fetched from the service on that refresh day;"
        )}{" "}
        recalculating today reuses it without a request.
        {"rows" in source && ` The dataset has ${source.rows} rows.`}
      </>
    );
  }
  if (source.kind === "error") return <>The request module answers: {source.message}</>;
  return <>Not in today&apos;s cache: the next calculation of this cell fetches it fresh from the service.</>;
}

function RequestText({ request }: { request: RequestPlan }) {
  const styles = useStyles();
  return "url" in request ? (
    <span className={styles.mono} data-testid="explain-url">
      GET {request.url}
    </span>
  ) : (
    <span data-testid="explain-url">No request: {request.invalid}</span>
  );
}

function PeriodFact({ period, detail }: { period: string; detail: string }) {
  const styles = useStyles();
  return (
    <Fact term="Period">
      <span data-testid="explain-period">{period}</span>
      <Caption1 className={styles.note}>{detail}</Caption1>
    </Fact>
  );
}

/** The call's price in quota units, and what of it today's cache saves. */
function PriceFact({ price, note }: { price: CallPrice; note?: string }) {
  const styles = useStyles();
  return (
    <Fact term="Price">
      <span data-testid="explain-price">{priceText(price)}</span>
      {note && <Caption1 className={styles.note}>{note}</Caption1>}
    </Fact>
  );
}

/**
 * Where the value comes from (which refresh day's cache, or fresh), the refresh policy that serves it, the
 * request it makes and its price.
 */
function SourceAndRequest({
  source,
  serving,
  request,
  priceNote,
}: {
  source: ValueSource | DatasetSource;
  serving?: Serving;
  request: RequestPlan;
  priceNote?: string;
}) {
  return (
    <>
      <Fact term="Source">
        <span data-testid="explain-source">
          <SourceText source={source} serving={serving} />
        </span>
      </Fact>
      {serving && (
        <Fact term="Policy">
          <span data-testid="explain-policy">{servingText(serving)}</span>
        </Fact>
      )}
      <Fact term="Request">
        <RequestText request={request} />
      </Fact>
      {"url" in request && <PriceFact price={priceOf([request], false)} note={priceNote} />}
    </>
  );
}

/** Each argument as the function gets it, and the cell it was read from. */
function Inputs({ inputs }: { inputs: readonly ArgInput[] }) {
  const styles = useStyles();
  if (!inputs.some((i) => i.from)) return null;
  return (
    <Fact term="Arguments">
      <ul className={styles.inputs} data-testid="explain-inputs">
        {inputs.map((input) => (
          <li key={input.name}>
            {input.name} ={" "}
            <span className={styles.mono}>{input.value === null ? "(omitted)" : show(input.value)}</span>
            {input.from && ` from ${input.from}`}
          </li>
        ))}
      </ul>
    </Fact>
  );
}

function DatapointFactsView({ facts, record }: { facts: DatapointFacts; record?: DatapointRecord }) {
  const styles = useStyles();
  return (
    <>
      <Fact term="Ticker">
        {record?.ticker && record.ticker !== facts.ticker
          ? `${facts.ticker} (primary ticker ${record.ticker})`
          : facts.ticker}
      </Fact>
      <Fact term="Dataset">
        <span data-testid="explain-dataset">
          {facts.dataset
            ? `${facts.dataset.path} (${facts.dataset.title})`
            : `Unknown dataset "${facts.datasetArg}"`}
        </span>
      </Fact>
      <Fact term="Datapoint">
        <span className={styles.mono} data-testid="explain-datapoint">
          {facts.datapointName}
        </span>
        <div className={styles.badges}>
          {facts.datapoint && (
            <Badge size="small" appearance="outline">
              {signRoleLabel(facts.datapoint.sign)}
            </Badge>
          )}
          {facts.datapoint?.sp && (
            <Badge size="small" appearance="tint" color="warning">
              (SP) affected by stock price
            </Badge>
          )}
          {facts.datapoint && categoryLabel(facts.datapoint) && (
            <Badge size="small" appearance="outline">
              {categoryLabel(facts.datapoint)}
            </Badge>
          )}
          {facts.dataset && !facts.datapoint && (
            <Badge size="small" color="warning">
              not in the catalog of this dataset
            </Badge>
          )}
        </div>
        <Caption1 className={styles.note} data-testid="explain-description">
          {facts.description}
        </Caption1>
      </Fact>
    </>
  );
}

function SeriesYears({ years }: { years: readonly SeriesYear[] }) {
  const styles = useStyles();
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

function CallView({ call }: { call: CallExplanation }) {
  const styles = useStyles();
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
      <SourceAndRequest source={call.source} serving={call.serving} request={call.request} />
    </>
  );
}

function ExplanationView({ explanation }: { explanation: Explanation }) {
  const styles = useStyles();
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
  const styles = useStyles();
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
