// Excel's errors flow through ranges and operators; only the functions made to catch them stop them.
import { ExcelError } from "../../../../src/workbook/model";
import { plain, valueOf } from "./compute";

const withNA = { A1: 1, A2: new ExcelError("#N/A"), A3: 3, B1: 2, B2: 4, B3: 6 };
const NA = { error: "#N/A" };

describe("error propagation", () => {
  it.each([
    "SUM(A1:A3)",
    "AVERAGE(A1:A3)",
    "PRODUCT(A1:A3)",
    "SUMPRODUCT(A1:A3,B1:B3)",
    "MAX(A1:A3)",
    "MEDIAN(A1:A3)",
  ])("%s over a range holding #N/A is #N/A", (f) => {
    expect(plain(valueOf(f, withNA))).toEqual(NA);
  });

  it("SUMIF is #N/A when a matching cell to sum holds #N/A, and ignores one that does not match", () => {
    expect(plain(valueOf('SUMIF(B1:B3,">0",A1:A3)', withNA))).toEqual(NA);
    expect(valueOf('SUMIF(B1:B3,"<>4",A1:A3)', withNA)).toBe(4);
  });

  it("IFERROR(AVERAGE(...)) gives the fallback, not a number computed without the error", () => {
    expect(valueOf("IFERROR(AVERAGE(A1:A3),-1)", withNA)).toBe(-1);
  });

  it("arithmetic passes the first error on; division by zero is #DIV/0!", () => {
    expect(plain(valueOf("A2*2+1/0", withNA))).toEqual(NA);
    expect(plain(valueOf("1/0+A2", withNA))).toEqual({ error: "#DIV/0!" });
  });

  it("COUNT and COUNTA count around errors as Excel does", () => {
    expect(valueOf("COUNT(A1:A3)", withNA)).toBe(2);
    expect(valueOf("COUNTA(A1:A3)", withNA)).toBe(3);
  });

  it("text in a range is skipped by SUM, text given directly is #VALUE!", () => {
    expect(valueOf("SUM(A1:A2)", { A1: 1, A2: "x" })).toBe(1);
    expect(plain(valueOf('SUM(1,"x")'))).toEqual({ error: "#VALUE!" });
    expect(valueOf('SUM(1,"2",TRUE)')).toBe(4);
  });
});
