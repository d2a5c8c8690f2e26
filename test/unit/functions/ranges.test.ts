// The spilling functions' matrix parameters: one cell is its value, a range of several cells is refused.
import { InvalidArgumentError } from "../../../src/api";
import { singleCell, singleCells } from "../../../src/functions/ranges";

describe("a matrix-declared argument of DATASET, SERIES or COVERAGE", () => {
  it("gives the value of a one-cell range or a typed value (Excel passes it as 1x1)", () => {
    expect(singleCell([["AAPL"]], "ticker", "DATASET")).toBe("AAPL");
    expect(singleCell([[0]], "quarter", "DATASET")).toBe(0);
    expect(singleCell([[null]], "quarter", "DATASET")).toBeNull();
  });

  it("passes on a value that is no array (the CLI's parser) and counts an empty matrix as omitted", () => {
    expect(singleCell(2023, "year", "DATASET")).toBe(2023);
    expect(singleCell(null, "quarter", "DATASET")).toBeNull();
    expect(singleCell(undefined, "quarter", "DATASET")).toBeUndefined();
    expect(singleCell([], "quarter", "DATASET")).toBeNull();
  });

  it("refuses a range of several cells, naming the argument and the range's size", () => {
    const refuse = () => singleCell([[2022, 2023]], "to_year", "SERIES");
    expect(refuse).toThrow(InvalidArgumentError);
    expect(refuse).toThrow(
      "to_year must be one cell, not a range of 2 cells (1 row by 2 columns): FDQ.SERIES spills a table of its own, so Excel cannot repeat it for each cell.",
    );
  });

  it("names the first range in argument order", () => {
    const args = { ticker: [["AAPL"]], dataset: [["roic"], ["nopat"]], year: [[2022, 2023]] };
    expect(() => singleCells("DATASET", args)).toThrow(/^dataset must be one cell, not a range of 2 cells/);
    expect(singleCells("DATASET", { ticker: [["AAPL"]], year: 2023 })).toEqual({
      ticker: "AAPL",
      year: 2023,
    });
  });
});
