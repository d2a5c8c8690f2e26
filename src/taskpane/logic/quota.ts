// The monthly quota as the pane shows it (production-service.md, facts 11-12): the units this month's answers cost (the request
// module's usage ledger counts them: the service reports none), the plan size the user says they have, what
// is left, what this workbook would use in a month of daily refreshes, and when a refresh needs confirming.
import { formatUnits, standingText, unitsText, type ListCondition, type UsageReport } from "../../api";
import type { PaneClient } from "./pane-client";
import type { PanePrefs } from "./pane-prefs";

/** The projection's assumption: one refresh per trading day, about 21 of them in a month. */
export const TRADING_DAYS_PER_MONTH = 21;

export interface QuotaStanding {
  /** YYYY-MM (US Central, the vendor's quota calendar). */
  readonly month: string;
  /** Units counted this month. */
  readonly used: number;
  /** The plan's monthly units (the user's setting; 10,000 by default). */
  readonly plan: number;
  /** Units left this month: 0 once the service said "Limit Exceeded" or the plan is spent. */
  readonly left: number;
  /** The service answered "Limit Exceeded" this month (and the user has not said the plan was raised). */
  readonly exhausted: boolean;
  /** YYYY-MM-DD the quota resets (the 1st of next month). */
  readonly resetsOn: string;
  /** The standing in the words `fdq usage` prints too (standingText of the request module). */
  readonly text: string;
}

export function quotaStanding(report: UsageReport, plan: number): QuotaStanding {
  return {
    month: report.month,
    used: report.units,
    plan,
    left: report.exhausted ? 0 : Math.max(0, plan - report.units),
    exhausted: report.exhausted,
    resetsOn: report.resetsOn,
    text: standingText(report, plan),
  };
}

/** This month's standing now: the client's usage ledger and the pane's plan size. */
export async function readStanding(
  client: Pick<PaneClient, "usage">,
  prefs: Pick<PanePrefs, "planUnits">,
): Promise<QuotaStanding> {
  const [report, plan] = await Promise.all([client.usage(), prefs.planUnits()]);
  return quotaStanding(report, plan);
}

export interface MonthlyProjection {
  /** Units one refresh of the workbook spends (every request sent again). */
  readonly perRefresh: number;
  readonly tradingDays: number;
  /** perRefresh x tradingDays. */
  readonly monthly: number;
  /** Units left of this month's plan. */
  readonly left: number;
  readonly plan: number;
  /** Whether the projected month fits in what is left of this month's plan. */
  readonly fitsLeft: boolean;
  /** Whether it fits in a whole month's plan. */
  readonly fitsPlan: boolean;
}

/** This workbook's use in a month of one refresh per trading day, beside what is left of the plan. */
export function projectMonthly(
  perRefresh: number,
  standing: Pick<QuotaStanding, "left" | "plan">,
  tradingDays: number = TRADING_DAYS_PER_MONTH,
): MonthlyProjection {
  const monthly = perRefresh * tradingDays;
  return {
    perRefresh,
    tradingDays,
    monthly,
    left: standing.left,
    plan: standing.plan,
    fitsLeft: monthly <= standing.left,
    fitsPlan: monthly <= standing.plan,
  };
}

/** A refresh that may spend more units than are left of the plan asks first; one within it does not. */
export function refreshNeedsConfirm(units: number, standing: Pick<QuotaStanding, "left">): boolean {
  return units > 0 && units > standing.left;
}

/** Plan sizes the pane accepts: whole units, at least 1. */
export function parsePlanUnits(text: string): number | undefined {
  const trimmed = text.trim().replace(/[,_\s]/g, "");
  if (!/^\d+$/.test(trimmed)) return undefined;
  const n = Number(trimmed);
  return Number.isSafeInteger(n) && n >= 1 ? n : undefined;
}

export { formatUnits, unitsText };

/** The projection in the pane's words, assumption included. */
export function projectionText(p: MonthlyProjection): string {
  const use =
    `At one refresh per trading day (assumed ${p.tradingDays} a month), this workbook uses about ` +
    `${unitsText(p.monthly)} a month (${formatUnits(p.perRefresh)} x ${p.tradingDays})`;
  if (p.fitsLeft)
    return `${use}: within the ${unitsText(p.left)} left of the ${formatUnits(p.plan)}-unit plan.`;
  if (p.fitsPlan) {
    return `${use}: more than the ${unitsText(p.left)} left this month, within a whole month's plan of ${unitsText(p.plan)}.`;
  }
  return `${use}: more than the whole monthly plan of ${unitsText(p.plan)}.`;
}

/**
 * The requests an estimate needs and their units, with the day's coverage list where it is among them. While
 * the list is not in today's cache, an estimate cannot know which tickers it lists (it sends nothing, not even
 * the list): it counts every ticker's requests, an upper bound the refresh reaches when all are covered.
 */
export function neededText(e: {
  readonly requestsNeeded: number;
  readonly units: number;
  readonly coverageLists: number;
  readonly ifListed?: ListCondition;
}): string {
  const requests = `${e.requestsNeeded} ${e.requestsNeeded === 1 ? "request" : "requests"} needed`;
  if (e.coverageLists === 0) return `${requests} (${unitsText(e.units)})`;
  if (!e.ifListed) return `${requests} (${unitsText(e.units)}, with the day's ticker coverage list)`;
  return (
    `Up to ${requests} (at most ${unitsText(e.units)}, with the day's ticker coverage list: asked first, it ` +
    `spares the requests of a ticker it does not list)`
  );
}

/** Why a refresh asks first, for the confirmation. */
export function confirmText(units: number, upperBound: boolean, s: QuotaStanding): string {
  const spend = `This refresh drops today's cache and sends every request again: ${upperBound ? "up to " : ""}${unitsText(units)}`;
  if (s.exhausted) {
    return (
      `${spend}, but the service already answered "Limit Exceeded" this month. No request is sent until the ` +
      `quota resets on ${s.resetsOn} (US Central) or you say your plan was raised (Status), and the cells fail until then.`
    );
  }
  return (
    `${spend}, more than the ${unitsText(s.left)} left of your ${formatUnits(s.plan)}-unit monthly plan ` +
    `(${formatUnits(s.used)} used this month). Once the quota is spent the service answers "Limit Exceeded" ` +
    `and cells fail until it resets on ${s.resetsOn} (US Central).`
  );
}
