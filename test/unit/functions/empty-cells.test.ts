// An empty referenced cell reaches a function as 0 on Excel for Windows and as null on the web
// (office-js#4702): wherever 0 is no valid value, both give the same requests and the same value.
import { checkDatapointRequest, type DatapointRequest } from "../../../src/api";
import type { FdqCall } from "../../../src/functions/formula";
import { requestsOf } from "../../../src/functions/requests";

/** The requests of a call with its empty cells passed as the desktop (0) and the web (null) pass them. */
async function bothPlatforms(name: FdqCall["name"], args: (string | number | null)[]) {
  const as = (empty: 0 | null) => args.map((a) => (a === null ? empty : a));
  return {
    desktop: await requestsOf({ name, args: as(0) }),
    web: await requestsOf({ name, args: as(null) }),
  };
}

describe("empty optional cells on both platforms", () => {
  it.each([
    ["DATAPOINT quarter and ttm", "DATAPOINT", ["AAPL", "roic", "ROIC", 2023, null, null]],
    ["DATASET quarter, ttm and with_signs", "DATASET", ["AAPL", "roic", 2023, null, null, null]],
    ["SERIES period", "SERIES", ["AAPL", "roic", "ROIC", 2021, 2023, null]],
    ["RATING field", "RATING", ["AAPL", null]],
    ["SECURITY type", "SECURITY", ["AAPL", "name", null]],
    ["INFO field", "INFO", ["ROIC", null]],
  ] as const)("treats 0 as omitted for %s", async (_what, name, args) => {
    const { desktop, web } = await bothPlatforms(name, [...args]);
    expect(desktop).toEqual(web);
    expect(desktop.length).toBeGreaterThan(0);
  });

  it("keeps 0 where it is a valid value: SECTOR's prior_year 0 is the last fiscal year", async () => {
    const [zero] = await requestsOf({ name: "SECTOR", args: ["TECHNOLOGYSEC", "ROIC_AVG", 0] });
    expect(zero).toEqual({
      kind: "sector",
      request: { id: "TECHNOLOGYSEC", name: "ROIC_AVG", priorYear: 0 },
    });
  });

  it("still refuses a quarter that is neither empty nor 1 to 4", async () => {
    const [recorded] = await requestsOf({ name: "DATAPOINT", args: ["AAPL", "roic", "ROIC", 2023, 5] });
    expect(recorded?.kind).toBe("datapoint");
    const request = (recorded as { request: DatapointRequest }).request;
    expect(() => checkDatapointRequest(request)).toThrow("quarter must be 1, 2, 3 or 4 (got 5).");
  });
});
