// Freeze values writes service text as text: nothing the service sends becomes a live formula.
import { asLiteral, literalRows } from "../../../src/taskpane/office/literal";

describe("writing values as literals", () => {
  it("prefixes text that Excel would read as a formula with an apostrophe", () => {
    expect(["=HYPERLINK(1)", "+1", "-x", "@SUM(A1)"].map(asLiteral)).toEqual([
      "'=HYPERLINK(1)",
      "'+1",
      "'-x",
      "'@SUM(A1)",
    ]);
  });

  it("leaves numbers, booleans and other text as they are", () => {
    expect([-5, 0.25, true, "Apple Inc.", "", "a=b"].map(asLiteral)).toEqual([
      -5,
      0.25,
      true,
      "Apple Inc.",
      "",
      "a=b",
    ]);
  });

  it("converts every cell of a spilled range", () => {
    expect(
      literalRows([
        ["NAME", "=1+1"],
        [-3, "ok"],
      ]),
    ).toEqual([
      ["NAME", "'=1+1"],
      [-3, "ok"],
    ]);
  });
});
