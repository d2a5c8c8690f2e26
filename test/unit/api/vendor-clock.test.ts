// The vendor's clock (src/api/vendor-clock.ts): US Central time, CST or CDT as the date has it; the daily
// refresh from 5:00 to 5:20; the data day starting at 5:20; the quota month turning on the 1st.
import {
  DAY_LABEL,
  VENDOR_REFRESH_DAY,
  VENDOR_TIME_ZONE,
  centralDay,
  centralMinutes,
  centralMonth,
  inRefreshWindow,
  isDayLabel,
  nextMonthStart,
  quotaResetsOn,
} from "../../../src/api/vendor-clock";
import { RefreshDayClock } from "../../../src/api/refresh-day";

const at = (iso: string): number => Date.parse(iso);

describe("the vendor's time zone", () => {
  it("is America/Chicago, and the data day starts at 5:20 there", () => {
    expect(VENDOR_TIME_ZONE).toBe("America/Chicago");
    expect(VENDOR_REFRESH_DAY).toEqual({ hour: 5, minute: 20, timeZone: "America/Chicago" });
  });

  it("centralMinutes counts minutes after midnight in CST in winter and in CDT in summer", () => {
    expect(centralMinutes(at("2025-01-15T11:07:00Z"))).toBe(5 * 60 + 7); // UTC-6
    expect(centralMinutes(at("2025-07-15T10:07:00Z"))).toBe(5 * 60 + 7); // UTC-5
  });
});

describe("inRefreshWindow: [05:00, 05:20) US Central", () => {
  it.each([
    ["2025-03-09T10:59:59Z", false], // DST starts at 02:00 that night: 05:59:59 CDT
    ["2025-03-09T10:00:00Z", true], // 05:00 CDT
    ["2025-03-08T11:00:00Z", true], // the day before: 05:00 CST
    ["2025-11-02T10:00:00Z", false], // DST ends at 02:00 that night: 04:00 CST
    ["2025-11-02T11:19:59Z", true], // 05:19:59 CST
    ["2025-11-02T11:20:00Z", false],
    ["2025-11-01T10:00:00Z", true], // the day before: 05:00 CDT
    ["2025-11-01T09:59:59Z", false], // 04:59:59 CDT
  ])("%s -> %p", (iso, expected) => {
    expect(inRefreshWindow(at(iso))).toBe(expected);
  });
});

describe("day labels", () => {
  it("centralDay is the calendar day in US Central, not in UTC", () => {
    expect(centralDay(at("2026-03-01T05:59:00Z"))).toBe("2026-02-28"); // 23:59 CST
    expect(centralDay(at("2026-03-01T06:00:00Z"))).toBe("2026-03-01");
  });

  it("the refresh day of the same instant starts at 5:20 there, so it may be the day before", () => {
    const clock = new RefreshDayClock(VENDOR_REFRESH_DAY);
    const t = at("2026-03-02T11:19:00Z"); // 05:19 CST
    expect([centralDay(t), clock.label(t)]).toEqual(["2026-03-02", "2026-03-01"]);
    expect(clock.label(at("2026-03-02T11:20:00Z"))).toBe("2026-03-02");
  });

  it("a label is YYYY-MM-DD and nothing else", () => {
    expect(["2026-03-01", "2026-3-1", "2026-03-01T00", 20260301].map(isDayLabel)).toEqual([
      true,
      false,
      false,
      false,
    ]);
    expect(DAY_LABEL.test(centralDay(Date.now()))).toBe(true);
  });
});

describe("the quota month", () => {
  it("turns on the 1st, US Central: the evening of the last day in Chicago is still the old month", () => {
    expect(centralMonth(at("2026-05-01T04:59:00Z"))).toBe("2026-04"); // 23:59 CDT, April 30
    expect(quotaResetsOn(at("2026-05-01T04:59:00Z"))).toBe("2026-05-01");
    expect(quotaResetsOn(at("2026-05-01T05:00:00Z"))).toBe("2026-06-01");
  });

  it("nextMonthStart rolls December into January of the next year", () => {
    expect(nextMonthStart("2026-12")).toBe("2027-01-01");
    expect(nextMonthStart("2026-09")).toBe("2026-10-01");
  });
});
