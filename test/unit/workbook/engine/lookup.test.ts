// Lookups answer what Excel answers, references included.
import { plain, valueOf } from "./compute";

const data = {
  A1: "AAPL",
  A2: "MSFT",
  A3: "NFLX",
  B1: 0.3,
  B2: 0.2,
  B3: 0.1,
  C1: 2019,
  C2: 2021,
  C3: 2023,
};

describe("lookup and reference functions", () => {
  it("INDEX/MATCH finds exactly, case-insensitively, with wildcards", () => {
    expect(valueOf('INDEX(B1:B3,MATCH("msft",A1:A3,0))', data)).toBe(0.2);
    expect(valueOf('MATCH("N*",A1:A3,0)', data)).toBe(3);
    expect(plain(valueOf('MATCH("GOOG",A1:A3,0)', data))).toEqual({ error: "#N/A" });
  });

  it("MATCH's approximate mode takes the last value not greater", () => {
    expect(valueOf("MATCH(2022,C1:C3)", data)).toBe(2);
    expect(plain(valueOf("MATCH(2000,C1:C3)", data))).toEqual({ error: "#N/A" });
  });

  it("XLOOKUP: exact, not found, next larger, from the end, and a reference result", () => {
    expect(valueOf('_xlfn.XLOOKUP("NFLX",A1:A3,B1:B3)', data)).toBe(0.1);
    expect(valueOf('_xlfn.XLOOKUP("X",A1:A3,B1:B3,"none")', data)).toBe("none");
    expect(valueOf("_xlfn.XLOOKUP(2020,C1:C3,A1:A3,,1)", data)).toBe("MSFT");
    expect(valueOf("_xlfn.XLOOKUP(2020,C1:C3,A1:A3,,-1)", data)).toBe("AAPL");
    expect(valueOf('SUM(_xlfn.XLOOKUP("MSFT",A1:A3,B1:B3):B3)', data)).toBeCloseTo(0.3, 12);
  });

  it("XMATCH and LOOKUP", () => {
    expect(valueOf("_xlfn.XMATCH(0.1,B1:B3)", data)).toBe(3);
    expect(valueOf("LOOKUP(2022,C1:C3,A1:A3)", data)).toBe("MSFT");
  });

  it("VLOOKUP and HLOOKUP, exact and approximate", () => {
    expect(valueOf('VLOOKUP("MSFT",A1:C3,3,FALSE)', data)).toBe(2021);
    expect(plain(valueOf('VLOOKUP("MSFT",A1:C3,4,FALSE)', data))).toEqual({ error: "#REF!" });
    expect(valueOf("HLOOKUP(0.2,B1:B3,1)", { B1: 0.1, ...{} })).toBe(0.1);
  });

  it("OFFSET and INDIRECT read the cells they reach", () => {
    expect(valueOf("SUM(OFFSET(B1,1,0,2,1))", data)).toBeCloseTo(0.3, 12);
    expect(valueOf('INDIRECT("B"&2)', data)).toBe(0.2);
    expect(valueOf('SUM(INDIRECT("S!B1:B3"))', data)).toBeCloseTo(0.6, 12);
    expect(plain(valueOf('INDIRECT("not a ref")', data))).toEqual({ error: "#REF!" });
  });

  it("ROWS, COLUMNS, ROW and COLUMN", () => {
    expect(valueOf("ROWS(A1:C3)*COLUMNS(A1:B1)", data)).toBe(6);
    expect(valueOf("ROW(C3)+COLUMN(C3)", data)).toBe(6);
  });
});
