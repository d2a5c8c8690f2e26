// "Find a datapoint": one box over every datapoint of every dataset, with dataset and category filters.
import { Badge, Caption1, Field, Input, Select, Text, makeStyles, tokens } from "@fluentui/react-components";
import { useId, useMemo, useState } from "react";
import { CATEGORY_LEGEND, DATASETS, type CategoryCode } from "../../catalog";
import type { CatalogSearchIndex, SearchEntry } from "../../catalog/search";
import { categoryLabel, signRoleLabel } from "../logic/datapoint-facts";
import { SearchList, useListNavigation } from "./SearchList";

const RESULT_LIMIT = 200;

const useStyles = makeStyles({
  root: { display: "flex", flexDirection: "column", gap: tokens.spacingVerticalS },
  filters: {
    display: "grid",
    gridTemplateColumns: "minmax(0, 1fr) minmax(0, 1fr)",
    gap: tokens.spacingHorizontalS,
  },
  select: { minWidth: 0 },
  name: {
    fontFamily: tokens.fontFamilyMonospace,
    fontWeight: tokens.fontWeightSemibold,
    overflowWrap: "anywhere",
  },
  badges: {
    display: "flex",
    flexWrap: "wrap",
    gap: tokens.spacingHorizontalXS,
    margin: `${tokens.spacingVerticalXXS} 0`,
  },
  description: { color: tokens.colorNeutralForeground2, display: "block" },
});

function ResultRow({ entry }: { entry: SearchEntry }) {
  const styles = useStyles();
  const { dataset, datapoint } = entry;
  const category = categoryLabel(datapoint);
  return (
    <div data-testid="datapoint-result">
      <div className={styles.name}>{datapoint.name}</div>
      <div className={styles.badges}>
        <Badge appearance="tint" color="brand" size="small" title={dataset.title}>
          {dataset.path}
        </Badge>
        <Badge appearance="outline" color="informative" size="small" title="Sign role in the dataset's walk">
          {signRoleLabel(datapoint.sign)}
        </Badge>
        {datapoint.sp && (
          <Badge appearance="tint" color="warning" size="small" title="Affected by stock price">
            (SP)
          </Badge>
        )}
        {category && (
          <Badge appearance="outline" size="small" title={category}>
            {category}
          </Badge>
        )}
      </div>
      <Caption1 className={styles.description}>{entry.description}</Caption1>
    </div>
  );
}

export interface DatapointSearchProps {
  readonly index: CatalogSearchIndex;
  readonly onChoose: (entry: SearchEntry) => void;
}

export function DatapointSearch({ index, onChoose }: DatapointSearchProps) {
  const styles = useStyles();
  const listId = useId();
  const [query, setQuery] = useState("");
  const [dataset, setDataset] = useState("");
  const [category, setCategory] = useState("");
  const result = useMemo(
    () =>
      index.search(
        query,
        { dataset: dataset || undefined, category: (category || undefined) as CategoryCode | undefined },
        RESULT_LIMIT,
      ),
    [index, query, dataset, category],
  );
  const { active, inputProps } = useListNavigation(listId, result.hits, onChoose);

  return (
    <section className={styles.root} aria-label="Find a datapoint">
      <Field label="Find a datapoint">
        <Input
          {...inputProps}
          type="search"
          value={query}
          placeholder="Name or description, e.g. return on capital"
          onChange={(_, d) => setQuery(d.value)}
          data-testid="datapoint-query"
        />
      </Field>
      <div className={styles.filters}>
        <Field label="Dataset" size="small">
          <Select
            className={styles.select}
            size="small"
            value={dataset}
            onChange={(_, d) => setDataset(d.value)}
            data-testid="dataset-filter"
          >
            <option value="">All datasets</option>
            {DATASETS.map((d) => (
              <option key={d.path} value={d.path}>
                {d.path}
              </option>
            ))}
          </Select>
        </Field>
        <Field label="Category" size="small">
          <Select
            className={styles.select}
            size="small"
            value={category}
            onChange={(_, d) => setCategory(d.value)}
            data-testid="category-filter"
          >
            <option value="">All categories</option>
            {Object.entries(CATEGORY_LEGEND).map(([code, label]) => (
              <option key={code} value={code}>
                {code}: {label}
              </option>
            ))}
          </Select>
        </Field>
      </div>
      <Text size={200} role="status" data-testid="datapoint-count">
        {result.total === 0
          ? "No datapoint matches."
          : result.total > result.hits.length
            ? `${result.total} datapoints match; showing the best ${result.hits.length}.`
            : `${result.total} ${result.total === 1 ? "datapoint matches" : "datapoints match"}.`}
      </Text>
      <SearchList
        id={listId}
        label="Datapoints"
        items={result.hits}
        active={active}
        onChoose={onChoose}
        render={(entry) => <ResultRow entry={entry} />}
        itemKey={(entry) => String(entry.id)}
        estimateRowPx={76}
        maxHeightPx={320}
      />
    </section>
  );
}
