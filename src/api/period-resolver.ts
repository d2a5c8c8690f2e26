// Which period is the latest: the resolution of FY0, FQ0 and LTM (src/catalog/relative-period.ts) against
// the service, which has no "latest" parameter and answers a period past the latest with no records (empty
// results, DataNotFound, or a 404).
//
// The search walks DOWN from the newest period that can exist, so that every answer before the first one
// with data is empty, and an empty answer costs no unit (production-service.md, fact 11: a unit is a datapoint returned). The
// one answer with data is the latest period itself, asked the way an FY0 cell of the model asks it (its
// dataset and datapoint; a cell at offset 0 is preferred when several ask at once), so a model that shows
// FY0 pays nothing for the resolution and one that shows only FY-n pays one unit per ticker and kind.
// Where the walk starts, from what is known:
//   - the clock: no fiscal year or quarter can have data before it has ended (fiscal years named by the
//     calendar year they end in; any fiscal year-end month);
//   - the resolution of an earlier refresh day: the latest moves by at most one period between refreshes
//     (one more per span of time a period takes), so a daily refresh asks one empty answer per ticker and kind;
//   - today's latest quarter bounds today's latest ttm window (a window needs its last quarter);
//   - an inactive stock's last_trade_date (coverage): no period after it; and its resolution never moves.
// Resolutions are kept per refresh day (period-resolutions.ts): a warm run sends nothing. The callers of one
// ticker and kind share one search through the path's coalescer (coalescer.ts); its probes ask the day's
// answers (day-answers.ts) as any call does, and nothing here calls back into the client.
import {
  findDatapoint,
  findDataset,
  periodAtIndex,
  periodIndex,
  type DatedPeriod,
  type PeriodKind,
} from "../catalog";
import { Coalescer } from "./coalescer";
import { DatapointKeys, type DayAnswers } from "./day-answers";
import {
  DataNotFoundError,
  DataPointNotFoundError,
  FdqError,
  NotCachedError,
  NotInPortfolioError,
} from "./errors";
import type { PeriodResolutions } from "./period-resolutions";
import { RequestKey } from "./request-key";
import { isInactiveTicker, type TickerCoverage } from "./ticker-coverage";
import type { CallOptions } from "./types";

/**
 * What a probe asks: the dataset and datapoint of a cell (a whole dataset asks its first catalog name), or
 * with `whole` the whole dataset (a DATASET cell at the latest period: its own request).
 */
export interface ProbeTarget {
  readonly dataset: string;
  readonly name: string;
  readonly whole?: boolean;
}

export interface ResolverHost {
  /** Today's refresh day, YYYY-MM-DD. */
  today(): string;
  readonly resolutions: PeriodResolutions;
  /** How long the first caller waits for others of the same ticker and kind (the client's coalescing window). */
  readonly windowMs: number;
  /** The coalescer the searches are shared by (the path's one; a resolver of its own without). */
  readonly coalescer?: Coalescer;
  /** Whether the service has a value of `target` for the period: false for a "no data" answer; throws otherwise. */
  probe(ticker: string, target: ProbeTarget, at: DatedPeriod): Promise<boolean>;
  /** An inactive stock's last trade date (YYYY-MM-DD), from its coverage record. */
  lastTradeDate(ticker: string): Promise<string | undefined>;
  /**
   * The error of a ticker the service does not cover, else undefined (ticker-coverage.ts): asked once per
   * search, when the walk has reached the period the data is expected at and found nothing.
   */
  uncovered?(ticker: string): Promise<FdqError | undefined>;
}

/** The latest period of a kind, and the refresh day it was found on. */
export interface Latest {
  readonly latest: DatedPeriod;
  readonly resolvedOn: string;
  /** Periods the search asked (0 when known). */
  readonly requests: number;
}

/** Most periods walked down before the search gives up: twelve years, or four years of quarters. */
const MAX_STEPS: Readonly<Record<PeriodKind, number>> = { annual: 12, quarter: 16, ttm: 16 };
/** Days between two periods of a kind, at the least: the most the latest can move in that time is one. */
const SPAN_DAYS: Readonly<Record<PeriodKind, number>> = { annual: 365, quarter: 91, ttm: 91 };
const DAY_MS = 86_400_000;

/** The calendar year and month (1-12) of the last month that ended before `day` (YYYY-MM-DD). */
function lastEndedMonth(day: string): [number, number] {
  const y = Number(day.slice(0, 4));
  const m = Number(day.slice(5, 7));
  return m === 1 ? [y - 1, 12] : [y, m - 1];
}

/**
 * The index of the newest period of `kind` that can have ended before `day`, whatever the fiscal year-end
 * month: a fiscal year named by the calendar year it ends in; a quarter that ended in month M is at most
 * quarter 4 of that year (a year ending in M), or for M in April..December quarter 1..3 of the next fiscal
 * year (a year ending 3, 6 or 9 months later).
 */
export function newestPossible(kind: PeriodKind, day: string): number {
  const [y, m] = lastEndedMonth(day);
  if (kind === "annual") return y;
  return 4 * y + 3 + Math.floor((m - 1) / 3);
}

