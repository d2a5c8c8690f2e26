// The refresh-day label of an instant: local date in the boundary's time zone, minus one before the boundary.
import { InvalidArgumentError, RefreshDayClock } from "../../../src/api";
import { DEFAULTS } from "../../../src/api/defaults";

describe("refresh day", () => {
  const ny = new RefreshDayClock(DEFAULTS.refreshDay);

  it("defaults to 06:00 America/New_York", () => {
    expect(DEFAULTS.refreshDay).toEqual({ hour: 6, minute: 0, timeZone: "America/New_York" });
  });

  it.each([
    ["2024-03-15T09:59:59Z", "2024-03-14"], // 05:59 EDT
    ["2024-03-15T10:00:00Z", "2024-03-15"], // 06:00 EDT
    ["2024-01-15T10:59:00Z", "2024-01-14"], // 05:59 EST
    ["2024-01-15T11:00:00Z", "2024-01-15"], // 06:00 EST
    ["2024-03-10T09:30:00Z", "2024-03-09"], // 05:30 EDT on the day clocks go forward
    ["2024-03-10T10:00:00Z", "2024-03-10"],
    ["2024-11-03T10:59:00Z", "2024-11-02"], // 05:59 EST on the day clocks go back
    ["2024-11-03T11:00:00Z", "2024-11-03"],
    ["2024-01-01T10:00:00Z", "2023-12-31"], // 05:00 EST: still the last refresh day of the year before
    ["2024-03-01T10:59:00Z", "2024-02-29"], // leap day
  ])("labels %s as %s", (instant, label) => {
    expect(ny.label(Date.parse(instant))).toBe(label);
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
