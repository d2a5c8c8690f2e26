// The FDQ functions as fdq refresh's formula engine calls them: one value per argument, a lifted range
// (one call per cell, #N/A beyond a smaller range, an error cell passed on), and a spilling function's range
// refused with ranges.ts's message.
import { FormulaError, type FunctionArg } from "fast-formula-parser";
import { fdqFunctions, callKey } from "../../../src/cli/workbook/fdq-functions";
import type { FdqCall } from "../../../src/functions/formula";

/** A call site that answers every call with its key and records the calls asked. */
function site() {
  const asked: FdqCall[] = [];
  const functions = fdqFunctions({
    argumentsIncomplete: () => false,
    canLift: () => true,
    answerOf: (call) => {
      asked.push(call);
      return callKey(call);
    },
  });
  return { asked, functions };
}

const value = (v: unknown): FunctionArg => ({ value: v, isArray: false });
const range = (rows: unknown[][]): FunctionArg => ({ value: rows, isArray: true, isRangeRef: true });

describe("fdq refresh's FDQ functions", () => {
  it("makes one call for one value per argument; a 1x1 range is its value", () => {
    const { asked, functions } = site();
    const result = functions["FDQ.DATAPOINT"]!(range([["AAPL"]]), value("roic"), value("ROIC"), value(2023));
    expect(asked).toEqual([{ name: "DATAPOINT", args: ["AAPL", "roic", "ROIC", 2023] }]);
    expect(result).toBe(callKey(asked[0]!));
  });

  it("lifts a scalar function: one call per cell, #N/A beyond a smaller range, an error cell passed on", () => {
    const { asked, functions } = site();
    const result = functions["FDQ.DATAPOINT"]!(
      range([["AAPL"], [FormulaError.REF], ["NFLX"]]),
      value("roic"),
      value("ROIC"),
      range([[2022], [2023]]),
    );
    expect(asked).toEqual([{ name: "DATAPOINT", args: ["AAPL", "roic", "ROIC", 2022] }]);
    expect(result).toEqual([[callKey(asked[0]!)], [FormulaError.REF], [FormulaError.NA]]);
  });

  it("broadcasts a column of tickers against a row of years", () => {
    const { asked, functions } = site();
    const result = functions["FDQ.RATING"]!(range([["AAPL"], ["MSFT"]]), range([["roic", "costs"]]));
    expect(asked.map((c) => c.args)).toEqual([
      ["AAPL", "roic"],
      ["AAPL", "costs"],
      ["MSFT", "roic"],
      ["MSFT", "costs"],
    ]);
    expect(result).toEqual([asked.slice(0, 2).map(callKey), asked.slice(2).map(callKey)]);
  });

  it("answers a spilling function given a range with #VALUE! naming the argument, without a call", () => {
    const { asked, functions } = site();
    const result = functions["FDQ.SERIES"]!(
      value("AAPL"),
      value("roic"),
      value("ROIC"),
      range([[2020, 2021]]),
      value(2022),
    );
    expect(asked).toEqual([]);
    expect(result).toBeInstanceOf(FormulaError);
    expect([(result as FormulaError).error, (result as FormulaError).message]).toEqual([
      "#VALUE!",
      "from_year must be one cell, not a range of 2 cells (1 row by 2 columns): FDQ.SERIES spills a table of " +
        "its own, so Excel cannot repeat it for each cell.",
    ]);
  });
});
