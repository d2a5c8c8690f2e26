// Array arithmetic: SUMPRODUCT's arguments, legacy array formulas ({=...}), dynamic arrays and their spills,
// and implicit intersection in plain formulas.
import type { Outcome } from "../../../../src/functions/evaluate";
import { ExcelError } from "../../../../src/workbook/model";
import { compute, plain, valueOf } from "./compute";

const column = { F2: 0.2, F3: 0.15, F4: 0.3, F5: 0.11, F6: 0.5 };

describe("array arithmetic", () => {
  it("SUMPRODUCT(--(F2:F6>0.1)) counts the cells over 0.1", () => {
    expect(valueOf("SUMPRODUCT(--(F2:F6>0.1))", column)).toBe(5);
  });

  it("SUMPRODUCT of ranges of different sizes is #VALUE!", () => {
    expect(plain(valueOf("SUMPRODUCT(F2:F6,F2:F5)", column))).toEqual({ error: "#VALUE!" });
  });

  it("{=PRODUCT(1+B2:F2)-1} compounds the row", () => {
    const { values } = compute({
      sheets: {
        S: {
          B2: 0.1,
          C2: 0.2,
          D2: 0.3,
          E2: 0.1,
          F2: 0.05,
          A5: { f: "PRODUCT(1+B2:F2)-1", array: "A5", cse: true },
        },
      },
    });
    expect(values.get("S!A5")).toBeCloseTo(0.981_98, 10);
  });

  it("a legacy array formula fills its range: cut when smaller, #N/A beyond a shorter result", () => {
    const { values } = compute({
      sheets: { S: { A1: 1, A2: 2, C1: { f: "A1:A2*10", array: "C1:C3", cse: true } } },
    });
    expect([values.get("S!C1"), values.get("S!C2"), plain(values.get("S!C3"))]).toEqual([
      10,
      20,
      { error: "#N/A" },
    ]);
  });

  it("a plain formula reads a range by implicit intersection with its own row", () => {
    const { values } = compute({ sheets: { S: { A1: 1, A2: 2, A3: 3, B2: "=A1:A3*10", B9: "=A1:A3*10" } } });
    expect(values.get("S!B2")).toBe(20);
    expect(plain(values.get("S!B9"))).toEqual({ error: "#VALUE!" });
  });

  it("a dynamic array spills, and a formula reading A1# reads the whole spill", () => {
    const { values, results } = compute({
      sheets: { S: { A1: { f: "_xlfn.SEQUENCE(3)", array: "A1" }, C1: "=SUM(A1#)" } },
    });
    expect([values.get("S!A1"), values.get("S!A2"), values.get("S!A3"), values.get("S!C1")]).toEqual([
      1, 2, 3, 6,
    ]);
    const anchor = results.find((r) => r.cell.row === 1 && r.cell.col === 1);
    expect(anchor?.kind === "value" && anchor.spill?.ref).toBe("A1:A3");
  });

  it("_xlfn.ANCHORARRAY(A1), how a file stores A1#, reads the whole spill", () => {
    const { values } = compute({
      sheets: { S: { A1: { f: "_xlfn.SEQUENCE(3)", array: "A1" }, C1: "=SUM(_xlfn.ANCHORARRAY(A1))" } },
    });
    expect(values.get("S!C1")).toBe(6);
  });

  it("A1# of a cell that is no dynamic array is #REF!, computed again when that cell changes", () => {
    const { values } = compute(
      {
        sheets: {
          S: {
            A1: { f: 'FDQ.DATAPOINT("AAPL","metrics/roic","ROIC",2023)', v: 0.1 },
            C1: { f: "SUM(_xlfn.ANCHORARRAY(A1))", v: 0.1 },
          },
        },
      },
      () => ({ ok: true, value: 0.25 }) as Outcome,
    );
    expect(plain(values.get("S!C1"))).toEqual({ error: "#REF!" });
  });

  it("a spill onto the user's data is #SPILL! and places nothing", () => {
    const { values, results } = compute({
      sheets: { S: { A1: { f: "_xlfn.SEQUENCE(3)", array: "A1" }, A3: "mine" } },
    });
    expect(plain(values.get("S!A1"))).toEqual({ error: "#SPILL!" });
    const anchor = results.find((r) => r.cell.row === 1);
    expect(anchor?.kind === "value" && anchor.spill).toEqual({ rows: undefined, ref: "A1", blocked: ["A3"] });
  });

  it("a shrinking spill empties the cells it no longer covers, and readers see them empty", () => {
    const { values } = compute({
      sheets: {
        S: { A1: { f: "_xlfn.SEQUENCE(2)", array: "A1:A4" }, A2: 2, A3: 3, A4: 4, C1: "=COUNT(A1:A4)" },
      },
    });
    expect(values.get("S!C1")).toBe(2);
  });

  it("FILTER, SORT and UNIQUE give arrays; FILTER finding nothing is #CALC!", () => {
    const data = { A1: 3, A2: 1, A3: 3, A4: 2 };
    expect(valueOf("SUM(_xlfn._xlws.FILTER(A1:A4,A1:A4>1))", data)).toBe(8);
    expect(valueOf("INDEX(_xlfn._xlws.SORT(A1:A4),1)", data)).toBe(1);
    expect(valueOf("ROWS(_xlfn.UNIQUE(A1:A4))", data)).toBe(3);
    expect(plain(valueOf("_xlfn._xlws.FILTER(A1:A4,A1:A4>9)", data))).toEqual({ error: "#CALC!" });
    expect(valueOf('_xlfn._xlws.FILTER(A1:A4,A1:A4>9,"none")', data)).toBe("none");
  });

  it("an error element of an array stays in its place", () => {
    const { values } = compute({
      sheets: { S: { A1: 1, A2: new ExcelError("#N/A"), C1: { f: "A1:A2*2", array: "C1" } } },
    });
    expect([values.get("S!C1"), plain(values.get("S!C2"))]).toEqual([2, { error: "#N/A" }]);
  });
});

describe("spills reaching cells read earlier", () => {
  it("a formula that read a cell as empty before a new spill reached it is reported with what used it", () => {
    const { results } = compute({
      sheets: {
        S: {
          A1: { f: "_xlfn.SEQUENCE(C1)", array: "A1" },
          C1: "=COUNT(E2:E5)+1",
          E1: { f: "_xlfn.SEQUENCE(3)", array: "E1" },
        },
      },
    });
    const skipped = results.filter((r) => r.kind === "skipped").map((r) => `${r.cell.row},${r.cell.col}`);
    expect(skipped.sort()).toEqual(["1,1", "1,3"]);
    expect(results.find((r) => r.cell.col === 5)).toMatchObject({ kind: "value", value: 1 });
  });
});