/**
 * The latest period most likely found when nothing is known but the day: that of a December year-end company
 * filing about 60 days after a period ends (the most common case).
 */
export function clockGuess(kind: PeriodKind, today: string): number {
  const lagged = new Date(Date.parse(`${today}T00:00:00Z`) - 60 * DAY_MS).toISOString().slice(0, 10);
  const [y, m] = lastEndedMonth(lagged);
  return kind === "annual" ? y - (m === 12 ? 0 : 1) : 4 * y + Math.floor(m / 3) - 1;
}

const daysBetween = (from: string, to: string): number =>
  Math.max(0, Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS));

/** The newest period the walk must start from, from the clock and what is known. */
export function startOf(
  kind: PeriodKind,
  today: string,
  known: { previous?: { index: number; day: string }; quarterToday?: number; lastTradeDate?: string },
): number {
  let start = newestPossible(kind, today);
  if (known.lastTradeDate) start = Math.min(start, newestPossible(kind, known.lastTradeDate));
  const p = known.previous;
  if (p) start = Math.min(start, p.index + 1 + Math.floor(daysBetween(p.day, today) / SPAN_DAYS[kind]));
  if (kind === "ttm" && known.quarterToday !== undefined) start = Math.min(start, known.quarterToday);
  return start;
}

/**
 * Whether a failed probe is the service's "no value for this period": DataNotFound (or empty results, which
 * the request module reads as DataNotFound), or a 404 that is not about the datapoint's name or the
 * member's portfolio. A DataPointNotFound from the service for a name the catalog lists is a 404 too. A
 * ticker the service does not cover (UncoveredTickerError) is no such answer: the search stops at it.
 */
export function isNoData(error: unknown, nameInCatalog: boolean): boolean {
  if (error instanceof DataNotFoundError) return true;
  if (!(error instanceof FdqError) || error.status !== 404) return false;
  if (error instanceof NotInPortfolioError) return false;
  if (error instanceof DataPointNotFoundError) return nameInCatalog;
  return true;
}

/** A caller of a search: the cell's probe target, preferred when the cell asks the latest period itself. */
interface Caller {
  readonly target: ProbeTarget;
  readonly preferred: boolean;
}

const KIND_WORDS: Readonly<Record<PeriodKind, string>> = {
  annual: "annual value",
  quarter: "quarterly value",
  ttm: "trailing-twelve-month value",
};

export class PeriodResolver {
  private readonly searches: Coalescer;
  /** Searches that found nothing today: answered at once for the rest of the refresh day. */
  private readonly nothing = new Map<string, DataNotFoundError>();

  constructor(private readonly host: ResolverHost) {
    this.searches = host.coalescer ?? new Coalescer();
  }

  /** Today's known latest period of `kind` for `ticker`, without asking: undefined when it must be searched. */
  known(ticker: string, kind: PeriodKind): Latest | undefined {
    const today = this.host.today();
    const r = this.host.resolutions.get(ticker, kind);
    if (!r || (r.day !== today && !r.final)) return undefined;
    return { latest: periodAtIndex(kind, r.index), resolvedOn: r.final ? r.day : today, requests: 0 };
  }

  /**
   * What an estimate counts before the search: the period it will most likely find (the earlier day's, else
   * the clock's best guess) and the empty answers above it.
   */
  guess(ticker: string, kind: PeriodKind): { latest: DatedPeriod; emptyProbes: number; coverage: boolean } {
    const known = this.known(ticker, kind);
    if (known) return { latest: known.latest, emptyProbes: 0, coverage: false };
    const today = this.host.today();
    const previous = this.host.resolutions.get(ticker, kind);
    const start = startOf(kind, today, { ...(previous ? { previous } : {}) });
    const index = Math.min(start, previous ? previous.index : clockGuess(kind, today));
    return {
      latest: periodAtIndex(kind, index),
      emptyProbes: start - index,
      coverage: isInactiveTicker(ticker),
    };
  }

  /**
   * The latest period of `kind` for `ticker`: known today, or searched once for every caller of the same
   * ticker and kind (those that arrive within the coalescing window join, and a caller at offset 0 gives the
   * probe its dataset and datapoint). A cache-only call (`options.cacheOnly`) may not ask: it is refused with a
   * NotCachedError where the search would start or be joined (the caller prices it).
   */
  async latest(
    ticker: string,
    kind: PeriodKind,
    target: ProbeTarget,
    preferred: boolean,
    options?: CallOptions,
  ): Promise<Latest> {
    await this.host.resolutions.ready;
    const known = this.known(ticker, kind);
    if (known) return known;
    const key = `${this.host.today()}|${ticker}|${kind}`;
    const nothing = this.nothing.get(key);
    if (nothing) throw nothing;
    if (options?.cacheOnly) throw new NotCachedError({ units: 0 });
    const claim = this.searches.claim<Latest, Caller>(
      `search ${key}`,
      { target, preferred },
      this.host.windowMs,
    );
    if (claim.joined) return claim.promise;
    return claim.settle(this.gatheredSearch(ticker, kind, claim.gathered()));
  }

