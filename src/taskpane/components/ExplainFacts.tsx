// The facts Explain shows about a call: its inputs, datapoint, period, source, request and price.
import { Badge, Caption1, makeStyles, tokens } from "@fluentui/react-components";
import { type ReactNode } from "react";
import type { DatapointRecord } from "../../api";
import { show } from "../../functions/impl/args";
import {
  priceOf,
  priceText,
  type CallPrice,
  type DatapointFacts,
  type DatasetSource,
  type RequestPlan,
  type ValueSource,
} from "../logic/explanation";
import type { ArgInput } from "../logic/fdq-call";
import { categoryLabel, signRoleLabel } from "../logic/datapoint-facts";
import { servingText, type Serving } from "../logic/saver";

export const useExplainStyles = makeStyles({
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

export function Fact({ term, children }: { term: string; children: ReactNode }) {
  return (
    <>
      <dt>{term}</dt>
      <dd>{children}</dd>
    </>
  );
}

/** An answer the quota saver kept from an earlier refresh day: the day it was fetched on. */
export const keptFrom = (serving: Serving | undefined): string | undefined =>
  serving?.fetchedOn !== undefined && serving.fetchedOn !== serving.today ? serving.fetchedOn : undefined;

export function SourceText({ source, serving }: { source: ValueSource | DatasetSource; serving?: Serving }) {
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

export function RequestText({ request }: { request: RequestPlan }) {
  const styles = useExplainStyles();
  return "url" in request ? (
    <span className={styles.mono} data-testid="explain-url">
      GET {request.url}
    </span>
  ) : (
    <span data-testid="explain-url">No request: {request.invalid}</span>
  );
}

export function PeriodFact({ period, detail }: { period: string; detail: string }) {
  const styles = useExplainStyles();
  return (
    <Fact term="Period">
      <span data-testid="explain-period">{period}</span>
      <Caption1 className={styles.note}>{detail}</Caption1>
    </Fact>
  );
}

/** The call's price in quota units, and what of it today's cache saves. */
export function PriceFact({ price, note }: { price: CallPrice; note?: string }) {
  const styles = useExplainStyles();
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
export function SourceAndRequest({
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
export function Inputs({ inputs }: { inputs: readonly ArgInput[] }) {
  const styles = useExplainStyles();
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

export function DatapointFactsView({ facts, record }: { facts: DatapointFacts; record?: DatapointRecord }) {
  const styles = useExplainStyles();
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
