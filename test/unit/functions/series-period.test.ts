// FDQ.SERIES's period argument: its quarters and ttm windows are the catalog's period numbers (src/catalog
// period.ts), not a list of its own, and each becomes the request of that period for every year.
import { InvalidArgumentError } from "../../../src/api";
import { PERIOD_NUMBERS } from "../../../src/catalog";
import { requestsOf } from "../../../src/functions/requests";
import { parseSeriesPeriod } from "../../../src/functions/impl/series";

const refusal = (text: string) => `period must be annual, Q1..Q4 or TTM1..TTM4 (got "${text}").`;

describe("FDQ.SERIES period", () => {
  it("takes Qn and TTMn for exactly the catalog's period numbers, any case and spacing", () => {
    for (const n of PERIOD_NUMBERS) {
      expect(parseSeriesPeriod(`Q${n}`)).toEqual({ quarter: n });
      expect(parseSeriesPeriod(`ttm ${n}`)).toEqual({ ttm: n });
    }
    expect(parseSeriesPeriod("Annual")).toEqual({});
    expect(parseSeriesPeriod(null)).toEqual({});
  });

  it.each(["Q0", "Q5", "TTM5", "Q01", "Q", "quarterly"])("refuses %s with the periods it takes", (text) => {
    expect(() => parseSeriesPeriod(text)).toThrow(InvalidArgumentError);
    expect(() => parseSeriesPeriod(text)).toThrow(refusal(text));
  });

  it("asks each year for the chosen quarter", async () => {
    const requests = await requestsOf({ name: "SERIES", args: ["AAPL", "roic", "ROIC", 2022, 2023, "Q4"] });
    expect(requests.map((r) => r.kind === "datapoint" && [r.request.year, r.request.quarter])).toEqual([
      [2022, 4],
      [2023, 4],
    ]);
  });
});
