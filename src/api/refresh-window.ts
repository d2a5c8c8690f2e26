// The vendor's daily data refresh, 5:00-5:20 AM US Central (wire-notes 13): the API may answer 503 or
// not at all then, and a value fetched before 5:20 CT belongs to the previous data day.
import { DEFAULTS } from "./defaults";

let minuteFormat: Intl.DateTimeFormat | undefined;

/** Minutes after midnight US Central of `ms`. */
export function centralMinutes(ms: number): number {
  minuteFormat ??= new Intl.DateTimeFormat("en-US", {
    timeZone: "America/Chicago",
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

export function inRefreshWindow(ms: number): boolean {
  const m = centralMinutes(ms);
  return m >= DEFAULTS.refreshWindow.from && m < DEFAULTS.refreshWindow.until;
}
