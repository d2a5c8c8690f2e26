// Excel's array lifting as the pane and `fdq refresh` plan it: the result's shape, which cell of each range
// each call gets, and #N/A beyond a smaller range.
import { BEYOND_RANGE, isLiftable, isMultiCell, lift } from "../../../src/functions/lifting";
import type { FunctionName } from "../../../src/functions/signatures";

describe("lift", () => {
  it("makes one call per cell of a column range, the other arguments repeated", () => {
    expect(
      lift<string | number>([{ cells: [["AAPL"], ["MSFT"], ["NFLX"]] }, { value: "roic" }, { value: 2023 }]),
    ).toEqual({
      rows: 3,
      columns: 1,
      calls: [[["AAPL", "roic", 2023]], [["MSFT", "roic", 2023]], [["NFLX", "roic", 2023]]],
    });
  });

  it("broadcasts a column against a row into a table (rows x columns)", () => {
    const { rows, columns, calls } = lift<string | number>([
      { cells: [["A"], ["B"]] },
      { cells: [[2021, 2022, 2023]] },
    ]);
    expect([rows, columns]).toEqual([2, 3]);
    expect(calls).toEqual([
      [
        ["A", 2021],
        ["A", 2022],
        ["A", 2023],
      ],
      [
        ["B", 2021],
        ["B", 2022],
        ["B", 2023],
      ],
    ]);
  });

  it("pairs ranges of one shape cell by cell", () => {
    expect(lift<string | number>([{ cells: [["A"], ["B"]] }, { cells: [[1], [2]] }]).calls).toEqual([
      [["A", 1]],
      [["B", 2]],
    ]);
  });

  it("gives the cells beyond a smaller range no call (Excel shows #N/A there)", () => {
    const { rows, columns, calls } = lift<string | number>([
      { cells: [["A"], ["B"], ["C"]] },
      { cells: [[1], [2]] },
    ]);
    expect([rows, columns]).toEqual([3, 1]);
    expect(calls).toEqual([[["A", 1]], [["B", 2]], [BEYOND_RANGE]]);
    // A 2x2 range against a 1x3 row: the row repeats down, the third column is beyond the 2x2.
    expect(
      lift<string | number>([
        {
          cells: [
            ["a", "b"],
            ["c", "d"],
          ],
        },
        { cells: [[1, 2, 3]] },
      ]).calls,
    ).toEqual([
      [["a", 1], ["b", 2], BEYOND_RANGE],
      [["c", 1], ["d", 2], BEYOND_RANGE],
    ]);
  });

  it("knows which functions Excel lifts and what counts as a range of several cells", () => {
    const scalar: FunctionName[] = ["DATAPOINT", "RATING", "SECTOR", "SECURITY", "INFO", "CARD"];
    const spilling: FunctionName[] = ["DATASET", "SERIES", "COVERAGE"];
    expect([scalar.every(isLiftable), spilling.some(isLiftable)]).toEqual([true, false]);
    expect([isMultiCell([["x"]]), isMultiCell([["x", "y"]]), isMultiCell([["x"], ["y"]])]).toEqual([
      false,
      true,
      true,
    ]);
  });
});
