// The quota calendar's day (US Central): what the time zone says, at every hour of the days around the
// daylight-time changes and the turns of a month and a year, without Intl away from the ambiguous hour.
import { centralDay } from "../../../src/api/vendor-clock";

const byTimeZone = new Intl.DateTimeFormat("en-CA", {
  timeZone: "America/Chicago",
  year: "numeric",
  month: "2-digit",
  day: "2-digit",
});

describe("centralDay", () => {
  it.each([
    ["the start of daylight time", "2026-03-07T00:00:00Z"],
    ["the end of daylight time", "2026-10-31T00:00:00Z"],
    ["the turn of a year", "2025-12-30T00:00:00Z"],
    ["the turn of a month in daylight time", "2026-06-29T00:00:00Z"],
  ])("names the US Central date at every quarter hour around %s", (_, start) => {
    const from = Date.parse(start);
    for (let ms = from; ms < from + 4 * 24 * 3_600_000; ms += 15 * 60_000) {
      expect([new Date(ms).toISOString(), centralDay(ms)]).toEqual([
        new Date(ms).toISOString(),
        byTimeZone.format(ms),
      ]);
    }
  });

  it("refuses an instant that is not a time as the time zone does", () => {
    expect(() => centralDay(Number.NaN)).toThrow(RangeError);
  });
});
