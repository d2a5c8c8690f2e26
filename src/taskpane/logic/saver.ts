// The quota saver as the pane shows it (src/api/refresh-policy.ts owns the rule): which of a workbook's requests
// it keeps, what a month of daily refreshes would cost with it, when the pane proposes it, and the words that
// say how a cell's value was served.
import {
  DEFAULT_KEEP_DAYS,
  isClosedYear,
  keptBySaver,
  RecordsAnswer,
  type RefreshPolicy,
  type RequestKey,
} from "../../api";
import { TRADING_DAYS_PER_MONTH, formatUnits } from "./quota";

export { DEFAULT_KEEP_DAYS };

/** Days the saver keeps values for, as the pane accepts them (the settings' range). */
export const MIN_KEEP_DAYS = 1;
export const MAX_KEEP_DAYS = 31;

/** A records answer without records: the saver's rule reads only the kind of the answer. */
const RECORDS = RecordsAnswer.fromRecords([], [], (v) => v);

/**
 * What the saver does with a request's answer on refresh day `today`: keeps it (a datapoint value of a
 * closed fiscal year, no (SP) datapoint in it), or fetches it every refresh day, and why.
 */
export type SaverVerdict = "kept" | "open-period" | "sp" | "not-data";

export function saverVerdict(key: RequestKey, today: string): SaverVerdict {
  const f = key.fields;
  if (f.endpoint !== "data") return "not-data";
  if (!isClosedYear(f.year, today)) return "open-period";
  // Fetched today and asked today: only the closed period and the (SP) flags decide.
  return keptBySaver(key, RECORDS, today, today, MIN_KEEP_DAYS) ? "kept" : "sp";
}

/** Whether the saver keeps the answer of `key` (the "savable" requests of the estimate). */
export const savable = (key: RequestKey, today: string): boolean => saverVerdict(key, today) === "kept";

/** The keep days of a policy: the saver's (7 unless set), undefined under the strict policy. */
export function keepDaysOf(policy: RefreshPolicy | undefined): number | undefined {
  return policy?.kind === "saver" ? (policy.keepDays ?? DEFAULT_KEEP_DAYS) : undefined;
}

/** Keep days typed by the user: whole days from 1 to 31. */
export function parseKeepDays(text: string): number | undefined {
  const trimmed = text.trim();
  if (!/^\d+$/.test(trimmed)) return undefined;
  const n = Number(trimmed);
  return n >= MIN_KEEP_DAYS && n <= MAX_KEEP_DAYS ? n : undefined;
}

/** Calendar days that a month of trading days spans: the saver's keepDays count calendar days. */
const CALENDAR_DAYS_PER_MONTH = 30;

/**
 * How often a month of daily refreshes fetches a value the saver keeps: once per `keepDays` calendar days
 * (ceil(30 / 7) = 5 for the default), every refresh at most.
 */
export function fetchesPerMonth(keepDays: number, tradingDays: number = TRADING_DAYS_PER_MONTH): number {
  return Math.min(tradingDays, Math.ceil(CALENDAR_DAYS_PER_MONTH / Math.max(1, keepDays)));
}

/**
 * A month of one refresh per trading day under the saver: the units it keeps (`savableUnits` of the
 * `perRefresh` a refresh spends) fetched `fetchesPerMonth` times, the rest every refresh.
 */
export function monthlyWithSaver(
  perRefresh: number,
  savableUnits: number,
  keepDays: number,
  tradingDays: number = TRADING_DAYS_PER_MONTH,
): number {
  const kept = Math.min(perRefresh, savableUnits);
  return kept * fetchesPerMonth(keepDays, tradingDays) + (perRefresh - kept) * tradingDays;
}

export interface SaverProposal {
  /** The projected month under the strict policy. */
  readonly monthly: number;
  /** The monthly plan it exceeds. */
  readonly plan: number;
  /** The projected month with the saver on. */
  readonly withSaver: number;
  readonly keepDays: number;
}

export interface ProposalInput {
  /** Units one refresh of the workbook spends (every request sent again). */
  readonly perRefresh: number;
  /** Of those, the units of requests the saver keeps. */
  readonly savableUnits: number;
  readonly plan: number;
  /** The refresh policy in force (strict when undefined). */
  readonly policy: RefreshPolicy | undefined;
  readonly tradingDays?: number;
}

