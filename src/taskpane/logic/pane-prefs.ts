// The pane's own preferences and records, in OfficeRuntime.storage beside the request module's settings.
import { DEFAULTS, type KeyValueStore } from "../../api";

const KEYS = {
  autoRefresh: "fdq.pane.autoRefresh",
  lastRefresh: "fdq.pane.lastRefresh",
  usage: "fdq.pane.usage",
  planUnits: "fdq.pane.planUnits",
} as const;

export interface LastRefresh {
  /** Refresh day (YYYY-MM-DD) the refresh belonged to. */
  readonly day: string;
  /** When it finished, ms since the epoch. */
  readonly at: number;
}

/** Requests and cache hits counted over one refresh day. */
export interface DailyUsage {
  readonly day: string;
  readonly requests: number;
  readonly cacheHits: number;
}

function parseJson<T>(text: string | null | undefined, valid: (v: unknown) => v is T): T | undefined {
  if (text === null || text === undefined) return undefined;
  try {
    const value: unknown = JSON.parse(text);
    return valid(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null;
const isLastRefresh = (v: unknown): v is LastRefresh =>
  isRecord(v) && typeof v.day === "string" && typeof v.at === "number";
const isUsage = (v: unknown): v is DailyUsage =>
  isRecord(v) &&
  typeof v.day === "string" &&
  typeof v.requests === "number" &&
  typeof v.cacheHits === "number";

export class PanePrefs {
  constructor(private readonly storage: KeyValueStore) {}

  /** Refresh when the workbook opens on a new refresh day: on unless turned off. */
  async autoRefresh(): Promise<boolean> {
    return (await this.storage.get(KEYS.autoRefresh)) !== "false";
  }

  setAutoRefresh(on: boolean): Promise<void> {
    return this.storage.set(KEYS.autoRefresh, on ? "true" : "false");
  }

  async lastRefresh(): Promise<LastRefresh | undefined> {
    return parseJson(await this.storage.get(KEYS.lastRefresh), isLastRefresh);
  }

  setLastRefresh(last: LastRefresh): Promise<void> {
    return this.storage.set(KEYS.lastRefresh, JSON.stringify(last));
  }

  /** The monthly plan's units as the user set them; the member plans' 10,000 until then. */
  async planUnits(): Promise<number> {
    const n = Number(await this.storage.get(KEYS.planUnits));
    return Number.isSafeInteger(n) && n >= 1 ? n : DEFAULTS.planUnits;
  }

  setPlanUnits(units: number): Promise<void> {
    if (!Number.isSafeInteger(units) || units < 1)
      throw new RangeError(`plan units must be >= 1, got ${units}`);
    return this.storage.set(KEYS.planUnits, String(units));
  }

  /** Today's usage; a record of an earlier refresh day counts as zero. */
  async usage(day: string): Promise<DailyUsage> {
    const stored = parseJson(await this.storage.get(KEYS.usage), isUsage);
    return stored?.day === day ? stored : { day, requests: 0, cacheHits: 0 };
  }

  async addUsage(day: string, requests: number, cacheHits: number): Promise<DailyUsage> {
    const current = await this.usage(day);
    const next = { day, requests: current.requests + requests, cacheHits: current.cacheHits + cacheHits };
    if (requests !== 0 || cacheHits !== 0) await this.storage.set(KEYS.usage, JSON.stringify(next));
    return next;
  }
}
