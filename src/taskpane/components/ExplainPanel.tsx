// "Explain this cell": follows the selection and tells what the cell's FDQ formula resolved to, where
// its value came from and the request it made.
import { Badge, Button, Caption1, Card, Spinner, Text, makeStyles, tokens } from "@fluentui/react-components";
import { useCallback, useEffect, useState, type ReactNode } from "react";
import { explainCell, type Explanation, type ValueSource } from "../logic/explain";
import { categoryLabel, signRoleLabel } from "../logic/datapoint-facts";
import { useServices } from "../services";
import { messageOf } from "../logic/message";

const useStyles = makeStyles({
  root: { display: "flex", flexDirection: "column", gap: tokens.spacingVerticalS },
  facts: {
    display: "grid",
    gridTemplateColumns: "auto 1fr",
    columnGap: tokens.spacingHorizontalS,
    rowGap: tokens.spacingVerticalXS,
    margin: 0,
    "& dt": { color: tokens.colorNeutralForeground3, fontSize: tokens.fontSizeBase200 },
    "& dd": { margin: 0, overflowWrap: "anywhere", minWidth: 0 },
  },
  mono: { fontFamily: tokens.fontFamilyMonospace, overflowWrap: "anywhere" },
  badges: { display: "flex", flexWrap: "wrap", gap: tokens.spacingHorizontalXS },
  note: { display: "block", color: tokens.colorNeutralForeground2 },
});

function Fact({ term, children }: { term: string; children: ReactNode }) {
  return (
    <>
      <dt>{term}</dt>
      <dd>{children}</dd>
    </>
  );
}

function SourceText({ source }: { source: ValueSource }) {
  if (source.kind === "cache") {
    return (
      <>
        From the cache of refresh day <strong>{source.refreshDay}</strong>: fetched from the service on that
        refresh day; recalculating today reuses it without a request.
      </>
    );
  }
  if (source.kind === "error") return <>The request module answers: {source.message}</>;
  return <>Not in today&apos;s cache: the next calculation of this cell fetches it fresh from the service.</>;
}

function ExplanationView({ explanation }: { explanation: Explanation }) {
  const styles = useStyles();
  const e = explanation;
  if (e.kind === "empty") return <Text>{e.address} is empty. Select a cell with an FDQ formula.</Text>;
  if (e.kind === "not-fdq") return <Text>{e.address} has no FDQ formula.</Text>;
  if (e.kind === "unparsed") {
    return (
      <dl className={styles.facts}>
        <Fact term="Cell">{e.address}</Fact>
        <Fact term="Formula">
          <span className={styles.mono}>{e.formula}</span>
        </Fact>
        <Fact term="Problem">{e.message}</Fact>
      </dl>
    );
  }
  if (e.kind === "other-function") {
    return (
      <dl className={styles.facts}>
        <Fact term="Cell">{e.address}</Fact>
        <Fact term="Formula">
          <span className={styles.mono}>{e.formula}</span>
        </Fact>
        <Fact term="Value">{String(e.value)}</Fact>
        <Fact term="Note">
          Detailed explanations cover FDQ.DATAPOINT cells; this cell calls {e.functionName}.
        </Fact>
      </dl>
    );
  }
  const record = e.source.kind === "cache" ? e.source.record : undefined;
  return (
    <dl className={styles.facts} data-testid="explanation">
      <Fact term="Cell">{e.address}</Fact>
      <Fact term="Formula">
        <span className={styles.mono}>{e.formula}</span>
      </Fact>
      <Fact term="Value">
        <span data-testid="explain-value">{String(e.value)}</span>
      </Fact>
      <Fact term="Ticker">
        {record?.ticker && record.ticker !== e.ticker
          ? `${e.ticker} (primary ticker ${record.ticker})`
          : e.ticker}
      </Fact>
      <Fact term="Dataset">
        <span data-testid="explain-dataset">
          {e.dataset ? `${e.dataset.path} (${e.dataset.title})` : `Unknown dataset "${e.datasetArg}"`}
        </span>
      </Fact>
      <Fact term="Datapoint">
        <span className={styles.mono} data-testid="explain-datapoint">
          {e.datapointName}
        </span>
        <div className={styles.badges}>
          {e.datapoint && (
            <Badge size="small" appearance="outline">
              {signRoleLabel(e.datapoint.sign)}
            </Badge>
          )}
          {e.datapoint?.sp && (
            <Badge size="small" appearance="tint" color="warning">
              (SP) affected by stock price
            </Badge>
          )}
          {e.datapoint && categoryLabel(e.datapoint) && (
            <Badge size="small" appearance="outline">
              {categoryLabel(e.datapoint)}
            </Badge>
          )}
          {e.dataset && !e.datapoint && (
            <Badge size="small" color="warning">
              not in the catalog of this dataset
            </Badge>
          )}
        </div>
        <Caption1 className={styles.note} data-testid="explain-description">
          {e.description}
        </Caption1>
      </Fact>
      <Fact term="Period">
        <span data-testid="explain-period">{e.period}</span>
        <Caption1 className={styles.note}>{e.periodDetail}</Caption1>
      </Fact>
      {record && (
        <Fact term="Record">
          {record.periodtype} period {record.period}, FY{record.year}
          {record.filingtype ? `, filing ${record.filingtype}` : ""}; value text {record.datavalue}
        </Fact>
      )}
      <Fact term="Source">
        <span data-testid="explain-source">
          <SourceText source={e.source} />
        </span>
      </Fact>
      <Fact term="Request">
        {"url" in e.request ? (
          <span className={styles.mono} data-testid="explain-url">
            GET {e.request.url}
          </span>
        ) : (
          <span data-testid="explain-url">No request: {e.request.invalid}</span>
        )}
      </Fact>
    </dl>
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
      setExplanation(await explainCell(cell, { client, describe }));
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
