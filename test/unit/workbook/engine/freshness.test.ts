// Which cells get new values: FDQ cells, formulas without a cached value, and what reads them, transitively.
// Everything else keeps its cached value; what cannot be computed is kept and reported, never guessed.
import type { Outcome } from "../../../../src/functions/evaluate";
import { compute } from "./compute";

const answer = (): Outcome => ({ ok: true, value: 0.25 }) as Outcome;
const FDQ = 'FDQ.DATAPOINT("AAPL","metrics/roic","ROIC",2023)';
const at = (r: { cell: { row: number; col: number } }): string => `${r.cell.row},${r.cell.col}`;

describe("which formulas get new values", () => {
  it("an FDQ cell and its dependents (transitively) get values; an unrelated formula keeps its cached one", () => {
    const { results, values } = compute(
      {
        sheets: {
          S: {
            A1: { f: FDQ, v: 0.1 },
            B1: { f: "A1*2", v: 0.2 },
            C1: { f: "B1+1", v: 1.2 },
            D1: { f: "5*2", v: 3 },
          },
        },
      },
      answer,
    );
    expect(results.map(at)).toEqual(["1,1", "1,2", "1,3"]);
    expect([values.get("S!A1"), values.get("S!B1"), values.get("S!C1")]).toEqual([0.25, 0.5, 1.5]);
  });

  it("a formula without a cached value is computed even if nothing it reads changed", () => {
    const { values } = compute({ sheets: { S: { A1: 2, B1: "=A1*3" } } });
    expect(values.get("S!B1")).toBe(6);
  });

  it("a dependent fdq cannot compute keeps its value and is reported with the function", () => {
    const { results } = compute(
      { sheets: { S: { A1: { f: FDQ, v: 0.1 }, B1: { f: "_xlfn.BETA.DIST(A1,2,3,TRUE)", v: 0.5 } } } },
      answer,
    );
    expect(results[1]).toMatchObject({ kind: "skipped", functions: ["BETA.DIST"] });
  });

  it("a formula fdq cannot compute that reads nothing new keeps its value silently", () => {
    const { results } = compute(
      { sheets: { S: { A1: { f: FDQ, v: 0.1 }, A2: 3, B2: { f: "BETA.DIST(A2,2,3,TRUE)", v: 0.5 } } } },
      answer,
    );
    expect(results.map(at)).toEqual(["1,1"]);
  });

  it("an unsupported function whose other arguments read an FDQ cell is still reported", () => {
    const { results } = compute(
      { sheets: { S: { A1: { f: FDQ, v: 0.1 }, A2: 3, B2: { f: "NOSUCH(A2)+A1", v: 0.5 } } } },
      answer,
    );
    expect(results.find((r) => r.cell.row === 2)).toMatchObject({ kind: "skipped", functions: ["NOSUCH"] });
  });

  it("a formula reading a skipped formula is skipped too, naming it", () => {
    const { results } = compute(
      { sheets: { S: { A1: { f: FDQ, v: 0.1 }, B1: { f: "NOSUCH(A1)", v: 1 }, C1: { f: "B1+1", v: 2 } } } },
      answer,
    );
    expect(results.find((r) => r.cell.col === 3)).toMatchObject({
      kind: "skipped",
      reason: "reads S!B1, which was not evaluated (it uses NOSUCH)",
      functions: ["NOSUCH"],
    });
  });

  it("INDIRECT reaching an FDQ cell makes its formula a dependent, reported as volatile", () => {
    const { results } = compute(
      { sheets: { S: { A1: { f: FDQ, v: 0.1 }, B1: { f: 'INDIRECT("A"&1)*4', v: 0.4 } } } },
      answer,
    );
    expect(results.find((r) => r.cell.col === 2)).toEqual({
      cell: expect.objectContaining({ row: 1, col: 2 }),
      kind: "skipped",
      reason: "uses INDIRECT, which Excel computes again whenever it calculates (fdq refresh does not)",
      functions: ["INDIRECT"],
    });
  });

  it("a dependent of an FDQ cell calling OFFSET is reported with OFFSET, as one calling RAND is", () => {
    const { results, values } = compute(
      {
        sheets: {
          S: {
            A1: { f: FDQ, v: 0.1 },
            B1: { f: "OFFSET(A1,0,0)*2", v: 0.2 },
            C1: { f: "A1*RAND()", v: 0.05 },
          },
        },
      },
      answer,
    );
    const reasons = results
      .filter((r) => r.kind === "skipped")
      .map((r) => [at(r), r.kind === "skipped" && r.reason]);
    expect(reasons).toEqual([
      ["1,2", "uses OFFSET, which Excel computes again whenever it calculates (fdq refresh does not)"],
      ["1,3", "uses RAND, which Excel computes again whenever it calculates (fdq refresh does not)"],
    ]);
    expect(values.has("S!B1")).toBe(false);
  });

  it("a formula calling OFFSET or INDIRECT that reads no FDQ answer keeps its cached value silently", () => {
    const { results } = compute(
      {
        sheets: {
          S: {
            A1: { f: FDQ, v: 0.1 },
            A2: 3,
            B2: { f: "OFFSET(A2,0,0)*2", v: 6 },
            C2: { f: 'INDIRECT("A2")+1', v: 4 },
          },
        },
      },
      answer,
    );
    expect(results.map(at)).toEqual(["1,1"]);
  });

  it("a formula without a cached value calling OFFSET, reading no FDQ answer, is computed", () => {
    const { values } = compute({ sheets: { S: { A1: 2, B1: "=OFFSET(A1,0,0)*3" } } });
    expect(values.get("S!B1")).toBe(6);
  });

  it("a dependent of an FDQ cell reading a cached OFFSET value is reported, naming the cell that calls it", () => {
    const { results } = compute(
      {
        sheets: {
          S: {
            A1: { f: FDQ, v: 0.1 },
            A2: 3,
            B2: { f: "OFFSET(A2,0,0)", v: 3 },
            C2: { f: "A1+B2", v: 3.1 },
          },
        },
      },
      answer,
    );
    expect(results.find((r) => r.cell.row === 2 && r.cell.col === 3)).toMatchObject({
      kind: "skipped",
      reason: "reads S!B2, whose value comes from OFFSET, which Excel computes again whenever it calculates",
      functions: ["OFFSET"],
    });
  });

  it("a what-if data table is never computed, and reported when anything changed", () => {
    const { results } = compute(
      { sheets: { S: { A1: { f: FDQ, v: 0.1 }, B1: { f: "TABLE(,A1)", v: 7, dataTable: true } } } },
      answer,
    );
    expect(results.find((r) => r.cell.col === 2)).toMatchObject({ kind: "skipped", functions: ["TABLE"] });
  });

  it("every cell a data table fills is reported, not only its first", () => {
    const { results } = compute(
      {
        sheets: {
          S: {
            A1: { f: FDQ, v: 0.1 },
            B1: { f: "A1*A2", v: 1 },
            C1: { f: "A1+A2", v: 2 },
            A2: 10,
            A3: 20,
            B2: { f: "", v: 1, dataTable: "B2:C3" },
            C2: 2,
            B3: 3,
            C3: 4,
          },
        },
      },
      answer,
    );
    const left = results
      .filter((r) => r.kind === "skipped")
      .map((r) => [at(r), r.kind === "skipped" && r.reason]);
    expect(left).toEqual([
      [
        "2,2",
        "a what-if data table (B2:C3), which fdq refresh does not compute (Excel recalculates it on open)",
      ],
      ...["2,3", "3,2", "3,3"].map((cell) => [
        cell,
        "a result of the what-if data table S!B2 (B2:C3), which fdq refresh does not compute (Excel recalculates it on open)",
      ]),
    ]);
  });

  it("a formula reading a data table's result is reported, even if nothing else it reads changed", () => {
    const { results } = compute(
      {
        sheets: {
          S: {
            A1: { f: FDQ, v: 0.1 },
            B1: { f: "A1*A2", v: 1 },
            A2: 10,
            B2: { f: "", v: 1, dataTable: "B2:B3" },
            B3: 3,
            D1: { f: "MAX(B2:B3)", v: 3 },
            D2: { f: "5*2", v: 10 },
          },
        },
      },
      answer,
    );
    expect(results.find((r) => at(r) === "1,4")).toEqual(
      expect.objectContaining({
        kind: "skipped",
        reason: "reads S!B2, a cell of a what-if data table, which fdq refresh does not compute",
        functions: ["TABLE"],
      }),
    );
    expect(results.find((r) => at(r) === "2,4")).toBeUndefined();
  });

  it("a formula computed from TODAY, NOW or RAND (directly or through cells) is reported, not recomputed", () => {
    const { results, values } = compute(
      {
        sheets: {
          S: {
            A1: { f: FDQ, v: 0.1 },
            B1: { f: "TODAY()", v: 45000 },
            C1: { f: "B1+1", v: 45001 },
            D1: { f: "A1+C1", v: 1 },
            E1: { f: "A1*RAND()", v: 1 },
            F1: { f: "C1*2", v: 90002 },
            G1: { f: "A1*2", v: 0.2 },
          },
        },
      },
      answer,
    );
    expect(
      results.filter((r) => r.kind === "skipped").map((r) => [at(r), r.kind === "skipped" && r.reason]),
    ).toEqual([
      ["1,4", "reads S!B1, whose value comes from TODAY, which Excel computes again whenever it calculates"],
      ["1,5", "uses RAND, which Excel computes again whenever it calculates (fdq refresh does not)"],
    ]);
    expect(values.get("S!G1")).toBe(0.5);
    expect(values.has("S!F1")).toBe(false);
  });

  it("a formula calling FDQ through a defined name gets a new value, in any form the name stores the call", () => {
    const { values, batches } = compute(
      {
        sheets: { S: { B1: { f: "Roic*2", v: 0.2 }, B2: { f: "Pe+1", v: 3 } } },
        names: [
          { name: "Roic", text: FDQ },
          { name: "Pe", text: '_xldudf_FDQ_DATAPOINT("AAPL","metrics/pe","PE",2023)' },
        ],
      },
      answer,
    );
    expect([values.get("S!B1"), values.get("S!B2")]).toEqual([0.5, 1.25]);
    expect(batches.flat()).toHaveLength(2);
  });

  it("a formula fdq cannot compute is reported when it reads an FDQ cell inside a range, not only at its ends", () => {
    const { results } = compute(
      {
        sheets: {
          S: {
            A1: 1,
            A2: { f: FDQ, v: 0.1 },
            A3: 3,
            B1: { f: "_xlfn.BETA.DIST(0.5,2,3,TRUE)+SUM(A1:A3)", v: 0.5 },
          },
        },
      },
      answer,
    );
    expect(results.find((r) => at(r) === "1,2")).toMatchObject({ kind: "skipped", functions: ["BETA.DIST"] });
  });

  it("a formula fdq cannot compute that refers across sheets is reported whatever it reads", () => {
    for (const f of [
      "_xlfn.BETA.DIST(0.5,2,3,TRUE)+SUM('Jan:Mar'!B2:B3)",
      "_xlfn.BETA.DIST(0.5,2,3,TRUE)+SUM(Jan:Mar!B2)",
    ]) {
      const { results } = compute(
        {
          sheets: {
            Jan: { B2: 1 },
            Feb: { B2: { f: FDQ, v: 0.1 } },
            Mar: { B2: 3 },
            S: { A1: { f, v: 0.5 } },
          },
        },
        answer,
      );
      expect(results.find((r) => r.cell.sheet === "S")).toMatchObject({ kind: "skipped" });
    }
  });

  it("a formula the parser cannot read is reported when a cell it refers to changed", () => {
    const { results } = compute(
      {
        sheets: {
          S: { A1: 1, A2: { f: FDQ, v: 0.1 }, B1: { f: "SUM(A1:A3)+((", v: 0.5 }, B2: { f: "A1+((", v: 1 } },
        },
      },
      answer,
    );
    expect(results.find((r) => at(r) === "1,2")).toMatchObject({ kind: "skipped" });
    expect(results.find((r) => at(r) === "2,2")).toBeUndefined();
  });

  it("a circular reference is reported, not looped on", () => {
    const { results } = compute({ sheets: { S: { A1: "=B1+1", B1: "=A1+1" } } });
    expect(
      results.some((r) => r.kind === "skipped" && r.reason.startsWith("circular reference through")),
    ).toBe(true);
  });

  it("a formula reading an empty cell shows 0, as Excel does", () => {
    expect(compute({ sheets: { S: { B1: "=A1" } } }).values.get("S!B1")).toBe(0);
  });
});
