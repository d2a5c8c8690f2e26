// The vendor's daily refresh window (wire-notes 13): from 05:00 to 05:20 US Central time, every day, the API
// may not answer. With --refresh-window the sandbox answers every /v1 request in that window with 503.

const CHICAGO = new Intl.DateTimeFormat("en-US", {
  timeZone: "America/Chicago",
  hour: "numeric",
  minute: "numeric",
  hourCycle: "h23",
});

/** Whether the instant falls in [05:00, 05:20) America/Chicago local time (CST or CDT, as the date has it). */
export function inRefreshWindow(now: Date): boolean {
  let hour = NaN;
  let minute = NaN;
  for (const part of CHICAGO.formatToParts(now)) {
    if (part.type === "hour") hour = Number(part.value);
    else if (part.type === "minute") minute = Number(part.value);
  }
  return hour === 5 && minute < 20;
}
