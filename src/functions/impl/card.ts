// FDQ.CARD: a security as an Excel entity (a card). Its text is the security's name and ticker; its properties are
// the coverage record's fields, every component rating the service has for it (its number, shown with its words:
// "2 - Attractive"), the key metrics the analyst chose in the pane (ValueOptions.cardMetrics, each a number with its
// source), and, in the card's last section, where it came from: the refresh day, the units spent and the source.
// A card asks only its coverage record and its ratings unless metrics are chosen. Every request starts at once (as
// one Excel recalculation would start them), and each is an ordinary call of the request module, so the day cache
// answers a recalculated or reopened card, a value preview reads the cache only, and Estimate counts the same
// requests (src/functions/requests.ts records them by running this code).
import {
  FdqError,
  NotCachedError,
  type ApiResult,
  type DatapointRequest,
  type DatapointResult,
  type FdqRequest,
  type RatingsRecord,
  type SecurityRecord,
} from "../../api";
import { parseRelativePeriod, RATING_FIELDS, type RatingField } from "../../catalog";
import { isNoAnswer } from "../errors";
import {
  double,
  FDQ_PROVIDER,
  notAvailable,
  PropertyList,
  text,
  type CardSection,
  type DoubleValue,
  type EntityValue,
  type PropertyValue,
} from "../cell-values";
import type { CardMetric } from "../value-options";
import { yearArg } from "./args";
import { forwarded, type FdqApi } from "./client";
import { dayBeforeOf, sourcedDatapoint } from "./sourced";
import { findSecurity } from "./security";
import { tickerArg } from "./ticker-arg";

export interface CardArgs {
  ticker?: unknown;
  type?: unknown;
}

/** The service's rating scale (service spec: 1 = Very Attractive ... 5 = Very Unattractive). */
export const RATING_WORDS: Readonly<Record<number, string>> = {
  1: "Very Attractive",
  2: "Attractive",
  3: "Neutral",
  4: "Unattractive",
  5: "Very Unattractive",
};

/** Each rating's property name: what FDQ.RATING calls the field, as a card names it. */
const RATING_NAMES: Readonly<Record<string, string>> = {
  overall: "Overall rating",
  economic_eps: "Economic EPS rating",
  roic: "ROIC rating",
  fcf_yield: "FCF yield rating",
  pebv: "PEBV rating",
  gap: "GAP rating",
  costs: "Costs rating",
  cash: "Cash rating",
};

const RATED_FIELDS: readonly RatingField[] = RATING_FIELDS.filter((f) => f.field !== "name");

/** The coverage record's fields a card shows, in order; empty ones (an ETF has no subindustry) are left out. */
const COVERAGE_PROPERTIES: readonly (readonly [string, keyof SecurityRecord])[] = [
  ["Ticker", "ticker"],
  ["Name", "name"],
  ["Security type", "type"],
  ["Sector", "sector_name"],
  ["Subsector", "subsector_name"],
  ["Industry", "industry_name"],
  ["Subindustry", "subindustry_name"],
  ["Last trade date", "last_trade_date"],
];

/** A coverage field that applies to the security: the service writes "NA" where one does not (an ETF's subindustry). */
const applies = (value: string): boolean => value.trim() !== "" && !/^n\/?a$/i.test(value.trim());

/** A rating as a number that shows its words: 2 with the format 0" - Attractive" shows "2 - Attractive". */
export function ratingValue(rating: number): DoubleValue {
  const words = RATING_WORDS[rating];
  return words === undefined ? double(rating) : double(rating, `0" - ${words}"`);
}

/**
 * Each metric's property name: the datapoint's name (`=A2.ROIC`), given to its latest period (FY0, FQ0, LTM) where
 * the same datapoint is chosen at several periods, else to the first; the others are named with their period
 * ("ROIC FY-1", reached as `=A2.[ROIC FY-1]`).
 */
export function metricNames(metrics: readonly CardMetric[]): string[] {
  const bare = metrics.map((m) => m.name.trim().toUpperCase());
  const latest = (m: CardMetric): boolean => parseRelativePeriod(m.period.trim())?.offset === 0;
  const owner = new Map<string, number>();
  metrics.forEach((m, i) => {
    const name = bare[i]!;
    const current = owner.get(name);
    if (current === undefined || (latest(m) && !latest(metrics[current]!))) owner.set(name, i);
  });
  return metrics.map((m, i) =>
    owner.get(bare[i]!) === i ? bare[i]! : `${bare[i]!} ${m.period.trim().toUpperCase()}`,
  );
}

/** What the card's requests were and how each was answered, for its footer. */
interface Answered {
  readonly request: FdqRequest;
  readonly result: {
    readonly source: string;
    readonly refreshDay: string;
    readonly url: string;
  };
}

type Settled<T> = PromiseSettledResult<T>;

/** A call's promise, or its synchronous throw as a rejection: every request of the card settles, none is left unheard. */
function attempt<T>(call: () => Promise<T>): Promise<T> {
  try {
    return call();
  } catch (err) {
    return Promise.reject(err);
  }
}

/** The card's own failure: the first that is no answer about the data (network, quota, key, a preview's refusal). */
function failureOf(settled: readonly Settled<unknown>[]): unknown {
  const reasons = settled.flatMap((s) => (s.status === "rejected" ? [s.reason as unknown] : []));
  const refused = reasons.filter((r): r is NotCachedError => r instanceof NotCachedError);
  if (refused.length > 0) return NotCachedError.joined(refused);
  return reasons.find((r) => isNoAnswer(r));
}

