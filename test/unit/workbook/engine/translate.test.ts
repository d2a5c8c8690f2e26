// Shared formulas moved to a follower's cell, as Excel moves a copied formula (src/workbook/engine/translate.ts).
import { translateFormula } from "../../../../src/workbook/engine/translate";

describe("translateFormula", () => {
  it("shifts relative rows and columns and keeps $-fixed ones", () => {
    expect(translateFormula("A1+$B$2+C$3+$D4", 1, 1, 3, 2)).toBe("B3+$B$2+D$3+$D6");
  });

  it("moves both ends of a range, sheet prefixes kept as written", () => {
    expect(translateFormula("SUM(Data!A1:B2)+'My Sheet'!$C1", 2, 2, 4, 2)).toBe(
      "SUM(Data!A3:B4)+'My Sheet'!$C3",
    );
  });

  it("moves whole-column and whole-row areas", () => {
    expect(translateFormula("SUM(A:B)+SUM(3:4)+SUM($C:C)", 1, 1, 2, 3)).toBe("SUM(C:D)+SUM(4:5)+SUM($C:E)");
  });

  it("keeps text in quotes, names, functions and structured references", () => {
    expect(translateFormula('"A1"&Rate+LOG10(A1)+Tbl[@Col]+SUM(Tbl[[#This Row],[X]])', 1, 1, 2, 1)).toBe(
      '"A1"&Rate+LOG10(A2)+Tbl[@Col]+SUM(Tbl[[#This Row],[X]])',
    );
  });

  it("writes #REF! for a reference moved off the grid", () => {
    expect(translateFormula("A1+B2", 2, 2, 1, 1)).toBe("#REF!+A1");
    expect(translateFormula("Sheet2!A2", 2, 1, 1, 1)).toBe("Sheet2!A1");
  });

  it("wraps around the grid when asked, as a defined name's references do", () => {
    expect(translateFormula("Sheet1!XFD1", 1, 1, 2, 2, true)).toBe("Sheet1!A2");
  });

  it("keeps the formula as it is at its own position", () => {
    expect(translateFormula("A1 + B1", 5, 5, 5, 5)).toBe("A1 + B1");
  });
});
