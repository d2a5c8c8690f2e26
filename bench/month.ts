// M1, a month: the model of monthModelWorkload refreshed on each of 21 consecutive trading days on an
// injected clock (the clients' `now` and the sandbox's), as a user who opens the workbook every morning
// would: a new client per day (a new Excel session) over a cache kept in storage across the days. It runs
// twice in step, under the strict refresh policy and under the saver, both billed per datapoint, against
// one sandbox that restates past fiscal years from a day in the middle of the month. Each policy's client
// has its own API key, so the sandbox meters each one's units apart; a third key serves the reference: a
// fresh per-request client without cache, run each day first, whose values are that day's answers.
import { type ClientOptions, DEFAULTS, FdqClient, MemoryStorage } from "../src/api";
import { evaluateAll } from "../src/functions/evaluate";
import { readFdqCall, type FdqCall } from "../src/functions/formula";
import { startSandbox, type RunningSandbox } from "../src/sandbox";
import { unitsBound } from "./lower-bound";
import type { MonthResult } from "./results-format";
import { round } from "./results-format";
import { staleness, valueKey, type DayAnswer, type PolicyUnderTest } from "./staleness";
import { sandboxUniverse } from "./universe";
import { formulaText, monthModelWorkload, workloadCells, type CellFetch } from "./workloads";

/** The month measured: fixed dates, so that every run asks the same periods and sees the same prices. */
export const MONTH = {
  /** A Monday; the 21 trading days end on Monday 30 March, all in one quota month. */
  start: "2026-03-02",
  days: 21,
  /** A Wednesday in the middle: values fetched on Monday 16 March are then kept restated-over by the saver. */
  restate: "2026-03-18",
  keepDays: 7,
  /** Only units matter here: a short latency keeps the month under a minute or two. */
  latencyMs: 2,
  /** Each refresh at 15:00 UTC, well after the 05:20 America/Chicago refresh-day boundary. */
  hourUtc: 15,
  plan: DEFAULTS.planUnits,
} as const;

const KEYS = {
  strict: "fdq-bench-month-strict",
  saver: "fdq-bench-month-saver",
  reference: "fdq-bench-month-reference",
} as const;

/** `count` consecutive trading days (Monday to Friday) from `start` on, as YYYY-MM-DD. */
export function tradingDays(start: string, count: number): string[] {
  const days: string[] = [];
  for (let t = Date.parse(`${start}T00:00:00Z`); days.length < count; t += 86_400_000) {
    const weekday = new Date(t).getUTCDay();
    if (weekday !== 0 && weekday !== 6) days.push(new Date(t).toISOString().slice(0, 10));
  }
  return days;
}

/** The refresh time of a day on the injected clock, in ms since the epoch. */
export const refreshTime = (day: string): number =>
  Date.parse(`${day}T${String(MONTH.hourUtc).padStart(2, "0")}:00:00Z`);

/**
 * The largest model of the same shape whose month fits the plan, scaled linearly from the measured units
 * per cell (every cell of the shape costs the same on average).
 */
export function maxCellsOnPlan(cells: number, unitsMonth: number, plan: number): number {
  return unitsMonth === 0 ? Infinity : Math.floor((plan * cells) / unitsMonth);
}

interface PolicyRun {
  readonly name: "strict" | "saver";
  readonly key: string;
  readonly options: Partial<ClientOptions>;
  readonly rule: PolicyUnderTest;
  readonly storage: MemoryStorage;
  readonly unitsByDay: number[];
  clientUnits: number;
  requests: number;
  beyond: number;
  kept: number;
  readonly beyondSamples: string[];
}

interface Refresh {
  readonly values: string[];
  readonly unitsSpent: number;
}

export interface MonthSettings {
  readonly maxConcurrent: number;
  readonly seed: number;
  readonly verbose: boolean;
}

function describeCell(cell: CellFetch): string {
  return cell.kind === "rating"
    ? `${cell.ticker} rating`
    : `${cell.ticker} ${cell.dataset.path} ${cell.name} ${cell.period.year}`;
}

