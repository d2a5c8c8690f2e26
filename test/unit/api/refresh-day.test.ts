// The refresh-day label of an instant: local date in the boundary's time zone, minus one before the boundary.
import { InvalidArgumentError, RefreshDayClock } from "../../../src/api";
import { DEFAULTS } from "../../../src/api/defaults";

describe("refresh day", () => {
  const central = new RefreshDayClock(DEFAULTS.refreshDay);

  it("defaults to 05:20 America/Chicago, after the vendor's daily refresh (wire-notes 13)", () => {
    expect(DEFAULTS.refreshDay).toEqual({ hour: 5, minute: 20, timeZone: "America/Chicago" });
  });

  it.each([
    ["2024-03-15T10:19:59Z", "2024-03-14"], // 05:19 CDT: the vendor is still refreshing
    ["2024-03-15T10:20:00Z", "2024-03-15"], // 05:20 CDT
    ["2024-01-15T11:19:00Z", "2024-01-14"], // 05:19 CST
    ["2024-01-15T11:20:00Z", "2024-01-15"], // 05:20 CST
    ["2024-03-10T09:30:00Z", "2024-03-09"], // 04:30 CDT on the day clocks go forward
    ["2024-03-10T10:20:00Z", "2024-03-10"],
    ["2024-11-03T11:19:00Z", "2024-11-02"], // 05:19 CST on the day clocks go back
    ["2024-11-03T11:20:00Z", "2024-11-03"],
    ["2024-01-01T11:00:00Z", "2023-12-31"], // 05:00 CST: still the last refresh day of the year before
    ["2024-03-01T11:19:00Z", "2024-02-29"], // leap day
  ])("labels %s as %s", (instant, label) => {
    expect(central.label(Date.parse(instant))).toBe(label);
  });

  it("uses the configured time and zone", () => {
    const tokyo = new RefreshDayClock({ hour: 0, minute: 30, timeZone: "Asia/Tokyo" });
    expect(tokyo.label(Date.parse("2024-03-14T15:29:00Z"))).toBe("2024-03-14"); // 00:29 JST on the 15th
    expect(tokyo.label(Date.parse("2024-03-14T15:30:00Z"))).toBe("2024-03-15");
  });

  it("rejects an unknown time zone or an impossible time", () => {
    const make = () => new RefreshDayClock({ hour: 6, minute: 0, timeZone: "Mars/Olympus" });
    expect(make).toThrow(InvalidArgumentError);
    expect(make).toThrow('refreshDay: unknown time zone "Mars/Olympus".');
    expect(() => new RefreshDayClock({ hour: 24, minute: 0, timeZone: "UTC" })).toThrow(
      "refreshDay: 24:0 is not a time of day.",
    );
  });
});
