// The formula builder: ticker and period for the chosen datapoint (the latest fiscal year, quarter or twelve
// months by default, so a new model rolls forward; or a fixed fiscal year, quarter or ttm window); inserts the
// formula into the selected cell or copies it.
import {
  Button,
  Card,
  Field,
  Input,
  Radio,
  RadioGroup,
  Select,
  Text,
  makeStyles,
  tokens,
} from "@fluentui/react-components";
import { useState } from "react";
import { PERIOD_NUMBERS } from "../../catalog";
import type { SearchEntry } from "../../catalog/search";
import {
  BUILDER_WHEN,
  DEFAULT_WHEN,
  builderFormula,
  builderProblem,
  type BuilderChoice,
  type BuilderWhen,
  type PeriodKind,
} from "../logic/formula-builder";
import type { Security } from "../logic/ticker-search";
import { useServices } from "../services";
import { TickerSearch } from "./TickerSearch";
import { messageOf } from "../logic/message";

const useStyles = makeStyles({
  root: { display: "flex", flexDirection: "column", gap: tokens.spacingVerticalS },
  row: {
    display: "grid",
    gridTemplateColumns: "minmax(0, 1fr) minmax(0, 1fr)",
    gap: tokens.spacingHorizontalS,
  },
  tickerRow: { display: "flex", alignItems: "flex-end", gap: tokens.spacingHorizontalS },
  formula: {
    fontFamily: tokens.fontFamilyMonospace,
    overflowWrap: "anywhere",
    padding: tokens.spacingHorizontalS,
    backgroundColor: tokens.colorNeutralBackground3,
    borderRadius: tokens.borderRadiusMedium,
  },
  actions: { display: "flex", gap: tokens.spacingHorizontalS, flexWrap: "wrap" },
  name: { fontFamily: tokens.fontFamilyMonospace, overflowWrap: "anywhere" },
  grow: { flexGrow: 1, minWidth: 0 },
  input: { minWidth: 0, width: "100%" },
  noShrink: { flexShrink: 0 },
});

/** The last complete fiscal year: most companies have filed it. */
const defaultYear = (): number => new Date().getFullYear() - 1;

async function copyText(text: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(text);
  } catch {
    // Webviews without the async clipboard: a selected textarea and the copy command.
    const area = document.createElement("textarea");
    area.value = text;
    document.body.appendChild(area);
    area.select();
    const copied = document.execCommand("copy");
    area.remove();
    if (!copied) throw new Error("The clipboard is not available here; select the formula and copy it.");
  }
}

export interface FormulaBuilderProps {
  readonly entry: SearchEntry;
  readonly ticker: string;
  readonly onTickerChange: (ticker: string) => void;
}

export function FormulaBuilder({ entry, ticker, onTickerChange }: FormulaBuilderProps) {
  const styles = useStyles();
  const { workbook } = useServices();
  const [when, setWhen] = useState<BuilderWhen>(DEFAULT_WHEN);
  const [yearText, setYearText] = useState(String(defaultYear()));
  const [kind, setKind] = useState<PeriodKind>("annual");
  const [quarter, setQuarter] = useState(4);
  const [findTicker, setFindTicker] = useState(false);
  const [message, setMessage] = useState("");

  const choice: BuilderChoice = {
    ticker,
    dataset: entry.dataset.path,
    datapoint: entry.datapoint.name,
    when,
    year: Number(yearText),
    kind,
    quarter,
  };
  const problem = builderProblem(choice);
  const formula = problem ? "" : builderFormula(choice);

  const run = async (action: () => Promise<string>): Promise<void> => {
    try {
      setMessage(await action());
    } catch (err) {
      setMessage(messageOf(err));
    }
  };

  const chooseSecurity = (security: Security): void => {
    onTickerChange(security.ticker);
    setFindTicker(false);
  };

  return (
    <Card className={styles.root} aria-label="Formula builder">
      <Text weight="semibold">
        Build a formula for <span className={styles.name}>{entry.datapoint.name}</span> ({entry.dataset.path})
      </Text>
      <div className={styles.tickerRow}>
        <Field label="Ticker" className={styles.grow}>
          <Input
            className={styles.input}
            value={ticker}
            onChange={(_, d) => onTickerChange(d.value)}
            data-testid="builder-ticker"
          />
        </Field>
        <Button
          className={styles.noShrink}
          onClick={() => setFindTicker((v) => !v)}
          aria-expanded={findTicker}
        >
          {findTicker ? "Close" : "Find ticker"}
        </Button>
      </div>
      {findTicker && <TickerSearch onChoose={chooseSecurity} />}
      <Field label="Period">
        <Select value={when} onChange={(_, d) => setWhen(d.value as BuilderWhen)} data-testid="builder-when">
          {BUILDER_WHEN.map((w) => (
            <option key={w.value} value={w.value}>
              {w.label}
            </option>
          ))}
        </Select>
      </Field>
      {when === "fixed" && (
        <>
          <div className={styles.row}>
            <Field label="Fiscal year">
              <Input
                className={styles.input}
                type="number"
                value={yearText}
                onChange={(_, d) => setYearText(d.value)}
                data-testid="builder-year"
              />
            </Field>
            {kind !== "annual" && (
              <Field label={kind === "quarter" ? "Quarter" : "TTM ending quarter"}>
                <Select
                  value={String(quarter)}
                  onChange={(_, d) => setQuarter(Number(d.value))}
                  data-testid="builder-quarter"
                >
                  {PERIOD_NUMBERS.map((q) => (
                    <option key={q} value={q}>
                      Q{q}
                    </option>
                  ))}
                </Select>
              </Field>
            )}
          </div>
          <Field label="Fixed period">
            <RadioGroup layout="horizontal" value={kind} onChange={(_, d) => setKind(d.value as PeriodKind)}>
              <Radio value="annual" label="Annual" />
              <Radio value="quarter" label="Quarter" />
              <Radio value="ttm" label="TTM" />
            </RadioGroup>
          </Field>
        </>
      )}
      {problem ? (
        <Text role="status">{problem}</Text>
      ) : (
        <output className={styles.formula} data-testid="builder-formula">
          {formula}
        </output>
      )}
      <div className={styles.actions}>
        <Button
          appearance="primary"
          disabled={Boolean(problem)}
          onClick={() => run(async () => `Inserted into ${await workbook.writeSelectedCell(formula)}.`)}
        >
          Insert into selected cell
        </Button>
        <Button
          disabled={Boolean(problem)}
          onClick={() => run(async () => (await copyText(formula), "Copied."))}
        >
          Copy
        </Button>
      </div>
      {message && (
        <Text role="status" data-testid="builder-message">
          {message}
        </Text>
      )}
    </Card>
  );
}
