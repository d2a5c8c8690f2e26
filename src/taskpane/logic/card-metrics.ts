// The key metrics of FDQ.CARD as the analyst chooses them in the pane: each a datapoint at a relative period,
// priced before it is added, kept in the order chosen, at most MAX_CARD_METRICS. A card asks each metric's
// datapoint for its own ticker on every new refresh day, so a metric's price is what its requests cost one card
// on such a day: the request planner's units (functions/requests.ts finds the requests exactly as the cell
// makes them) plus the search for the ticker's latest period, which costs a unit when no metric asks the latest
// period itself (docs/periods.md).
import { MAX_CARD_METRICS, type CardMetric } from "../../functions/value-options";
import { requestsOf } from "../../functions/requests";
import { messageOf } from "./message";
import type { PaneClient } from "./pane-client";

/** The relative periods a card metric may take. */
export const CARD_PERIODS = ["FY0", "FY-1", "FQ0", "LTM"] as const;

/**
 * The ticker the prices are worked out for. Its latest periods are never known in advance, so the price counts
 * the search for them, as every card pays it on a new refresh day.
 */
const PRICED_TICKER = "CARDPRICE";

export const metricLabel = (m: CardMetric): string => `${m.name} ${m.period}`;

const same = (a: CardMetric, b: CardMetric): boolean =>
  a.name.toUpperCase() === b.name.toUpperCase() &&
  a.period.toUpperCase() === b.period.toUpperCase() &&
  a.dataset.replace(/^.*\//, "") === b.dataset.replace(/^.*\//, "");

/** Quota units the metrics cost one card per refresh day (beside its coverage and ratings). */
export async function cardMetricsUnits(
  client: Pick<PaneClient, "estimate">,
  metrics: readonly CardMetric[],
): Promise<number> {
  const requests = (
    await Promise.all(
      metrics.map((m) =>
        requestsOf({ name: "DATAPOINT", args: [PRICED_TICKER, m.dataset, m.name, m.period] }),
      ),
    )
  ).flat();
  if (requests.length === 0) return 0;
  const { planned, resolution } = client.estimate(requests);
  // The metrics' own requests: the day's coverage list a data call may ask first is shared by every card and
  // cell of the day, not a cost per card.
  const own = planned.filter((p) => p.key.fields.endpoint === "data");
  return own.reduce((n, p) => n + p.units, 0) + (resolution?.units ?? 0);
}

export type MetricOffer =
  | { readonly ok: true; readonly metric: CardMetric; readonly units: number; readonly total: number }
  | { readonly ok: false; readonly reason: string };

/** Whether `metric` may be added to `metrics`, and if so what it adds per card per refresh day. */
export async function offerMetric(
  client: Pick<PaneClient, "estimate">,
  metrics: readonly CardMetric[],
  metric: CardMetric,
): Promise<MetricOffer> {
  if (!(CARD_PERIODS as readonly string[]).includes(metric.period)) {
    return { ok: false, reason: `${metric.period} is not a card period: choose ${CARD_PERIODS.join(", ")}.` };
  }
  if (metrics.some((m) => same(m, metric))) {
    return { ok: false, reason: `${metricLabel(metric)} is on the card already.` };
  }
  if (metrics.length >= MAX_CARD_METRICS) {
    return { ok: false, reason: `A card holds at most ${MAX_CARD_METRICS} metrics: remove one first.` };
  }
  try {
    const before = await cardMetricsUnits(client, metrics);
    const total = await cardMetricsUnits(client, [...metrics, metric]);
    return { ok: true, metric, units: total - before, total };
  } catch (err) {
    return { ok: false, reason: messageOf(err) };
  }
}

/** The price in words: "1 unit per card per refresh day". */
export const unitsPerCard = (units: number): string =>
  `${units.toLocaleString("en-US")} ${units === 1 ? "unit" : "units"} per card per refresh day`;

/** `metrics` with the one at `index` moved by `by` places (kept inside the list). */
export function moveMetric(metrics: readonly CardMetric[], index: number, by: -1 | 1): CardMetric[] {
  const to = index + by;
  const list = [...metrics];
  if (index < 0 || index >= list.length || to < 0 || to >= list.length) return list;
  const [item] = list.splice(index, 1);
  list.splice(to, 0, item as CardMetric);
  return list;
}