/**
 * The pane proposes the saver when the saver is off, the projected month exceeds the plan and the saver would
 * lower it (a workbook of open periods and (SP) datapoints only gains nothing from it).
 */
export function saverProposal(input: ProposalInput): SaverProposal | undefined {
  if (input.policy?.kind === "saver") return undefined;
  const tradingDays = input.tradingDays ?? TRADING_DAYS_PER_MONTH;
  const monthly = input.perRefresh * tradingDays;
  if (monthly <= input.plan) return undefined;
  const keepDays = DEFAULT_KEEP_DAYS;
  const withSaver = monthlyWithSaver(input.perRefresh, input.savableUnits, keepDays, tradingDays);
  if (withSaver >= monthly) return undefined;
  return { monthly, plan: input.plan, withSaver, keepDays };
}

const days = (n: number): string => `${n} ${n === 1 ? "day" : "days"}`;

/** The proposal in the pane's words. */
export function proposalText(p: SaverProposal): string {
  return (
    `At one refresh per trading day this workbook needs about ${formatUnits(p.monthly)} units a month, ` +
    `more than your ${formatUnits(p.plan)}-unit plan. The quota saver keeps closed periods' values for up to ` +
    `${days(p.keepDays)} and would bring it to about ${formatUnits(p.withSaver)}.`
  );
}

/** The saver's one-line explanation (Status), with the closed-period rule. */
export function saverRuleText(keepDays: number): string {
  return (
    `The quota saver keeps the values of closed periods (fiscal year Y is closed from 1 January of Y+2) of ` +
    `datapoints not flagged (SP) for up to ${days(keepDays)}; (SP) datapoints, open periods and the other ` +
    `functions are fetched every refresh day.`
  );
}

/** The workbook's month with the saver on, for the estimate. */
export function withSaverText(monthly: number, keepDays: number): string {
  return (
    `With the quota saver on (closed periods kept up to ${days(keepDays)}), about ` +
    `${formatUnits(monthly)} units a month.`
  );
}

/** How a cached answer was served, or how it will be, for Explain. */
export interface Serving {
  /** The refresh policy of the client (plan().policy). */
  readonly policy: "strict" | "saver";
  /** The refresh day the cached answer was fetched on (plan().fetchedOn); undefined when not cached. */
  readonly fetchedOn: string | undefined;
  /** Today's refresh day. */
  readonly today: string;
  /** The saver's keep days (the settings'; 7 by default). */
  readonly keepDays: number;
  readonly verdict: SaverVerdict;
}

const WHY_FETCHED: Readonly<Record<Exclude<SaverVerdict, "kept">, string>> = {
  "open-period": "an open period",
  sp: "(SP): it moves with the share price",
  "not-data": "not a datapoint value",
};

/** "Served by the quota saver from the answer fetched on 2024-03-04 (kept up to 7 days)." and the like. */
export function servingText(s: Serving): string {
  const keep = days(s.keepDays);
  if (s.fetchedOn !== undefined && s.fetchedOn !== s.today) {
    return s.policy === "saver"
      ? `Served by the quota saver from the answer fetched on ${s.fetchedOn} (kept up to ${keep}).`
      : `Fetched on ${s.fetchedOn}.`;
  }
  const why = s.verdict === "kept" ? "" : WHY_FETCHED[s.verdict];
  if (s.fetchedOn !== undefined) {
    if (s.policy === "strict") return `Fetched today (${s.today}) under strict per-day caching.`;
    return s.verdict === "kept"
      ? `Fetched today (${s.today}); the quota saver keeps this closed period's value up to ${keep}.`
      : `Fetched today (${s.today}); the quota saver fetches it again every refresh day (${why}).`;
  }
  if (s.policy === "strict") return "Strict per-day caching: once fetched, kept for this refresh day only.";
  return s.verdict === "kept"
    ? `Quota saver: once fetched, this closed period's value is kept up to ${keep}.`
    : `Quota saver: fetched every refresh day (${why}).`;
}
