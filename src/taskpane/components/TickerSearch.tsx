// "Find a ticker": the coverage lists (stocks, ETFs, mutual funds, inactive stocks), searched by ticker
// or name, in a virtualized list.
import { Badge, Field, Input, Select, Spinner, Text, makeStyles, tokens } from "@fluentui/react-components";
import { useDeferredValue, useEffect, useId, useMemo, useState } from "react";
import { messageOf } from "../logic/message";
import { SecurityIndex, type Security } from "../logic/ticker-search";
import { useServices } from "../services";
import { SearchList, useListNavigation } from "./SearchList";

/** The coverage types that have tickers usable in a datapoint formula. */
const TYPES = [
  { type: "stock", label: "Stocks" },
  { type: "etf", label: "ETFs" },
  { type: "mf", label: "Mutual funds" },
  { type: "inactive", label: "Inactive stocks" },
] as const;

const useStyles = makeStyles({
  root: { display: "flex", flexDirection: "column", gap: tokens.spacingVerticalS },
  row: { display: "flex", alignItems: "baseline", gap: tokens.spacingHorizontalS, minWidth: 0 },
  ticker: { fontFamily: tokens.fontFamilyMonospace, fontWeight: tokens.fontWeightSemibold, flexShrink: 0 },
  name: { overflow: "hidden", textOverflow: "ellipsis", whiteSpace: "nowrap", flexGrow: 1, minWidth: 0 },
});

type Coverage =
  | { readonly state: "loading" }
  | { readonly state: "ready"; readonly index: SecurityIndex; readonly failed: readonly string[] }
  | { readonly state: "error"; readonly message: string };

function useCoverage(): Coverage {
  const { api } = useServices();
  const [coverage, setCoverage] = useState<Coverage>({ state: "loading" });
  useEffect(() => {
    const client = api.client();
    if (!client) {
      setCoverage({ state: "error", message: "Save an API key under Connect to load the coverage lists." });
      return;
    }
    let live = true;
    void Promise.allSettled(TYPES.map((t) => client.coverageList(t.type))).then((settled) => {
      if (!live) return;
      const lists = settled.map((s) => (s.status === "fulfilled" ? s.value.data : []));
      const failed = TYPES.filter((_, i) => settled[i]?.status === "rejected").map((t) => t.label);
      const firstError = settled.find((s): s is PromiseRejectedResult => s.status === "rejected");
      if (failed.length === TYPES.length && firstError) {
        setCoverage({
          state: "error",
          message: messageOf(firstError.reason),
        });
      } else {
        setCoverage({
          state: "ready",
          index: SecurityIndex.fromCoverage(
            lists,
            TYPES.map((t) => t.type),
          ),
          failed,
        });
      }
    });
    return () => {
      live = false;
    };
  }, [api]);
  return coverage;
}

function SecurityRow({ security }: { security: Security }) {
  const styles = useStyles();
  return (
    <div className={styles.row} data-testid="ticker-result">
      <span className={styles.ticker}>{security.ticker}</span>
      <span className={styles.name} title={security.name}>
        {security.name}
      </span>
      <Badge size="small" appearance="outline">
        {security.type}
      </Badge>
    </div>
  );
}

export interface TickerSearchProps {
  readonly onChoose: (security: Security) => void;
}

export function TickerSearch({ onChoose }: TickerSearchProps) {
  const styles = useStyles();
  const listId = useId();
  const coverage = useCoverage();
  const [query, setQuery] = useState("");
  const [type, setType] = useState("");
  // Typing stays responsive while a long list re-filters.
  const deferredQuery = useDeferredValue(query);
  const matches = useMemo(
    () => (coverage.state === "ready" ? coverage.index.search(deferredQuery, type || undefined) : []),
    [coverage, deferredQuery, type],
  );
  const { active, inputProps } = useListNavigation(listId, matches, onChoose);

  return (
    <section className={styles.root} aria-label="Find a ticker">
      <Field label="Find a ticker">
        <Input
          {...inputProps}
          type="search"
          value={query}
          placeholder="Ticker or name, e.g. AAPL or Apple"
          onChange={(_, d) => setQuery(d.value)}
          data-testid="ticker-query"
        />
      </Field>
      <Field label="Security type" size="small">
        <Select size="small" value={type} onChange={(_, d) => setType(d.value)}>
          <option value="">All types</option>
          {TYPES.map((t) => (
            <option key={t.type} value={t.type}>
              {t.label}
            </option>
          ))}
        </Select>
      </Field>
      {coverage.state === "loading" && <Spinner size="tiny" label="Loading the coverage lists…" />}
      {coverage.state === "error" && <Text role="alert">{coverage.message}</Text>}
      {coverage.state === "ready" && (
        <Text size={200} role="status" data-testid="ticker-count">
          {matches.length} of {coverage.index.size} securities
          {coverage.failed.length > 0 ? ` (not loaded: ${coverage.failed.join(", ")})` : ""}
        </Text>
      )}
      <SearchList
        id={listId}
        label="Securities"
        items={matches}
        active={active}
        onChoose={onChoose}
        render={(security) => <SecurityRow security={security} />}
        itemKey={(s) => `${s.type}:${s.ticker}`}
        estimateRowPx={32}
        maxHeightPx={260}
      />
    </section>
  );
}
