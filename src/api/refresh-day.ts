// The refresh day an instant belongs to: the local calendar date in the boundary's time zone, minus one
// day before the boundary time. Labels are YYYY-MM-DD.
import { InvalidArgumentError } from "./errors";
import type { RefreshDayBoundary } from "./types";
import { isDayLabel, VENDOR_TIME_ZONE } from "./vendor-clock";

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
export const DAY_MS = 24 * HOUR_MS;

/**
 * Zones every ICU build knows: their check is skipped, because a process's first Intl object costs
 * 10-25 ms of ICU set-up, which a process that only reads a cache saved with its refresh-day window (see
 * `adopt`) never needs.
 */
const KNOWN_ZONES: ReadonlySet<string> = new Set(["UTC", "America/New_York", VENDOR_TIME_ZONE]);

/** The UTC offsets (hours) the known zones use, standard and daylight time. */
const KNOWN_OFFSETS_H: Readonly<Record<string, readonly number[]>> = {
  UTC: [0],
  "America/New_York": [-5, -4],
  [VENDOR_TIME_ZONE]: [-6, -5],
};

/** An interval of instants [from, until) (ms since the epoch) that all belong to refresh day `label`. */
export interface RefreshDayWindow {
  readonly label: string;
  readonly from: number;
  readonly until: number;
}

export class RefreshDayClock {
  private formatter: Intl.DateTimeFormat | undefined;
  private readonly boundaryMinutes: number;
  /** Identifies the boundary, so that a window saved under another boundary is not adopted. */
  readonly key: string;
  private memo: RefreshDayWindow = { label: "", from: 0, until: 0 };

  constructor(private readonly boundary: RefreshDayBoundary) {
    const { hour, minute, timeZone } = boundary;
    if (
      !Number.isInteger(hour) ||
      hour < 0 ||
      hour > 23 ||
      !Number.isInteger(minute) ||
      minute < 0 ||
      minute > 59
    ) {
      throw new InvalidArgumentError({
        argument: "refreshDay",
        message: `refreshDay: ${hour}:${minute} is not a time of day.`,
      });
    }
    if (!KNOWN_ZONES.has(timeZone)) this.format();
    this.boundaryMinutes = hour * 60 + minute;
    this.key = `${hour}:${minute} ${timeZone}`;
  }

  private format(): Intl.DateTimeFormat {
    if (this.formatter) return this.formatter;
    try {
      return (this.formatter = new Intl.DateTimeFormat("en-US", {
        timeZone: this.boundary.timeZone,
        hourCycle: "h23",
        year: "numeric",
        month: "numeric",
        day: "numeric",
        hour: "numeric",
        minute: "numeric",
      }));
    } catch (cause) {
      const message = `refreshDay: unknown time zone "${this.boundary.timeZone}".`;
      throw new InvalidArgumentError({ argument: "refreshDay", message, cause });
    }
  }

  /** Refresh-day label of an instant (ms since the epoch). */
  label(nowMs: number): string {
    // One Intl call per refresh day: the window found last holds every instant until the next boundary.
    if (!(nowMs >= this.memo.from && nowMs < this.memo.until)) this.memo = this.compute(nowMs);
    return this.memo.label;
  }

  /** The window the last label came from (for saving beside data of that day). */
  window(): RefreshDayWindow {
    return this.memo;
  }

  /**
   * Takes a window saved by a clock with the same key; labels inside it then need no Intl call. Answers
   * whether it was taken: a window that does not end at its label's boundary is refused, since an edited
   * span would make an earlier day's answers count as today's (issue 13).
   */
  adopt(saved: RefreshDayWindow): boolean {
    const { label, from, until } = saved;
    if (!isDayLabel(label)) return false;
    if (!Number.isFinite(from) || !Number.isFinite(until) || from >= until || until - from > DAY_MS + HOUR_MS)
      return false;
    if (!this.endsAtBoundary(label, until)) return false;
    this.memo = { label, from, until };
    return true;
  }

  /**
   * Whether `until` is the boundary that ends refresh day `label`. For the zones known without Intl, the
   * boundary's wall time minus one of the zone's UTC offsets; for any other zone Intl is set up already
   * (the constructor checks the zone), so the window is computed again and compared.
   */
  private endsAtBoundary(label: string, until: number): boolean {
    const dayStart = Date.parse(`${label}T00:00:00Z`);
    if (!Number.isFinite(dayStart)) return false;
    const offsets = KNOWN_OFFSETS_H[this.boundary.timeZone];
    if (offsets) {
      const wall = dayStart + DAY_MS + this.boundaryMinutes * MINUTE_MS;
      return offsets.some((h) => until === wall - h * HOUR_MS);
    }
    const fresh = this.compute(until - MINUTE_MS);
    return fresh.label === label && fresh.until === until;
  }

  /** Local wall time of an instant as if it were UTC, in ms (whole minutes). */
  private wallMs(nowMs: number): number {
    const parts: Record<string, number> = {};
    for (const p of this.format().formatToParts(nowMs))
      if (p.type !== "literal") parts[p.type] = Number(p.value);
    const { year = 0, month = 1, day = 1, hour = 0, minute = 0 } = parts;
    return Date.UTC(year, month - 1, day, hour, minute);
  }

  private compute(nowMs: number): RefreshDayWindow {
    const from = Math.floor(nowMs / MINUTE_MS) * MINUTE_MS;
    const wall = this.wallMs(nowMs);
    const offset = wall - from;
    // Date.UTC-based arithmetic on wall times only: whole days are 24 h here, whatever the zone does.
    const labelDay = Math.floor((wall - this.boundaryMinutes * MINUTE_MS) / DAY_MS) * DAY_MS;
    const label = new Date(labelDay).toISOString().slice(0, 10);
    // The next boundary, if the zone's offset stays as it is now. When the offset is the same one minute
    // before it, wall time ran evenly in between (offset changes are months apart), so the label held.
    const next = labelDay + DAY_MS + this.boundaryMinutes * MINUTE_MS - offset;
    const last = next - MINUTE_MS;
    const until = last >= from && this.wallMs(last) - last === offset ? next : from + MINUTE_MS;
    return { label, from, until };
  }
}