  /** The search, once its callers have gathered: with the probe target of one asking the latest period. */
  private async gatheredSearch(
    ticker: string,
    kind: PeriodKind,
    gathered: Promise<readonly Caller[]>,
  ): Promise<Latest> {
    const callers = await gathered;
    const chosen = callers.find((c) => c.preferred) ?? callers[0]!;
    return this.search(ticker, kind, chosen.target);
  }

  private async search(ticker: string, kind: PeriodKind, target: ProbeTarget): Promise<Latest> {
    const today = this.host.today();
    const inactive = isInactiveTicker(ticker);
    const previous = this.host.resolutions.get(ticker, kind);
    // A ttm window needs its last quarter: a search for the latest quarter under way bounds this one.
    const quarterSearch =
      kind === "ttm" ? this.searches.pending<Latest>(`search ${today}|${ticker}|quarter`) : undefined;
    if (quarterSearch) await quarterSearch.catch(() => undefined);
    const quarterToday = kind === "ttm" ? this.known(ticker, "quarter")?.latest : undefined;
    let requests = 0;
    // No coverage record (a stock the list does not know) leaves the clock's bound.
    const lastTradeDate = inactive
      ? await this.host.lastTradeDate(ticker).catch((error: unknown) => {
          if (isNoData(error, false)) return undefined;
          throw error;
        })
      : undefined;
    const start = startOf(kind, today, {
      ...(previous ? { previous } : {}),
      ...(quarterToday ? { quarterToday: periodIndex(quarterToday) } : {}),
      ...(lastTradeDate ? { lastTradeDate } : {}),
    });
    // Where a covered ticker's data is expected: the periods above it are empty for most tickers too, so
    // only an empty answer at or below it asks whether the service covers the ticker at all.
    const expected = previous ? previous.index : clockGuess(kind, today);
    let coverageAsked = false;
    for (let index = start; index > start - MAX_STEPS[kind]; index--) {
      const at = periodAtIndex(kind, index);
      requests++;
      if (await this.host.probe(ticker, target, at)) {
        this.host.resolutions.set(ticker, kind, { index, day: today, final: inactive });
        return { latest: at, resolvedOn: today, requests };
      }
      if (!coverageAsked && index <= expected && this.host.uncovered) {
        coverageAsked = true;
        const uncovered = await this.host.uncovered(ticker);
        if (uncovered) throw uncovered;
      }
    }
    const [first, last] = [periodAtIndex(kind, start - MAX_STEPS[kind] + 1), periodAtIndex(kind, start)];
    const error = new DataNotFoundError({
      message: `No ${KIND_WORDS[kind]} of ${target.name} for ${ticker} from ${words(first)} to ${words(last)}: there is no latest period to count from.`,
    });
    if (this.nothing.size > 10_000) this.nothing.clear();
    this.nothing.set(`${today}|${ticker}|${kind}`, error);
    throw error;
  }
}

const words = (p: DatedPeriod): string =>
  p.period.kind === "annual" ? `fiscal ${p.year}` : `Q${p.period.n} FY${p.year}`;

/**
 * The latest-period search of a client's path: its probes ask the day's answers as any call does (cached,
 * coalesced, counted and priced), an inactive stock's last trade date is its coverage record, and where the
 * coverage list could not be had the walk asks the ticker's coverage (ticker-coverage.ts) where its data is
 * expected.
 */
export function resolverOn(
  answers: DayAnswers,
  coverage: TickerCoverage,
  resolutions: PeriodResolutions,
): PeriodResolver {
  return new PeriodResolver({
    today: () => answers.today(),
    resolutions,
    windowMs: answers.windowMs,
    coalescer: answers.coalescer,
    probe: (ticker, target, at) => probe(answers, coverage, ticker, target, at),
    lastTradeDate: async (ticker) => {
      const { value } = await answers.answer(RequestKey.security("inactive", ticker), undefined);
      return (value as { data: { last_trade_date?: string } }).data.last_trade_date;
    },
    uncovered: (ticker) => coverage.verdict(ticker),
  });
}

/** Whether the service has a value of `target` for the period: false for a "no data" answer. */
async function probe(
  answers: DayAnswers,
  coverage: TickerCoverage,
  ticker: string,
  target: ProbeTarget,
  at: DatedPeriod,
): Promise<boolean> {
  const dataset = findDataset(target.dataset);
  if (!dataset) throw new DataNotFoundError();
  const t = { dataset, ticker, year: at.year, period: at.period, name: target.name };
  try {
    if (target.whole)
      await coverage.track(
        ticker,
        answers.answer(RequestKey.data(dataset, ticker, at.year, at.period), undefined),
      );
    else await coverage.track(ticker, answers.datapoint(new DatapointKeys(t), undefined));
    return true;
  } catch (error) {
    if (isNoData(error, Boolean(findDatapoint(dataset, target.name)))) return false;
    throw error;
  }
}
