// The vendor's clock, in one place: the FDQ service lives on US Central time (America/Chicago, CST or CDT
// as the date has it). Its quota month turns on the 1st there (production-service.md, fact 11), it refreshes its data every
// day from 5:00 to 5:20 AM there (production-service.md, fact 13), and a value fetched before 5:20 belongs to the previous
// data day. Every function takes the instant from its caller (ms since the epoch), so each caller injects
// its own clock (a test's, a server's, the sandbox's) and none reads the time itself.

/** The vendor's time zone: its quota calendar, its refresh window and its refresh day. */
export const VENDOR_TIME_ZONE = "America/Chicago";

/** The daily refresh, in minutes after midnight US Central: [5:00, 5:20). */
export const REFRESH_WINDOW = { from: 5 * 60, until: 5 * 60 + 20 } as const;

/** When a refresh day begins: a time of day in a time zone (the vendor's is 05:20 US Central). */
export interface RefreshDayBoundary {
  hour: number;
  minute: number;
  /** IANA time zone, e.g. "America/New_York". */
  timeZone: string;
}

/** A data day starts when the refresh ends, 5:20 AM US Central. */
export const VENDOR_REFRESH_DAY: RefreshDayBoundary = {
  hour: Math.floor(REFRESH_WINDOW.until / 60),
  minute: REFRESH_WINDOW.until % 60,
  timeZone: VENDOR_TIME_ZONE,
};

/** A day's label as every day cache, ledger and store writes it: YYYY-MM-DD. */
export const DAY_LABEL = /^\d{4}-\d{2}-\d{2}$/;

/** Whether `text` has the shape of a day label (YYYY-MM-DD). */
export const isDayLabel = (text: unknown): text is string => typeof text === "string" && DAY_LABEL.test(text);

// Made on first use: a process's first Intl object costs 10-25 ms of ICU set-up that a process reading
// only its cache never needs.
let minuteFormat: Intl.DateTimeFormat | undefined;
let dayFormat: Intl.DateTimeFormat | undefined;

/** Minutes after midnight US Central of `ms`. */
export function centralMinutes(ms: number): number {
  minuteFormat ??= new Intl.DateTimeFormat("en-US", {
    timeZone: VENDOR_TIME_ZONE,
    hourCycle: "h23",
    hour: "numeric",
    minute: "numeric",
  });
  let hour = 0;
  let minute = 0;
  for (const part of minuteFormat.formatToParts(ms)) {
    if (part.type === "hour") hour = Number(part.value);
    else if (part.type === "minute") minute = Number(part.value);
  }
  return hour * 60 + minute;
}

/** Whether `ms` falls in the vendor's daily refresh, when the service may answer 503 or not at all. */
export function inRefreshWindow(ms: number): boolean {
  const m = centralMinutes(ms);
  return m >= REFRESH_WINDOW.from && m < REFRESH_WINDOW.until;
}

const HOUR_MS = 3_600_000;
/** US Central is 6 hours behind UTC in standard time and 5 in daylight time, never anything else. */
const CENTRAL_STANDARD_MS = -6 * HOUR_MS;
const CENTRAL_DAYLIGHT_MS = -5 * HOUR_MS;

/** YYYY-MM-DD of `ms` in US Central time (the quota's calendar day). */
export function centralDay(ms: number): string {
  // Both offsets name the same date except from 05:00 to 06:00 UTC: then only the time zone can say. A new
  // process's first Intl object costs 10-25 ms of ICU set-up, which a warm `fdq eval` (whose ledger asks
  // the month at start) would otherwise pay on every run.
  const standard = new Date(ms + CENTRAL_STANDARD_MS).toISOString().slice(0, 10);
  if (standard === new Date(ms + CENTRAL_DAYLIGHT_MS).toISOString().slice(0, 10)) return standard;
  dayFormat ??= new Intl.DateTimeFormat("en-CA", {
    timeZone: VENDOR_TIME_ZONE,
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
  });
  return dayFormat.format(ms);
}

/** YYYY-MM of `ms` in US Central time (the quota's month). */
export const centralMonth = (ms: number): string => centralDay(ms).slice(0, 7);

/** The first day of the month after `month` (YYYY-MM). */
export function nextMonthStart(month: string): string {
  const [y, m] = month.split("-").map(Number) as [number, number];
  return m === 12 ? `${y + 1}-01-01` : `${y}-${String(m + 1).padStart(2, "0")}-01`;
}

/** The day (YYYY-MM-DD, US Central) a quota spent at `ms` resets: the 1st of the next month. */
export const quotaResetsOn = (ms: number): string => nextMonthStart(centralMonth(ms));
