// The refresh day an instant belongs to: the local calendar date in the boundary's time zone, minus one
// day before the boundary time. Labels are YYYY-MM-DD.
import { InvalidArgumentError } from "./errors";
import type { RefreshDayBoundary } from "./types";

const MINUTE_MS = 60_000;

export class RefreshDayClock {
  private readonly format: Intl.DateTimeFormat;
  private readonly boundaryMinutes: number;
  private memoMinute = Number.NaN;
  private memoLabel = "";

  constructor(boundary: RefreshDayBoundary) {
    const { hour, minute, timeZone } = boundary;
    if (
      !Number.isInteger(hour) ||
      hour < 0 ||
      hour > 23 ||
      !Number.isInteger(minute) ||
      minute < 0 ||
      minute > 59
    ) {
      throw new InvalidArgumentError("refreshDay", `refreshDay: ${hour}:${minute} is not a time of day.`);
    }
    try {
      this.format = new Intl.DateTimeFormat("en-US", {
        timeZone,
        hourCycle: "h23",
        year: "numeric",
        month: "numeric",
        day: "numeric",
        hour: "numeric",
        minute: "numeric",
      });
    } catch (cause) {
      throw new InvalidArgumentError("refreshDay", `refreshDay: unknown time zone "${timeZone}".`, { cause });
    }
    this.boundaryMinutes = hour * 60 + minute;
  }

  /** Refresh-day label of an instant (ms since the epoch). */
  label(nowMs: number): string {
    // Time zone offsets are whole minutes, so the label is constant within a UTC minute: one Intl call per minute.
    const minute = Math.floor(nowMs / MINUTE_MS);
    if (minute !== this.memoMinute) {
      this.memoLabel = this.compute(nowMs);
      this.memoMinute = minute;
    }
    return this.memoLabel;
  }

  private compute(nowMs: number): string {
    const parts: Record<string, number> = {};
    for (const p of this.format.formatToParts(nowMs))
      if (p.type !== "literal") parts[p.type] = Number(p.value);
    const { year = 0, month = 1, day = 1, hour = 0, minute = 0 } = parts;
    const before = hour * 60 + minute < this.boundaryMinutes;
    // Date.UTC only does calendar arithmetic here (day - 1 rolls months and years); no zone is involved.
    return new Date(Date.UTC(year, month - 1, before ? day - 1 : day)).toISOString().slice(0, 10);
  }
}
