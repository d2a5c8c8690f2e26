// "Status": requests today, cache hits, last refresh and the refresh day in use.
import { Card, Text, makeStyles, tokens } from "@fluentui/react-components";
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
    "& dd": { margin: 0 },
  },
});

function formatLastRefresh(usage: Usage): string {
  const last = usage.lastRefresh;
  if (!last) return "never";
  const time = new Date(last.at).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });
  return `${time} (refresh day ${last.day})`;
}

export function StatusPanel({ usage }: { usage: Usage }) {
  const styles = useStyles();
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
      </dl>
    </Card>
  );
}