/**
 * The card's provenance. A card is paid once per refresh day: its requests are priced by the client's planner, and
 * each answer fetched on this refresh day (by this card, by another cell asking the same, or by the search that
 * resolved FY0) has been paid today, so "Units spent this refresh day" is the same on every recalculation of the
 * day; an answer the quota saver kept from an earlier day spent nothing today. "Source" says whether this
 * calculation fetched any of them or read them all from the day cache.
 */
function footer(list: PropertyList, client: FdqApi, answered: readonly Answered[]): string[] {
  let spent = 0;
  let fromService = false;
  for (const { request, result } of answered) {
    if (result.source === "network") fromService = true;
    try {
      const plan = client.plan?.(request);
      if (plan && (plan.fetchedOn === undefined || plan.fetchedOn === result.refreshDay)) spent += plan.units;
    } catch {
      // A request the planner cannot price (it was answered, so this does not happen): counted as nothing.
    }
  }
  const first = answered[0]!.result;
  const host = /^[a-z]+:\/\/([^/]+)/i.exec(first.url)?.[1] ?? "the FDQ service";
  return [
    list.add("Refresh day", text(first.refreshDay)),
    list.add("Units spent this refresh day", double(spent)),
    list.add(
      "Source",
      text(
        fromService
          ? `FDQ service (${host}), fetched now`
          : `FDQ service (${host}), from this refresh day's cache`,
      ),
    ),
  ];
}

/** FDQ.CARD: the security card of a ticker (an ETF's, a fund's and an inactive ticker's with their own fields). */
export async function card(
  client: FdqApi,
  args: CardArgs,
  metrics: readonly CardMetric[] = [],
): Promise<EntityValue> {
  const ticker = tickerArg(args.ticker);
  const coverage = findSecurity(client, ticker, args.type);
  const ratings = attempt(() => client.ratings(forwarded(ticker)));
  const asked = metrics.map((m) => ({
    ticker: forwarded<string>(ticker),
    dataset: m.dataset,
    name: m.name,
    year: forwarded<DatapointRequest["year"]>(yearArg(m.period)),
  }));
  const values = asked.map((request) => attempt(() => client.datapoint(request)));
  const [found, rated, ...measured] = await Promise.allSettled<
    [typeof coverage, typeof ratings, ...Promise<DatapointResult>[]]
  >([coverage, ratings, ...values]);
  const failure = failureOf([found!, rated!, ...measured]);
  if (failure !== undefined) throw failure;
  if (found!.status === "rejected") throw found!.reason;
  const security: ApiResult<SecurityRecord> = found!.value;
  const record = security.data;

  const list = new PropertyList();
  const answered: Answered[] = [
    { request: { kind: "security", type: record.type, ticker: record.ticker }, result: security },
  ];
  const sections: CardSection[] = [];

  const coverageNames: string[] = [];
  for (const [name, field] of COVERAGE_PROPERTIES) {
    const value = record[field];
    if (applies(value)) coverageNames.push(list.add(name, text(value)));
  }
  sections.push({ layout: "List", title: "Security", properties: coverageNames });

  const ratingNames: string[] = [];
  if (rated!.status === "fulfilled") {
    const result: ApiResult<RatingsRecord> = rated!.value;
    answered.push({ request: { kind: "ratings", ticker: result.data.ticker }, result });
    for (const field of RATED_FIELDS) {
      const value = result.data.ratings[field.field];
      if (value !== undefined)
        ratingNames.push(list.add(RATING_NAMES[field.short] ?? field.short, ratingValue(value)));
    }
  } else {
    const reason = rated!.reason as unknown;
    const words = reason instanceof FdqError ? reason.message : "no ratings";
    ratingNames.push(list.add("Ratings", text(`none: ${words}`)));
  }
  sections.push({ layout: "List", title: "Ratings", properties: ratingNames });

  if (metrics.length > 0) {
    const shownMetrics: string[] = [];
    const names = metricNames(metrics);
    measured.forEach((settled, i) => {
      const metric = metrics[i]!;
      const period = metric.period.trim().toUpperCase();
      const name = names[i]!;
      const bare = metric.name.trim().toUpperCase();
      let value: PropertyValue;
      if (settled.status === "fulfilled") {
        const request = asked[i]!;
        answered.push({ request: { kind: "datapoint", request }, result: settled.value });
        const sourced = sourcedDatapoint(settled.value, request, dayBeforeOf(client));
        value =
          typeof sourced === "string"
            ? text(sourced)
            : typeof sourced === "number"
              ? double(sourced)
              : sourced;
      } else {
        // "Does not exist" for this ticker (failureOf has thrown every other failure): Excel's #N/A.
        value = notAvailable();
      }
      shownMetrics.push(list.add(name, value, `${bare} ${period}`));
    });
    sections.push({ layout: "List", title: "Key metrics", properties: shownMetrics });
  }

  sections.push({ layout: "List", title: "Source", properties: footer(list, client, answered) });
  return {
    type: "Entity",
    text: `${record.name} (${record.ticker})`,
    properties: list.properties,
    layouts: { card: { title: { property: "Name" }, sections } },
    provider: { description: FDQ_PROVIDER },
  };
}