export async function measureMonth(settings: MonthSettings): Promise<MonthResult> {
  const started = performance.now();
  const days = tradingDays(MONTH.start, MONTH.days);
  let now = refreshTime(days[0] as string);
  const sandbox: RunningSandbox = await startSandbox({
    port: 0,
    seed: settings.seed,
    latencyMs: MONTH.latencyMs,
    maxConcurrent: settings.maxConcurrent,
    now: () => new Date(now),
    restate: MONTH.restate,
    apiKeys: Object.values(KEYS),
  });
  try {
    const workload = monthModelWorkload(sandboxUniverse(settings.seed, new Date(now)));
    const cells = workloadCells(workload);
    const calls: FdqCall[] = workload.formulas.map((f) => readFdqCall(formulaText(f)));
    if (calls.length !== cells.length) throw new Error("M1 must be one cell per formula");

    const refresh = async (apiKey: string, options: Partial<ClientOptions>): Promise<Refresh> => {
      const client = new FdqClient({
        baseUrl: sandbox.baseUrl,
        apiKey,
        now: () => now,
        concurrency: settings.maxConcurrent,
        ...options,
      });
      try {
        await client.ready();
        const outcomes = await evaluateAll(client, calls);
        return { values: outcomes.map(valueKey), unitsSpent: client.stats().unitsSpent };
      } finally {
        await client.close();
      }
    };

    const policyRun = (
      name: PolicyRun["name"],
      options: Partial<ClientOptions>,
      rule: PolicyUnderTest,
    ): PolicyRun => ({
      name,
      key: KEYS[name],
      options: { billing: "per-datapoint", ...options },
      rule,
      storage: new MemoryStorage(),
      unitsByDay: [],
      clientUnits: 0,
      requests: 0,
      beyond: 0,
      kept: 0,
      beyondSamples: [],
    });
    const runs = [
      policyRun("strict", { refreshPolicy: { kind: "strict" } }, { kind: "strict" }),
      policyRun(
        "saver",
        { refreshPolicy: { kind: "saver", keepDays: MONTH.keepDays } },
        { kind: "saver", keepDays: MONTH.keepDays },
      ),
    ];
    const answers: DayAnswer[][] = cells.map(() => []);
    let errorCells = 0;
    const countErrors = (values: readonly string[]): void => {
      for (const v of values) if (v.startsWith("#error")) errorCells++;
    };

    for (const day of days) {
      now = refreshTime(day);
      const reference = await refresh(KEYS.reference, { billing: "per-request" });
      countErrors(reference.values);
      reference.values.forEach((value, i) => answers[i]!.push({ day, value }));
      for (const run of runs) {
        const [unitsBefore, requestsBefore] = [sandbox.usage(run.key), sandbox.stats().requests];
        const { values, unitsSpent } = await refresh(run.key, { ...run.options, storage: run.storage });
        run.unitsByDay.push(sandbox.usage(run.key) - unitsBefore);
        run.requests += sandbox.stats().requests - requestsBefore;
        run.clientUnits += unitsSpent;
        countErrors(values);
        values.forEach((value, i) => {
          const cell = cells[i]!;
          const verdict = staleness(cell, day, value, answers[i]!, run.rule);
          if (verdict === "kept") run.kept++;
          if (verdict !== "beyond") return;
          run.beyond++;
          if (run.beyondSamples.length < 5) {
            const today = answers[i]![answers[i]!.length - 1]!.value;
            run.beyondSamples.push(`${day} ${describeCell(cell)}: ${value}, the service ${today}`);
          }
        });
      }
      if (settings.verbose) {
        const [strict, saver] = runs as [PolicyRun, PolicyRun];
        console.error(
          `M1 ${day}: units strict ${strict.unitsByDay.at(-1)}, saver ${saver.unitsByDay.at(-1)}; ` +
            `stale beyond the policy: strict ${strict.beyond}, saver ${saver.beyond} (kept ${saver.kept})`,
        );
      }
    }

    const [strict, saver] = runs as [PolicyRun, PolicyRun];
    for (const run of runs) {
      if (run.beyondSamples.length > 0)
        console.error(
          `warning: M1 ${run.name}: stale beyond the policy, e.g. ${run.beyondSamples.join("; ")}`,
        );
      const metered = run.unitsByDay.reduce((a, b) => a + b, 0);
      if (metered !== run.clientUnits)
        console.error(
          `warning: M1 ${run.name}: the sandbox metered ${metered} units, the clients counted ${run.clientUnits}`,
        );
    }
    if (errorCells > 0) console.error(`warning: M1: ${errorCells} cell-days were errors`);
    const month = (run: PolicyRun): number => run.unitsByDay.reduce((a, b) => a + b, 0);
    return {
      workload: "M1",
      title: workload.title,
      cells: cells.length,
      days: days.length,
      first_day: days[0] as string,
      last_day: days[days.length - 1] as string,
      restate: MONTH.restate,
      keep_days: MONTH.keepDays,
      units_bound: unitsBound(cells),
      units_first_day_strict: strict.unitsByDay[0] ?? 0,
      units_first_day_saver: saver.unitsByDay[0] ?? 0,
      units_month_strict: month(strict),
      units_month_saver: month(saver),
      client_units_month_strict: strict.clientUnits,
      client_units_month_saver: saver.clientUnits,
      units_by_day_strict: strict.unitsByDay,
      units_by_day_saver: saver.unitsByDay,
      requests_month_strict: strict.requests,
      requests_month_saver: saver.requests,
      plan: MONTH.plan,
      max_cells_on_plan_strict: maxCellsOnPlan(cells.length, month(strict), MONTH.plan),
      max_cells_on_plan_saver: maxCellsOnPlan(cells.length, month(saver), MONTH.plan),
      stale_cells_beyond_policy: saver.beyond,
      stale_cells_within_policy: saver.kept,
      stale_cells_strict: strict.beyond,
      error_cells: errorCells,
      seconds: round((performance.now() - started) / 1000, 1),
    };
  } finally {
    await sandbox.close();
  }
}
