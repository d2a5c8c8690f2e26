// Defined names are evaluated where they are used: constants, expressions, ranges; a sheet's own name before
// the workbook's. LET's names shadow them.
import { compute, valueOf } from "./compute";

const names = [
  { name: "Hurdle", text: "0.08" },
  { name: "LastYear", text: "Inputs!$B$2+4" },
  { name: "Rate", text: "0.5" },
  { name: "Rate", text: "0.1", scope: "S" },
  { name: "Prices", text: "Inputs!$C$1:$C$3" },
];
const sheets = { Inputs: { B2: 2019, C1: 1, C2: 2, C3: 3 } };

const on = (sheet: string, f: string): unknown =>
  compute({ sheets: { ...sheets, S: {}, T: {}, [sheet]: { A1: `=${f}` } }, names }).values.get(`${sheet}!A1`);

describe("defined names", () => {
  it("a constant name is its value", () => {
    expect(on("T", "Hurdle*2")).toBe(0.16);
  });

  it("an expression name is computed (LastYear=Inputs!$B$2+4 is 2023, not Inputs!$B$2)", () => {
    expect(on("T", "LastYear")).toBe(2023);
  });

  it("a sheet-scoped name wins on its sheet; the workbook's name applies elsewhere", () => {
    expect(on("S", "Rate")).toBe(0.1);
    expect(on("T", "Rate")).toBe(0.5);
    expect(on("T", "S!Rate")).toBe(0.1);
  });

  it("a range name reads its cells", () => {
    expect(on("T", "SUM(Prices)")).toBe(6);
  });

  it("LET's _xlpm. names shadow defined names and are seen by later ones", () => {
    expect(on("T", "_xlfn.LET(_xlpm.Hurdle,2,_xlpm.y,_xlpm.Hurdle*3,_xlpm.y+Hurdle)")).toBe(8);
  });

  it("a name that is not defined stops the formula with the name in the reason", () => {
    expect(() => valueOf("Nowhere+1")).toThrow(
      "skipped: uses the name Nowhere, which is not defined in the workbook",
    );
  });
});

describe("defined names with relative references", () => {
  it("a name's relative reference moves with the cell using it, stored from A1 and wrapping (XFD1 is the cell to the left)", () => {
    const { values } = compute({
      sheets: { S: { A1: 10, A2: 20, A3: 30, B2: "=Left+1", B3: "=Left+1", C1: "=Fixed" } },
      names: [
        { name: "Left", text: "S!XFD1" },
        { name: "Fixed", text: "S!$A$3" },
      ],
    });
    expect([values.get("S!B2"), values.get("S!B3"), values.get("S!C1")]).toEqual([21, 31, 30]);
  });
});
